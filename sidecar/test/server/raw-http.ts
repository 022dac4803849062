import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

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
  /** Over TLS, trusting only `ca`; the certificate must name `servername` (default: the Host name). */
  tls?: { ca: Buffer; servername?: string };
}

/**
 * One request through node:http or node:https, which (unlike fetch) sends the Host, Origin and Authorization headers
 * exactly as given.
 */
export function rawRequest(options: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers = options.headers ?? {};
    const common = {
      host: '127.0.0.1',
      port: options.port,
      method: options.method,
      path: options.path,
      headers,
      agent: false as const,
    };
    const name = options.tls?.servername ?? headers.host?.replace(/:\d+$/, '');
    // An IP is checked against the certificate without SNI (RFC 6066 allows no IP there).
    const servername = name && net.isIP(name.replace(/^\[|\]$/g, '')) === 0 ? name : undefined;
    const onResponse = (res: http.IncomingMessage) => {
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
    };
    const req = options.tls
      ? https.request({ ...common, ca: options.tls.ca, servername }, onResponse)
      : http.request(common, onResponse);
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
