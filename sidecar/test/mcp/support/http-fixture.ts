// A minimal Streamable HTTP MCP endpoint on 127.0.0.1, written by hand so tests control exactly what it
// answers: JSON responses, a session id, no GET stream (405), a tool whose answer is over the 8 MiB limit.
import type http from 'node:http';
import { type LoopbackServer, listenOnLoopback } from '../../support/loopback-server';

export interface HttpFixture {
  url: string;
  server: LoopbackServer;
  /** Every request's method and its x-test header. */
  seen: { method: string; xTest: string | undefined; session: string | undefined }[];
  close(): Promise<void>;
}

const SESSION = 'fixture-session-1';

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => {
      body += d;
    });
    req.on('end', () => resolve(body));
  });
}

export async function startHttpFixture(): Promise<HttpFixture> {
  const seen: HttpFixture['seen'] = [];
  const server = await listenOnLoopback(async (req, res) => {
    const header = (name: string) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    seen.push({ method: req.method ?? '', xTest: header('x-test'), session: header('mcp-session-id') });
    if (req.method === 'GET') return void res.writeHead(405).end();
    if (req.method === 'DELETE') return void res.writeHead(200).end();
    const msg = JSON.parse(await readBody(req)) as {
      id?: number;
      method: string;
      params?: Record<string, unknown>;
    };
    if (msg.id === undefined) return void res.writeHead(202).end();
    const reply = (result: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': SESSION });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
    };
    switch (msg.method) {
      case 'initialize':
        return reply({
          protocolVersion: msg.params?.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'http-fixture', version: '1.0.0' },
        });
      case 'tools/list':
        return reply({
          tools: ['echo', 'big'].map((name) => ({ name, inputSchema: { type: 'object', properties: {} } })),
        });
      case 'tools/call': {
        const name = msg.params?.name;
        if (name === 'big') return reply({ content: [{ type: 'text', text: 'z'.repeat(9 * 1024 * 1024) }] });
        const args = (msg.params?.arguments ?? {}) as { message?: string };
        return reply({ content: [{ type: 'text', text: String(args.message ?? '') }] });
      }
      default:
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(
          JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'no' } }),
        );
    }
  });
  return { url: `${server.url}/mcp`, server, seen, close: () => server.close() };
}
