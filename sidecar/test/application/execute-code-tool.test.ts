import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KernelService } from '../../src/application/kernels/kernel-service';
import { kernelManagerOptions } from '../../src/application/kernels/kernel-settings';
import { ProjectPythonService } from '../../src/application/projects/project-python';
import { KernelManager } from '../../src/kernels/kernel-manager';
import { silentLogger } from '../../src/log/logger';
import { Store } from '../../src/store/store';
import { executeCodeTool } from '../../src/tools/builtin/execute-code';
import { childEnv } from '../../src/tools/child-env';
import { pythonClientDir } from '../../src/tools/runtime/runtime-assets';
import { ScriptAccessProvider } from '../../src/tools/runtime/script-access';
import {
  type ScriptAnswer,
  ScriptEndpoint,
  type ScriptMessage,
} from '../../src/tools/runtime/script-endpoint';
import { type Tool, type ToolContext, toolInputJsonSchema } from '../../src/tools/tool';
import { IPYTHON_KERNEL_ENV, IPYTHON_PYTHON, STDLIB_KERNEL_ENV } from '../support/kernel-harness';
import { makeTempDir, removeDir, runTool } from '../tools/tool-context';

/**
 * execute_code through the kernel service a turn gets: the time limit of a background call, the call's
 * script token in its cell (which calls a tool with cairn_tools), and the cell's output in the call's
 * pieces. Real kernels, a real store and a real script endpoint.
 */

const received: { token: string | null; body: unknown }[] = [];

async function handle(message: ScriptMessage): Promise<ScriptAnswer> {
  received.push({ token: message.token, body: message.body });
  if (message.token !== 'tok_exec') {
    return {
      status: 401,
      body: { error: { code: 'unauthorized', message: 'This token is not valid now.' } },
    };
  }
  const { name, arguments: args } = message.body as { name: string; arguments: { n: number } };
  return {
    status: 200,
    body: {
      call_id: 'tc_2',
      status: 'completed',
      result_dir: '/r',
      content: `${name} ${args.n}`,
      is_error: false,
      meta: {},
    },
  };
}

let endpoint: ScriptEndpoint;
beforeAll(async () => {
  endpoint = new ScriptEndpoint(handle, { admits: () => true });
  await endpoint.start();
});
afterAll(async () => endpoint?.close());

let dataDir: string;
let projectRoot: string;
let store: Store;
let service: KernelService;
let sessionId: string;
let tool: Tool;
/** Undoes the latest setup(). */
let cleanup: (() => Promise<void>) | null = null;

/** A session with a project, its turn's execute_code, and local kernels that get the endpoint. */
async function setup(flavour: Record<string, string> = STDLIB_KERNEL_ENV): Promise<void> {
  dataDir = await makeTempDir('cairn-execute-code-');
  projectRoot = path.join(dataDir, 'project');
  await fs.mkdir(projectRoot);
  store = Store.open(dataDir);
  const project = store.projects.upsertByPath(projectRoot);
  sessionId = store.sessions.create({ projectId: project.id }).id;
  const turn = store.turns.create(sessionId, 'req_1', 'compute');
  // A short default limit, so that "no limit" shows within a test.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...flavour,
    CAIRN_KERNEL_WARM: '0',
    CAIRN_KERNEL_TIMEOUT_MS: '300',
  };
  const manager = new KernelManager(
    kernelManagerOptions({
      env,
      logger: silentLogger,
      remote: async () => null,
      scriptEnv: (base) => new ScriptAccessProvider(endpoint, path.join(dataDir, 'bin')).env(base),
    }),
  );
  const pythonOverride = env.CAIRN_KERNEL_PYTHON ?? null;
  const python = new ProjectPythonService({ store, kernelEnv: childEnv(env), pythonOverride });
  service = new KernelService({ manager, store, dataDir, python, logger: silentLogger });
  tool = executeCodeTool(service.forTurn(sessionId, turn.id)!) as unknown as Tool;
  const [openService, openStore, dir] = [service, store, dataDir];
  cleanup = async () => {
    await openService.shutdown();
    openStore.close();
    await removeDir(dir);
  };
}

beforeEach(() => {
  received.length = 0;
});

afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

/** The context the runtime gives a call; `pieces` collects what the tool writes to its output pieces. */
function context(opts: { background: boolean; token?: string }): ToolContext & { pieces: string[] } {
  const pieces: string[] = [];
  return {
    projectRoot,
    sessionId,
    turnId: 'turn-test',
    toolCallId: 'tc_exec',
    sessionResultsDir: path.join(dataDir, 'results'),
    callDir: path.join(dataDir, 'results', 'tc_exec'),
    signal: new AbortController().signal,
    background: opts.background,
    onOutput: () => {
      throw new Error('kernel output reaches the journal as kernel.stream events, not through onOutput');
    },
    writePiece: (text) => pieces.push(text),
    scriptAccess: opts.token ? { endpoint: 'unused', token: opts.token, env: (base) => base } : null,
    ancestors: [],
    ask: async () => 'yes',
    pieces,
  };
}

async function run(input: Record<string, unknown>, ctx: ToolContext): Promise<Record<string, unknown>> {
  return JSON.parse((await runTool(tool, input, ctx)).content) as Record<string, unknown>;
}

const SLEEPER = 'import time\ntime.sleep(0.8)\n"slept"';

describe('execute_code as a tool call', () => {
  it('takes is_wait and timeout, and its cells may call tools', async () => {
    await setup();
    expect(tool.background).toBe('tool');
    expect(tool.scripts).toBe(true);
    const properties = Object.keys((toolInputJsonSchema(tool) as { properties: object }).properties);
    expect(properties).toEqual(['code', 'kernel', 'timeout', 'is_wait']);
    expect(tool.description).toMatch(/In the background/);
    expect(tool.description).toMatch(/import cairn_tools/);
    expect(() => tool.inputSchema.parse({ code: '1', timeout: 0 })).toThrow();
  });

  it('runs in the background without a time limit unless given one; a waited call keeps the default', async () => {
    await setup();
    const background = await run({ code: SLEEPER }, context({ background: true }));
    expect(background).toMatchObject({ success: true, return_value: "'slept'" });
    expect(background.limit).toBeUndefined();

    const backgroundLimited = await run({ code: SLEEPER, timeout: 0.2 }, context({ background: true }));
    expect(backgroundLimited).toMatchObject({
      success: false,
      limit: { kind: 'active_time', limit_ms: 200, action: 'interrupted' },
    });

    const waited = await run({ code: SLEEPER }, context({ background: false }));
    expect(waited).toMatchObject({ success: false, limit: { kind: 'active_time', limit_ms: 300 } });

    const waitedLonger = await run({ code: SLEEPER, timeout: 30 }, context({ background: false }));
    expect(waitedLonger).toMatchObject({ success: true, return_value: "'slept'" });
  });

  it('gives local kernels the endpoint, the client first on PYTHONPATH and `cairn` first on PATH; no token', async () => {
    const bin = path.join(dataDir, 'bin');
    const env = await new ScriptAccessProvider(endpoint, bin).env({
      PYTHONPATH: '/somewhere/else',
      PATH: '/usr/bin',
      KEPT: 'yes',
    });
    expect(env).toEqual({
      CAIRN_TOOL_ENDPOINT: (await endpoint.unixEndpoint()) ?? (await endpoint.endpoint()),
      PYTHONPATH: `${pythonClientDir()}${path.delimiter}/somewhere/else`,
      PATH: `${bin}${path.delimiter}/usr/bin`,
      KEPT: 'yes',
    });
    expect(existsSync(path.join(bin, process.platform === 'win32' ? 'cairn.cmd' : 'cairn'))).toBe(true);
  });
});

const FLAVOURS = [
  { label: 'stdlib driver', env: STDLIB_KERNEL_ENV },
  ...(existsSync(IPYTHON_PYTHON) ? [{ label: 'IPython driver', env: IPYTHON_KERNEL_ENV }] : []),
];

describe.each(FLAVOURS)('a cell calling tools, with the $label', ({ env }) => {
  it("has its call's token for cairn_tools, and its output goes to the call's pieces as well as the journal", async () => {
    await setup(env);
    const ctx = context({ background: false, token: 'tok_exec' });
    const code =
      'import cairn_tools\nreply = cairn_tools.call("Echo", {"n": 2})\nprint("got", reply.content)';
    const result = await run({ code }, ctx);

    expect(result).toMatchObject({ success: true, stdout: 'got Echo 2\n' });
    expect(received).toEqual([
      { token: 'tok_exec', body: { name: 'Echo', arguments: { n: 2 }, is_wait: true } },
    ]);
    expect(ctx.pieces.join('')).toBe('got Echo 2\n');
    const journal = store.events.withTypePrefix(sessionId, 'kernel.stream');
    expect(journal.map((e) => (e.type === 'kernel.stream' ? e.text : '')).join('')).toBe('got Echo 2\n');

    // A call without script access (as a cell of the user's) has no token: the client says so and sends nothing.
    const code2 =
      'try:\n    cairn_tools.status("tc_2")\nexcept cairn_tools.ToolRuntimeError as e:\n    print(e)';
    const without = await run({ code: code2 }, context({ background: false }));
    expect(without.stdout).toMatch(/^Cairn's tools are not reachable: CAIRN_TOOL_TOKEN is not set/);
    expect(received).toHaveLength(1);
  });
});
