import fs from 'node:fs';
import { request } from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPT_MESSAGE_LIMIT } from '../../src/protocol';
import { PieceWriter, pieceFileName, readPieces } from '../../src/tools/runtime/call-pieces';
import { ScriptEndpoint, type ScriptMessage } from '../../src/tools/runtime/script-endpoint';
import { makeTempDir, removeDir } from './tool-context';

/** The script endpoint's byte channel: its two listeners, its limits, what reaches the handler. */
describe('ScriptEndpoint', () => {
  const seen: ScriptMessage[] = [];
  const endpoint = new ScriptEndpoint(
    async (message) => {
      seen.push(message);
      return { status: 200, body: { op: message.op, token: message.token, body: message.body } };
    },
    { admits: (token) => token?.startsWith('cts_') === true, bodyTimeoutMs: 300 },
  );
  beforeAll(() => endpoint.start());
  afterAll(() => endpoint.close());

  const post = (
    where: { endpoint: string },
    path: string,
    body: string | Buffer,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; json: unknown }> => {
    const target = where.endpoint.startsWith('unix:')
      ? { socketPath: where.endpoint.slice(5) }
      : { host: '127.0.0.1', port: Number(new URL(where.endpoint).port) };
    return new Promise((resolve, reject) => {
      const req = request({ ...target, method: 'POST', path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }),
        );
      });
      req.on('error', reject);
      req.end(body);
    });
  };

  it('listens on loopback TCP and on a private Unix socket, handing on the op, token and body', async () => {
    const tcp = await endpoint.endpoint();
    expect(tcp).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const unix = await endpoint.unixEndpoint();
    expect(unix).toMatch(/^unix:\//);
    expect(fs.statSync(unix!.slice(5)).isSocket()).toBe(true);
    for (const where of [tcp, unix!]) {
      const answer = await post({ endpoint: where }, '/v1/status', '{"call_id":"tc_1"}', {
        authorization: 'Bearer cts_abc',
      });
      expect(answer).toEqual({
        status: 200,
        json: { op: 'status', token: 'cts_abc', body: { call_id: 'tc_1' } },
      });
    }
  });

  it('refuses a body over 8 MiB without reading it into memory, and bad JSON or routes', async () => {
    const before = seen.length;
    const where = { endpoint: await endpoint.endpoint() };
    const auth = { authorization: 'Bearer cts_abc' };
    const big = await post(where, '/v1/call', Buffer.alloc(SCRIPT_MESSAGE_LIMIT + 10, 0x20), auth);
    expect(big.status).toBe(413);
    expect(JSON.stringify(big.json)).toContain('8 MiB');
    expect((await post(where, '/v1/call', '{nope', auth)).status).toBe(400);
    expect((await post(where, '/v2/call', '{}', auth)).status).toBe(404);
    expect(seen.length).toBe(before);
  });

  it('reads nothing for a token it does not admit', async () => {
    const where = { endpoint: await endpoint.endpoint() };
    const before = seen.length;
    const none = await post(where, '/v1/call', '{}');
    expect(none.status).toBe(401);
    expect(JSON.stringify(none.json)).toContain('No token');
    const wrong = await post(where, '/v1/call', Buffer.alloc(1024), { authorization: 'Bearer nope' });
    expect(wrong.status).toBe(401);
    expect(JSON.stringify(wrong.json)).toContain('not valid now');
    expect(seen.length).toBe(before);
  });

  it('survives a client that sends part of a body and goes away, and one that stalls', async () => {
    const port = Number(new URL(await endpoint.endpoint()).port);
    const partial = (rest: 'reset' | 'stall') =>
      new Promise<string>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.write(
            'POST /v1/call HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer cts_abc\r\nContent-Length: 100\r\n\r\n0123456789',
          );
          if (rest === 'reset') {
            socket.resetAndDestroy();
            resolve('reset');
          }
        });
        let answer = '';
        socket.on('data', (chunk) => {
          answer += chunk.toString();
        });
        socket.on('close', () => resolve(answer));
        socket.on('error', () => resolve(answer));
      });
    expect(await partial('reset')).toBe('reset');
    // The stalled body is given up after its time, with an answer that says why.
    expect(await partial('stall')).toContain('400 Bad Request');
    // Still serving.
    const ok = await post({ endpoint: await endpoint.endpoint() }, '/v1/status', '{}', {
      authorization: 'Bearer cts_abc',
    });
    expect(ok.status).toBe(200);
  });
});

describe('output pieces', () => {
  it('numbers pieces past four digits and reads them in numeric order, expecting gaps', async () => {
    expect(pieceFileName(7)).toBe('0007.txt');
    expect(pieceFileName(12345)).toBe('12345.txt');
    const dir = await makeTempDir();
    try {
      for (const n of [9998, 9999, 10000, 10001]) fs.writeFileSync(`${dir}/${pieceFileName(n)}`, `<${n}>`);
      const read = readPieces(dir, 9998);
      expect(read.pieces.map((p) => p.number)).toEqual([9999, 10000, 10001]);
      expect(read.missing).toBe(0);
      expect(readPieces(dir, 100).missing).toBe(9897); // 101…9997 are gone
      expect(
        readPieces(dir)
          .pieces.map((p) => p.text)
          .join(''),
      ).toBe('<9998><9999><10000><10001>');
    } finally {
      await removeDir(dir);
    }
  });

  it('writes a piece per window, splits long output, and keeps the newest 20', async () => {
    const dir = await makeTempDir();
    try {
      const writer = new PieceWriter(dir);
      writer.write('a');
      writer.write('b');
      writer.flush();
      expect(fs.readFileSync(`${dir}/0000.txt`, 'utf8')).toBe('ab');
      writer.write('x'.repeat(16 * 1024 * 25));
      writer.close();
      const names = fs.readdirSync(dir).sort();
      expect(names).toHaveLength(20);
      expect(names[0]).toBe('0006.txt');
      expect(names.at(-1)).toBe('0025.txt');
    } finally {
      await removeDir(dir);
    }
  });
});
