import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { McpCallError, McpConnection, McpConnectionError } from '../../src/mcp/mcp-connection';
import { tempDir } from '../support/harness';
import { BAD_SERVER, connectionsClosedAfterEach, nodeServer, pidAlive, waitFor } from './support/mcp-servers';

const connect = connectionsClosedAfterEach();
const connectBad = (mode: string, over: Parameters<typeof nodeServer>[2] = {}) =>
  connect(nodeServer(BAD_SERVER, [mode], { name: 'bad', ...over }), {});

/** The fixture's `sleep` grandchild: the part of the tree the SDK's own transport would leave behind. */
async function grandchild(conn: McpConnection): Promise<number> {
  const pid = Number((await conn.callTool('child_pid', {}, {})).text);
  expect(pidAlive(pid)).toBe(true);
  return pid;
}

/** Pids of `sleep 600` processes whose parent chain includes nothing: found by their command line. */
function sleepers(): Set<number> {
  const found = new Set<number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmd === 'sleep\u0000600\u0000' && pidAlive(Number(entry))) found.add(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

async function expectConnectFailure(mode: string, message: RegExp): Promise<McpConnectionError> {
  const before = sleepers();
  const err = await McpConnection.connect(nodeServer(BAD_SERVER, [mode], { name: 'bad' }), {}).then(
    () => {
      throw new Error('connected, but should have failed');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpConnectionError);
  expect((err as Error).message).toMatch(/^MCP server "bad" could not connect: /);
  expect((err as Error).message).toMatch(message);
  // Nothing is left running: no new sleep grandchild survives the failure.
  const leftover = [...sleepers()].filter((p) => !before.has(p));
  await waitFor(() => leftover.every((p) => !pidAlive(p)), 5_000, 'the fixture tree to be gone');
  return err as McpConnectionError;
}

describe('McpConnection against a misbehaving stdio server', () => {
  it('close() kills the whole process tree, including a child the server leaves behind', async () => {
    const conn = await connectBad('ok');
    const child = await grandchild(conn);
    await conn.close();
    await waitFor(() => !pidAlive(child), 5_000, 'the grandchild to be killed');
    expect(conn.state).toBe('stopped');
  });

  it('a crash at start fails the connection with the exit code and the stderr tail', async () => {
    const err = await expectConnectFailure(
      'crash-at-start',
      /the server exited \(code 2\) before it finished starting/,
    );
    expect(err.message).toContain('cannot read its configuration');
  });

  it('garbage on stdout at start fails the connection with the line it printed', async () => {
    await expectConnectFailure(
      'garbage-stdout',
      /printed something that is not MCP on stdout: Welcome to bad-server/,
    );
  });

  it('more than 256 tools fails the connection', async () => {
    await expectConnectFailure('many-tools', /more than 256 tools/);
  });

  it('a tool catalog over 1 MiB fails the connection', async () => {
    await expectConnectFailure('big-catalog', /tool catalog is 1\.\d MiB, over the 1 MiB limit/);
  });

  it('a server that never answers initialize fails after the start-up timeout', async () => {
    const before = sleepers();
    const err = await McpConnection.connect(
      nodeServer(
        process.execPath,
        ['-e', 'require("child_process").spawn("sleep",["600"]);setInterval(()=>{},1e3)'],
        {
          name: 'bad',
          args: [
            '-e',
            'require("child_process").spawn("sleep",["600"],{stdio:"ignore"});setInterval(()=>{},1e3)',
          ],
          startupTimeoutMs: 800,
        },
      ),
      {},
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpConnectionError);
    expect((err as Error).message).toMatch(/did not finish starting within 0\.8 s/);
    const leftover = [...sleepers()].filter((p) => !before.has(p));
    await waitFor(() => leftover.every((p) => !pidAlive(p)), 5_000, 'the tree to be gone');
  });

  it('a crash during a call fails that call at once, marks the connection crashed and reaps the tree', async () => {
    const conn = await connectBad('crash-on-call', { toolTimeoutMs: 60_000 });
    const child = await grandchild(conn);
    const changes: [string, string | null][] = [];
    conn.onStateChange((s, e) => changes.push([s, e]));
    const err = await conn.callTool('echo', { message: 'hi' }, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpCallError);
    expect((err as Error).message).toMatch(
      /the server exited \(code 3\); its tools are unavailable until it is started again/,
    );
    expect((err as Error).message).toContain('segfault (simulated)');
    expect(conn.state).toBe('crashed');
    expect(changes).toEqual([['crashed', expect.stringMatching(/exited \(code 3\)/)]]);
    // Later calls fail the same clear way, without trying.
    await expect(conn.callTool('echo', { message: 'again' }, {})).rejects.toThrow(
      /unavailable until it is started again/,
    );
    await waitFor(() => !pidAlive(child), 5_000, 'the grandchild to be killed after the crash');
  });

  it('a call that never answers times out with a clear error and sends notifications/cancelled', async () => {
    const log = path.join(tempDir('mcp-bad'), 'notes.log');
    const conn = await connectBad('ok', {
      toolTimeoutMs: 500,
      env: { ...process.env, BAD_SERVER_LOG: log } as Record<string, string>,
    });
    const err = await conn.callTool('hang', {}, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpCallError);
    expect((err as Error).message).toMatch(
      /the tool "hang" of MCP server "bad" did not answer within 0\.5 s; the call was cancelled/,
    );
    await waitFor(
      () => fs.existsSync(log) && fs.readFileSync(log, 'utf8').includes('notifications/cancelled'),
      5_000,
      'the cancel notice',
    );
    expect(conn.state).toBe('connected');
    expect((await conn.callTool('echo', { message: 'still here' }, {})).text).toBe('still here');
  });

  it('a call cancelled by the caller fails with a clear error and the connection stays usable', async () => {
    const conn = await connectBad('ok');
    const ac = new AbortController();
    const pending = conn.callTool('hang', {}, { signal: ac.signal });
    ac.abort();
    await expect(pending).rejects.toThrow(/the call to "hang" was cancelled/);
    expect((await conn.callTool('echo', { message: 'ok' }, {})).text).toBe('ok');
  });

  it('a result over 8 MiB fails that call and the connection stays usable', async () => {
    const conn = await connectBad('ok', { toolTimeoutMs: 30_000 });
    const err = await conn.callTool('big', {}, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpCallError);
    expect((err as Error).message).toMatch(/answer is 9\.0 MiB, over the 8 MiB limit for one result/);
    expect(conn.state).toBe('connected');
    expect((await conn.callTool('echo', { message: 'after big' }, {})).text).toBe('after big');
  });

  it('an over-limit answer fails only its own call when calls run side by side', async () => {
    const conn = await connectBad('ok', { toolTimeoutMs: 30_000 });
    const [big, small, hang] = await Promise.allSettled([
      conn.callTool('big', {}, {}),
      conn.callTool('echo', { message: 'beside' }, {}),
      conn.callTool('hang', {}, { signal: AbortSignal.timeout(1_500) }),
    ]);
    expect(big.status === 'rejected' && String(big.reason)).toMatch(/over the 8 MiB limit/);
    expect(small.status === 'fulfilled' && small.value.text).toBe('beside');
    expect(hang.status === 'rejected' && String(hang.reason)).toMatch(/the call to "hang" was cancelled/);
  });

  it('garbage on stdout while connected marks the connection crashed and stops the tree', async () => {
    const conn = await connectBad('ok', { toolTimeoutMs: 30_000 });
    const child = await grandchild(conn);
    const err = await conn.callTool('garbage', {}, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpCallError);
    expect((err as Error).message).toMatch(/not MCP on stdout: oops: debug print on stdout/);
    expect(conn.state).toBe('crashed');
    await waitFor(() => !pidAlive(child), 5_000, 'the tree to be stopped');
  });

  it('a connection attempt cancelled by its signal fails and leaves nothing running', async () => {
    const before = sleepers();
    const ac = new AbortController();
    const attempt = McpConnection.connect(
      nodeServer(process.execPath, [], {
        name: 'bad',
        args: [
          '-e',
          'require("child_process").spawn("sleep",["600"],{stdio:"ignore"});setInterval(()=>{},1e3)',
        ],
        startupTimeoutMs: 60_000,
      }),
      { signal: ac.signal },
    ).catch((e: unknown) => e);
    await waitFor(() => [...sleepers()].some((p) => !before.has(p)), 10_000, 'the server to start its child');
    ac.abort();
    const err = await attempt;
    expect(err).toBeInstanceOf(McpConnectionError);
    expect((err as Error).message).toMatch(/the connection attempt was cancelled/);
    const leftover = [...sleepers()].filter((p) => !before.has(p));
    await waitFor(() => leftover.every((p) => !pidAlive(p)), 5_000, 'the tree to be gone');
  });

  it('a program that does not exist fails with a clear error', async () => {
    const err = await McpConnection.connect(
      nodeServer('', [], { program: '/nonexistent/mcp-server', args: [] }),
      {},
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpConnectionError);
    expect((err as Error).message).toMatch(/could not start \/nonexistent\/mcp-server: .*ENOENT/);
  });
});
