import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/logger';
import { groupAlive } from '../../src/process/process-group';
import type { SandboxSpec } from '../../src/process/sandbox';
import { bashTool } from '../../src/tools/builtin/bash';
import { execTool } from '../../src/tools/builtin/exec';
import { childEnv } from '../../src/tools/child-env';
import { ToolLoader } from '../../src/tools/runtime/loaded/tool-loader';
import { ScriptAccessProvider } from '../../src/tools/runtime/script-access';
import { ScriptEndpoint } from '../../src/tools/runtime/script-endpoint';
import { ToolError } from '../../src/tools/tool';
import { describeSandbox, requireBubblewrap } from '../support/sandbox-support';
import { callContext } from './loaded-tools-support';
import { makeContext, makeTempDir, removeDir, runTool, waitFor } from './tool-context';

// What a command run by Bash, Exec or a loaded tool's worker can reach when its project's sandbox is on (real
// bubblewrap). The "data directory" is made outside /tmp (the sandbox has a private /tmp anyway), so that
// hiding it is what keeps its file out of reach.

const OUTSIDE_TMP = fs.existsSync('/var/tmp') ? '/var/tmp' : process.env.HOME!;

describeSandbox('the sandbox of Bash, Exec and loaded tools', () => {
  beforeAll(requireBubblewrap);
  let project: string;
  let dataDir: string;
  let results: string;
  let outside: string;
  let endpoint: ScriptEndpoint;
  let access: ScriptAccessProvider;
  let loopback: net.Server;
  let port: number;
  const scriptOps: string[] = [];

  const spec = (extra: Partial<SandboxSpec> = {}): SandboxSpec => ({
    projectRoot: project,
    writable: [results],
    hidden: [dataDir],
    readable: [path.join(dataDir, 'bin')],
    sockets: [],
    network: true,
    bwrap: 'bwrap',
    ...extra,
  });
  const bash = async (command: string, sandbox: SandboxSpec, scripts = false) => {
    const ctx = makeContext({ projectRoot: project, sessionResultsDir: results });
    ctx.sandbox = sandbox;
    if (scripts) ctx.scriptAccess = await access.access('cts_sandboxed');
    return runTool(bashTool, { command }, ctx);
  };

  beforeAll(async () => {
    project = await makeTempDir('cairn-sbx-project-');
    dataDir = fs.realpathSync(fs.mkdtempSync(path.join(OUTSIDE_TMP, 'cairn-sbx-data-')));
    outside = fs.realpathSync(fs.mkdtempSync(path.join(OUTSIDE_TMP, 'cairn-sbx-outside-')));
    results = path.join(dataDir, 'sessions', 'ses_1', 'tool-calls');
    fs.mkdirSync(results, { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'cairn.db'), 'data of cairn');
    endpoint = new ScriptEndpoint(
      async (message) => {
        scriptOps.push(`${message.op} ${message.token}`);
        return { status: 200, body: { content: 'answered from Cairn', is_error: false } };
      },
      { admits: () => true },
    );
    access = new ScriptAccessProvider(endpoint, path.join(dataDir, 'bin'));
    loopback = net.createServer((socket) => socket.end('hello from loopback\n'));
    await new Promise<void>((resolve) => loopback.listen(0, '127.0.0.1', resolve));
    port = (loopback.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await endpoint?.close();
    loopback?.close();
    await removeDir(project);
    await removeDir(dataDir);
    await removeDir(outside);
  });

  it('writes the project and the results folder, and nothing else', async () => {
    const result = await bash(
      `echo made > inside.txt; echo r > ${results}/r.txt; echo x > ${outside}/escaped.txt; echo "exit $?"`,
      spec(),
    );
    expect(fs.readFileSync(path.join(project, 'inside.txt'), 'utf8')).toBe('made\n');
    expect(fs.readFileSync(path.join(results, 'r.txt'), 'utf8')).toBe('r\n');
    expect(fs.existsSync(path.join(outside, 'escaped.txt'))).toBe(false);
    expect(result.content).toMatch(/Read-only file system/);
    expect(result.content).toContain('exit 1');
  });

  it('sees neither the sidecar nor other processes, nor Cairn’s data directory', async () => {
    const result = await bash(
      `cat /proc/${process.pid}/environ; echo "environ $?"; ls /proc | grep -E '^[0-9]+$' | wc -l; ` +
        `cat ${dataDir}/cairn.db; echo "db $?"; echo "listing: $(ls -A ${dataDir} | tr '\\n' ' ')"`,
      spec(),
    );
    expect(result.content).toContain('environ 1');
    expect(result.content).toContain('db 1');
    expect(result.content).not.toContain('data of cairn');
    // bwrap's init, bash, and the pipeline's ls, grep and wc at most.
    const count = Number(/^\s*(\d+)\s*$/m.exec(result.content)?.[1]);
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(5);
    // Only what was bound again is there: the session's results folder's path (the bin folder is not made yet).
    expect(result.content).toContain('listing: sessions \n');
  });

  it('has no network when it is off, and reaches loopback when it is on', async () => {
    const probe = `python3 -c "import socket; s = socket.create_connection(('127.0.0.1', ${port}), 5); print(s.recv(100).decode())"`;
    const off = await bash(`${probe}; echo "probe $?"`, spec({ network: false }));
    expect(off.content).not.toContain('hello from loopback');
    expect(off.content).toContain('probe 1');
    const on = await bash(probe, spec({ network: true }));
    expect(on.content).toContain('hello from loopback');
  });

  it('still reaches the tool endpoint through its Unix socket without network (cairn_tools and cairn)', async () => {
    const socketDir = path.dirname((await endpoint.unixEndpoint())!.slice('unix:'.length));
    const sandbox = spec({ network: false, sockets: [socketDir] });
    const result = await bash(
      `python3 -c "import cairn_tools; print(cairn_tools.call('Read', {'file_path': 'x'}).content)" && cairn tool status tc_1`,
      sandbox,
      true,
    );
    expect(result.content).toContain('answered from Cairn');
    expect(scriptOps).toEqual(['call cts_sandboxed', 'status cts_sandboxed']);
  });

  it("cannot reach the host's sockets under /run/user (a session bus), even with the network on", async () => {
    fs.mkdirSync('/run/user', { recursive: true });
    const dir = fs.mkdtempSync('/run/user/cairn-sbx-');
    const bus = net.createServer((socket) => socket.end('hello from the session bus\n'));
    await new Promise<void>((resolve) => bus.listen(path.join(dir, 'bus'), resolve));
    try {
      const probe = `python3 -c "import socket; s = socket.socket(socket.AF_UNIX); s.connect('${dir}/bus'); print(s.recv(100).decode())"`;
      const inside = await bash(`${probe}; echo "probe $?"`, spec({ network: true }));
      expect(inside.content).not.toContain('hello from the session bus');
      expect(inside.content).toContain('probe 1');
      // The same probe reaches it without the sandbox, so what stops it inside is the sandbox.
      const ctx = makeContext({ projectRoot: project, sessionResultsDir: results });
      const outsideRun = await runTool(bashTool, { command: probe }, ctx);
      expect(outsideRun.content).toContain('hello from the session bus');
    } finally {
      bus.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs Exec in the sandbox too', async () => {
    const ctx = makeContext({ projectRoot: project, sessionResultsDir: results });
    ctx.sandbox = spec();
    const result = await runTool(execTool, { program: 'cat', args: [path.join(dataDir, 'cairn.db')] }, ctx);
    expect(result.content).toMatch(/No such file or directory/);
    expect(result.exitCode).toBe(1);
  });

  it('cancel ends a sandboxed command with everything it started', async () => {
    const controller = new AbortController();
    const ctx = makeContext({ projectRoot: project, sessionResultsDir: results, signal: controller.signal });
    ctx.sandbox = spec();
    let pid = 0;
    ctx.onProcessStarted = (started) => {
      pid = started;
    };
    const running = runTool(bashTool, { command: 'sleep 300 & sleep 300; echo never' }, ctx);
    await waitFor(() => pid !== 0 && fs.readdirSync('/proc').length > 0);
    // Both sleeps run, in the sandbox under bwrap's process group.
    await waitFor(() => countGroup(pid) >= 4);
    controller.abort();
    const result = await running;
    expect(result.content).toMatch(/cancel/i);
    expect(result.content).not.toContain('never');
    await waitFor(() => !groupAlive(pid));
  });

  it('runs loaded tools’ workers in the sandbox, and refuses mode "local" there', async () => {
    const scratch = await makeTempDir('cairn-sbx-scratch-');
    fs.writeFileSync(
      path.join(project, 'probe.mjs'),
      `import fs from 'node:fs';
export function create_tool() {
  return { name: 'probe', description: 'tries', methods: { write: { kind: 'batch', description: 'w',
    run(args) { try { fs.writeFileSync(args.path, 'x'); return { content: 'wrote' }; }
      catch (e) { return { content: 'refused: ' + e.code }; } } } } };
}
`,
    );
    const loader = new ToolLoader({
      python: async () => ({ command: 'python3', args: [] }),
      env: () => childEnv(),
      scratchDir: scratch,
      logger: silentLogger,
    });
    const load = { projectRoot: project, sessionId: 'ses_1', toolCallId: 'load-1', sandbox: spec() };
    const refused = await loader
      .load(
        { path: 'probe.mjs', mode: 'local' },
        { ...load, signal: new AbortController().signal },
        () => false,
      )
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ToolError);
    expect((refused as Error).message).toMatch(/sandbox.*mode "process"/s);

    const handle = await loader.load(
      { path: 'probe.mjs' },
      { ...load, signal: new AbortController().signal },
      () => false,
    );
    try {
      const ctx = callContext(project);
      const run = (file: string) =>
        handle.tool.execute(
          handle.tool.inputSchema.parse({ method: 'write', arguments: { path: file } }),
          ctx,
        );
      expect((await run(path.join(outside, 'w.txt'))).content).toBe('refused: EROFS');
      expect((await run(path.join(project, 'w.txt'))).content).toBe('wrote');
    } finally {
      await handle.stop();
      await removeDir(scratch);
    }
  });
});

/** How many live processes are in the process group `pgid`. */
function countGroup(pgid: number): number {
  let count = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') count += 1;
    } catch {
      // exited
    }
  }
  return count;
}
