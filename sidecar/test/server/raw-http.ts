import http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export interface RawRequest {
  port: number;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * One request through node:http, which (unlike fetch) sends the Host, Origin and Authorization headers
 * exactly as given.
 */
export function rawRequest(options: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: options.port,
        method: options.method,
        path: options.path,
        headers: options.headers ?? {},
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The parsed JSON body of a response, or null when it has none. */
export function json<T = unknown>(res: RawResponse): T {
  return (res.text ? JSON.parse(res.text) : null) as T;
}

/** The error code of an `{ error: { code, message } }` body. */
export function errorCode(res: RawResponse): string | undefined {
  const body = json<{ error?: { code?: string } } | null>(res);
  return body?.error?.code;
}
