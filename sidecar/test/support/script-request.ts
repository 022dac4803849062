import { request } from 'node:http';

/** One request to a script endpoint (`http://127.0.0.1:PORT` or `unix:PATH`), as a stray client would send it. */
export function scriptRequest(
  endpoint: string,
  token: string,
  op: string,
  body: unknown,
): Promise<{ status: number; json: unknown }> {
  const where = endpoint.startsWith('unix:')
    ? { socketPath: endpoint.slice('unix:'.length) }
    : { host: '127.0.0.1', port: Number(new URL(endpoint).port) };
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        ...where,
        method: 'POST',
        path: `/v1/${op}`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }),
        );
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}
