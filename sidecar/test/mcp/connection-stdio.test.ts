import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { McpCallError, type McpConnectionState } from '../../src/mcp/mcp-connection';
import { tempDir } from '../support/harness';
import {
  connectionsClosedAfterEach,
  EVERYTHING,
  FILESYSTEM,
  nodeServer,
  pidAlive,
  waitFor,
} from './support/mcp-servers';

const connect = connectionsClosedAfterEach();

describe('McpConnection over stdio with server-everything', () => {
  it('initializes, lists tools, calls echo, keeps an image as an attachment and reports isError', async () => {
    const conn = await connect(nodeServer(EVERYTHING, ['stdio']), {});
    expect(conn.state).toBe('connected');
    expect(conn.serverInfo?.name).toBeTruthy();
    const names = conn.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-tiny-image', 'get-sum']));
    const echo = conn.tools.find((t) => t.name === 'echo');
    expect(echo?.allowed).toBe(true);
    expect(echo?.inputSchema.type).toBe('object');

    const r = await conn.callTool('echo', { message: 'hello cairn' }, {});
    expect(r.isError).toBe(false);
    expect(r.text).toContain('hello cairn');
    expect(r.attachments).toEqual([]);

    const img = await conn.callTool('get-tiny-image', {}, {});
    expect(img.isError).toBe(false);
    const image = img.attachments.find((a) => a.type === 'image');
    expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
    const data = image && 'data' in image ? image.data : '';
    // A real PNG: base64 of the 8-byte signature.
    expect(
      Buffer.from(data ?? '', 'base64')
        .subarray(0, 8)
        .toString('hex'),
    ).toBe('89504e470d0a1a0a');

    const links = await conn.callTool('get-resource-links', { count: 2 }, {});
    const linked = links.attachments.filter((a) => a.type === 'resource_link');
    expect(linked.length).toBe(2);
    expect(linked[0]).toMatchObject({ type: 'resource_link', uri: expect.stringMatching(/^demo:\/\//) });

    // The SDK's server turns a failed argument check into an isError result.
    const bad = await conn.callTool('echo', { message: 42 }, {});
    expect(bad.isError).toBe(true);
    expect(bad.text.length).toBeGreaterThan(0);
    // The connection is still usable after a failed call.
    expect((await conn.callTool('get-sum', { a: 2, b: 3 }, {})).text).toContain('5');
  });

  it('applies allow and deny lists: deny wins, an empty allow-list allows nothing, refused calls never reach the server', async () => {
    const conn = await connect(
      nodeServer(EVERYTHING, ['stdio'], { allowTools: ['echo', 'get-sum'], denyTools: ['get-sum'] }),
      {},
    );
    const allowed = conn.tools.filter((t) => t.allowed).map((t) => t.name);
    expect(allowed).toEqual(['echo']);
    expect(conn.tools.length).toBeGreaterThan(3); // all listed, marked
    await expect(conn.callTool('get-sum', { a: 1, b: 2 }, {})).rejects.toThrow(/not allowed/);
    await expect(conn.callTool('get-tiny-image', {}, {})).rejects.toBeInstanceOf(McpCallError);
    await expect(conn.callTool('no-such-tool', {}, {})).rejects.toThrow(/no tool named "no-such-tool"/);
    expect((await conn.callTool('echo', { message: 'x' }, {})).text).toContain('x');

    const none = await connect(nodeServer(EVERYTHING, ['stdio'], { allowTools: [] }), {});
    expect(none.tools.length).toBeGreaterThan(0);
    expect(none.tools.some((t) => t.allowed)).toBe(false);
  });

  it('close() stops the server process and reports stopped', async () => {
    const conn = await connect(nodeServer(EVERYTHING, ['stdio']), {});
    const states: McpConnectionState[] = [];
    conn.onStateChange((s) => states.push(s));
    // The pid is not part of the API; the transport's is reachable for this check only.
    const pid = (conn as unknown as { transport: { pid: number } }).transport.pid;
    expect(pidAlive(pid)).toBe(true);
    await conn.close();
    expect(states).toEqual(['stopped']);
    await waitFor(() => !pidAlive(pid), 5_000, 'the server to exit');
    await expect(conn.callTool('echo', { message: 'x' }, {})).rejects.toThrow(/was stopped/);
  });
});

describe('McpConnection over stdio with server-filesystem', () => {
  it('lists the allowed directory and reads a file in it', async () => {
    const dir = tempDir('mcp-fs');
    fs.writeFileSync(path.join(dir, 'note.txt'), 'the quick brown fox\n');
    const conn = await connect(nodeServer(FILESYSTEM, [dir], { cwd: dir }), {});
    expect(conn.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['list_allowed_directories', 'read_text_file']),
    );
    const dirs = await conn.callTool('list_allowed_directories', {}, {});
    expect(dirs.text).toContain(dir);
    const file = await conn.callTool('read_text_file', { path: path.join(dir, 'note.txt') }, {});
    expect(file.isError).toBe(false);
    expect(file.text).toContain('the quick brown fox');
    const outside = await conn.callTool('read_text_file', { path: '/etc/hostname' }, {});
    expect(outside.isError).toBe(true);
  });
});
