import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ScriptReply } from '../../src/protocol';
import { childEnv } from '../../src/tools/child-env';
import { pythonClientDir } from '../../src/tools/runtime/runtime-assets';
import {
  type ScriptAnswer,
  ScriptEndpoint,
  type ScriptMessage,
} from '../../src/tools/runtime/script-endpoint';
import { freeLoopbackPort } from '../support/loopback-server';

/**
 * The Python client (`cairn_tools.py`) against a real ScriptEndpoint. The handler stands in for the session
 * runtime: it checks the token, answers ScriptReplies and records what reached it.
 */

const TOKEN = 'tok_valid_for_this_test';
const CLIENT = path.join(pythonClientDir(), 'cairn_tools.py');
const PYTHON_39 = path.join(os.homedir(), '.pyenv', 'versions', '3.9.18', 'bin', 'python3');
const PYTHONS = [
  { label: 'python3 on PATH', command: 'python3' },
  ...(existsSync('/usr/bin/python3')
    ? [{ label: "Debian's /usr/bin/python3", command: '/usr/bin/python3' }]
    : []),
  ...(existsSync(PYTHON_39) ? [{ label: 'Python 3.9', command: PYTHON_39 }] : []),
];

interface Received {
  op: string;
  token: string | null;
  body: Record<string, unknown>;
}

let received: Received[] = [];
/** The `Gate` calls waiting: each is answered only once three have arrived at the same time. */
let gate: (() => void)[] = [];
const hang = { started: 0, aborted: 0 };

function reply(fields: Partial<ScriptReply>): ScriptAnswer {
  const body: ScriptReply = {
    call_id: 'tc_1',
    status: 'completed',
    result_dir: '/results/tc_1',
    content: '',
    is_error: false,
    meta: {},
    ...fields,
  };
  return { status: 200, body };
}

async function handle(message: ScriptMessage): Promise<ScriptAnswer> {
  const body = (message.body ?? {}) as Record<string, unknown>;
  received.push({ op: message.op, token: message.token, body });
  if (message.token !== TOKEN) {
    return {
      status: 401,
      body: {
        error: {
          code: 'unauthorized',
          message: 'This token is not valid now: the call that ran the script has ended or was cancelled.',
        },
      },
    };
  }
  if (message.op === 'status' && body.call_id === 'hang-probe') return reply({ meta: { ...hang } });
  if (message.op !== 'call') {
    return reply({
      call_id: String(body.call_id),
      status: 'running',
      content: `${message.op} ${body.call_id}`,
    });
  }
  switch (body.name) {
    case 'Denied':
      return reply({ status: 'denied', content: 'The user denied this call.', is_error: true });
    case 'Gate':
      await new Promise<void>((resolve) => {
        gate.push(resolve);
        if (gate.length >= 3) for (const open of gate.splice(0)) open();
      });
      return reply({ content: `through ${(body.arguments as { n: number }).n}` });
    case 'Hang':
      hang.started += 1;
      await new Promise<void>((resolve) => message.signal.addEventListener('abort', () => resolve()));
      hang.aborted += 1;
      return reply({ content: 'never sent' });
    case 'NotAnObject':
      return { status: 200, body: 'a string, not a reply' };
    case 'Oversized':
      return {
        status: 413,
        body: { error: { code: 'bad_request', message: 'The request is larger than 8 MiB.' } },
      };
    default:
      return reply({ content: JSON.stringify(body.arguments) });
  }
}

let endpoint: ScriptEndpoint;
let tcp: string;
let unix: string | null;

beforeAll(async () => {
  endpoint = new ScriptEndpoint(handle, { admits: () => true });
  tcp = await endpoint.endpoint();
  unix = await endpoint.unixEndpoint();
});

afterAll(async () => {
  await endpoint?.close();
});

beforeEach(() => {
  received = [];
  gate = [];
  hang.started = hang.aborted = 0;
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs Python with the client on PYTHONPATH and exactly the CAIRN_TOOL_* variables given; asynchronously, or the endpoint in this process could not answer. */
function runPython(
  args: string[],
  vars: Record<string, string>,
  python = 'python3',
  stdin = '',
): Promise<Run> {
  const env = { ...childEnv(process.env), PYTHONPATH: pythonClientDir(), PYTHONIOENCODING: 'utf-8', ...vars };
  return new Promise((resolve, reject) => {
    const child = spawn(python, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** A script's results: each `out(key=value)` line it printed, merged. */
async function runScript(
  code: string,
  vars: Record<string, string>,
  python?: string,
  args: string[] = [],
): Promise<Record<string, unknown>> {
  const prelude =
    'import json, os, sys\nimport cairn_tools\ndef out(**kw): print(json.dumps(kw), flush=True)\n';
  const run = await runPython(['-c', prelude + code, ...args], vars, python);
  if (run.code !== 0 || run.stderr !== '') throw new Error(`python exited ${run.code}:\n${run.stderr}`);
  return Object.assign(
    {},
    ...run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line)),
  );
}

const ROUND_TRIP = `
r = cairn_tools.call("Echo", {"path": "a.txt", "text": "h\\u00e9llo \\u2713"})
out(echo=json.loads(r.content), same=r["content"] == r.content, is_dict=isinstance(r, dict),
    keys=sorted(r), call_id=r.call_id, status=r.status, result_dir=r.result_dir, is_error=r.is_error, meta=r.meta)
d = cairn_tools.call("Denied", {"command": "rm -rf /"})
out(denied=[d.is_error, d.status, d.content])
cairn_tools.call("Context", {}, method="inspect", union_id="u1", is_wait=False)
out(status_reply=cairn_tools.status("tc_9").content, cancel=cairn_tools.cancel("tc_9").content,
    output=cairn_tools.output("tc_9").content, output_after=cairn_tools.output("tc_9", after=3).content)
try:
    r.missing
except AttributeError as e:
    out(missing=str(e))
`;

describe.each(PYTHONS)('cairn_tools with $label', ({ command }) => {
  const transports = [
    { name: 'TCP', address: () => tcp },
    ...(process.platform === 'win32' ? [] : [{ name: 'a Unix socket', address: () => unix! }]),
  ];

  it.each(transports)('calls, reads and cancels over $name', async ({ address }) => {
    const out = await runScript(
      ROUND_TRIP,
      { CAIRN_TOOL_ENDPOINT: address(), CAIRN_TOOL_TOKEN: TOKEN },
      command,
    );

    expect(out).toMatchObject({
      echo: { path: 'a.txt', text: 'héllo ✓' },
      same: true,
      is_dict: true,
      keys: ['call_id', 'content', 'is_error', 'meta', 'result_dir', 'status'],
      call_id: 'tc_1',
      status: 'completed',
      result_dir: '/results/tc_1',
      is_error: false,
      meta: {},
      denied: [true, 'denied', 'The user denied this call.'],
      status_reply: 'status tc_9',
      cancel: 'cancel tc_9',
      output: 'output tc_9',
      output_after: 'output tc_9',
    });
    expect(String(out.missing)).toContain("has no 'missing'");
    // The wire shapes of protocol/tool-runtime.ts, each with the bearer token.
    expect(received.map((r) => [r.op, r.body])).toEqual([
      ['call', { name: 'Echo', arguments: { path: 'a.txt', text: 'héllo ✓' }, is_wait: true }],
      ['call', { name: 'Denied', arguments: { command: 'rm -rf /' }, is_wait: true }],
      ['call', { name: 'Context', arguments: {}, method: 'inspect', union_id: 'u1', is_wait: false }],
      ['status', { call_id: 'tc_9' }],
      ['cancel', { call_id: 'tc_9' }],
      ['output', { call_id: 'tc_9' }],
      ['output', { call_id: 'tc_9', after: 3 }],
    ]);
    expect(new Set(received.map((r) => r.token))).toEqual(new Set([TOKEN]));
  });
});

describe('cairn_tools failures', () => {
  it('raises ToolRuntimeError, saying what happened, only for transport and token failures', async () => {
    const refused = await freeLoopbackPort();
    const code = `
def attempt(key, fn):
    try:
        fn()
        out(**{key: None})
    except cairn_tools.ToolRuntimeError as e:
        out(**{key: str(e)})
os.environ.pop("CAIRN_TOOL_ENDPOINT", None); os.environ.pop("CAIRN_TOOL_TOKEN", None)
attempt("no_env", lambda: cairn_tools.status("tc_1"))
os.environ["CAIRN_TOOL_ENDPOINT"] = sys.argv[1]
attempt("no_token", lambda: cairn_tools.call("Echo", {}))
os.environ["CAIRN_TOOL_TOKEN"] = "tok_revoked"
attempt("revoked", lambda: cairn_tools.call("Echo", {}))
os.environ["CAIRN_TOOL_TOKEN"] = sys.argv[2]
attempt("ok", lambda: cairn_tools.call("Echo", {}))
attempt("big", lambda: cairn_tools.call("Big", {"content": "x" * (8 * 1024 * 1024)}))
attempt("not_an_object", lambda: cairn_tools.call("NotAnObject", {}))
attempt("oversized", lambda: cairn_tools.call("Oversized", {}))
os.environ["CAIRN_TOOL_ENDPOINT"] = sys.argv[3]
attempt("refused", lambda: cairn_tools.call("Echo", {}))
os.environ["CAIRN_TOOL_ENDPOINT"] = "https://example.com"
attempt("bad_endpoint", lambda: cairn_tools.call("Echo", {}))
`;
    const out = await runScript(code, {}, undefined, [tcp, TOKEN, `http://127.0.0.1:${refused}`]);

    expect(out.no_env).toMatch(/CAIRN_TOOL_ENDPOINT and CAIRN_TOOL_TOKEN are not set/);
    expect(out.no_env).toMatch(/not started by Cairn's Bash or Exec tools or an agent's execute_code cell/);
    expect(out.no_env).toMatch(/Jupyter Server/);
    expect(out.no_token).toMatch(/CAIRN_TOOL_TOKEN is not set/);
    expect(out.no_token).toMatch(/only the cells an agent runs with execute_code have a token/);
    expect(out.revoked).toMatch(/refused this process's token \(401: This token is not valid now/);
    expect(out.revoked).toMatch(/ended or was cancelled/);
    expect(out.ok).toBeNull();
    expect(out.big).toMatch(/more than the 8 MiB the endpoint accepts; nothing was sent/);
    expect(out.not_an_object).toMatch(/not a JSON reply/);
    expect(out.oversized).toMatch(/larger than 8 MiB \(413/);
    expect(out.refused).toMatch(
      /Could not connect to Cairn's tool endpoint at http:\/\/127\.0\.0\.1:\d+ \(connection refused\)/,
    );
    expect(out.bad_endpoint).toMatch(/not http:\/\/HOST:PORT or unix:PATH/);
    // The env was read at each call: nothing without both variables, the revoked token as sent; never the big one.
    expect(received.map((r) => [r.token, r.body.name])).toEqual([
      ['tok_revoked', 'Echo'],
      [TOKEN, 'Echo'],
      [TOKEN, 'NotAnObject'],
      [TOKEN, 'Oversized'],
    ]);
  });
});

describe('cairn_tools with asyncio', () => {
  it('runs the async twins concurrently without blocking the loop, and a cancelled task ends its call', async () => {
    const code = `
import asyncio
async def main():
    # Each Gate call is answered only when three are in at once: done one after another, this would hang.
    gated = await asyncio.gather(*(cairn_tools.call_async("Gate", {"n": n}) for n in range(3)))
    out(gated=[r.content for r in gated], types=sorted({type(r).__name__ for r in gated}))
    rest = await asyncio.gather(cairn_tools.status_async("tc_2"), cairn_tools.cancel_async("tc_2"),
                                cairn_tools.output_async("tc_2", after=0))
    out(rest=[r.content for r in rest])
    ticks = 0
    task = asyncio.ensure_future(cairn_tools.call_async("Hang", {}))
    while cairn_tools.status("hang-probe").meta["started"] == 0:
        ticks += 1  # the loop keeps running while the call waits
        await asyncio.sleep(0.02)
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        out(cancelled=True, ticks=ticks)
    while cairn_tools.status("hang-probe").meta["aborted"] == 0:
        await asyncio.sleep(0.02)
    out(aborted=True)
asyncio.run(main())
`;
    const out = await runScript(code, { CAIRN_TOOL_ENDPOINT: tcp, CAIRN_TOOL_TOKEN: TOKEN });

    expect(out.gated).toEqual(['through 0', 'through 1', 'through 2']);
    expect(out.types).toEqual(['Reply']);
    expect(out.rest).toEqual(['status tc_2', 'cancel tc_2', 'output tc_2']);
    expect(out.cancelled).toBe(true);
    expect(out.aborted).toBe(true);
    expect(hang).toEqual({ started: 1, aborted: 1 });
    expect(received.find((r) => r.op === 'output')?.body).toEqual({ call_id: 'tc_2', after: 0 });
  });
});

describe('the cairn_tools command line', () => {
  const vars = () => ({ CAIRN_TOOL_ENDPOINT: tcp, CAIRN_TOOL_TOKEN: TOKEN });

  it('prints the reply as JSON and exits 0, as the cairn shim runs it', async () => {
    const run = await runPython(
      [
        CLIENT,
        'cli',
        'tool',
        'call',
        'Bash',
        '--json',
        '{"command": "sleep 60"}',
        '--no-wait',
        '--method',
        'run',
        '--union-id',
        'job-1',
      ],
      vars(),
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      call_id: 'tc_1',
      status: 'completed',
      result_dir: '/results/tc_1',
      content: '{"command":"sleep 60"}',
      is_error: false,
      meta: {},
    });
    expect(received.map((r) => r.body)).toEqual([
      { name: 'Bash', arguments: { command: 'sleep 60' }, method: 'run', union_id: 'job-1', is_wait: false },
    ]);
  });

  it('status, cancel and output, also without the leading "cli tool"; a denied call is still exit 0', async () => {
    const runs = await Promise.all([
      runPython([CLIENT, 'cli', 'tool', 'status', 'tc_5'], vars()),
      runPython([CLIENT, 'cancel', 'tc_5'], vars()),
      runPython([CLIENT, 'cli', 'tool', 'output', 'tc_5', '--after', '2'], vars()),
      runPython([CLIENT, 'cli', 'tool', 'call', 'Denied'], vars()),
      runPython(
        [CLIENT, 'cli', 'tool', 'call', 'Echo', '--json', '-'],
        vars(),
        'python3',
        '{"from": "stdin"}',
      ),
    ]);
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0, 0]);
    const [status, cancel, output, denied, stdin] = runs.map((r) => JSON.parse(r.stdout) as ScriptReply);
    expect(status?.content).toBe('status tc_5');
    expect(cancel?.content).toBe('cancel tc_5');
    expect(output?.content).toBe('output tc_5');
    expect(denied).toMatchObject({ is_error: true, status: 'denied' });
    expect(stdin?.content).toBe('{"from":"stdin"}');
    expect(received.filter((r) => r.op === 'output').map((r) => r.body)).toEqual([
      { call_id: 'tc_5', after: 2 },
    ]);
  });

  it('exits 1 with the reason on stderr when the token is refused or there is no endpoint', async () => {
    const [revoked, missing] = await Promise.all([
      runPython([CLIENT, 'cli', 'tool', 'status', 'tc_1'], { ...vars(), CAIRN_TOOL_TOKEN: 'tok_old' }),
      runPython([CLIENT, 'cli', 'tool', 'status', 'tc_1'], {}),
    ]);
    expect(revoked.code).toBe(1);
    expect(revoked.stdout).toBe('');
    expect(revoked.stderr).toMatch(/^cairn tool: Cairn refused this process's token \(401/);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/CAIRN_TOOL_ENDPOINT and CAIRN_TOOL_TOKEN are not set/);
  });

  it('exits 2 for bad usage, sending nothing', async () => {
    const runs = await Promise.all([
      runPython([CLIENT, 'cli', 'tool', 'call', 'Read', '--json', '{not json'], vars()),
      runPython([CLIENT, 'cli', 'tool', 'call', 'Read', '--json', '[1, 2]'], vars()),
      runPython([CLIENT, 'cli', 'tool'], vars()),
      runPython([CLIENT, 'cli', 'tool', 'status'], vars()),
      runPython([CLIENT, 'cli', 'tool', 'launch', 'x'], vars()),
    ]);
    expect(runs.map((r) => r.code)).toEqual([2, 2, 2, 2, 2]);
    expect(runs[0]!.stderr).toMatch(/--json is not valid JSON/);
    expect(runs[1]!.stderr).toMatch(/--json must be a JSON object/);
    expect(received).toEqual([]);
  });
});

describe('cairn_tools source', () => {
  it('is Python 3.9 syntax and standard library only', async () => {
    const check = `
import ast, sys
source = open(sys.argv[1], encoding="utf-8").read()
ast.parse(source, feature_version=(3, 9))
imported = {alias.name.split(".")[0] for node in ast.walk(ast.parse(source)) if isinstance(node, (ast.Import, ast.ImportFrom))
            for alias in (node.names if isinstance(node, ast.Import) else [ast.alias(name=node.module or "")])}
print(json.dumps(sorted(imported - set(sys.stdlib_module_names))))
`;
    const run = await runPython(['-c', `import json\n${check}`, CLIENT], {});
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([]);
    expect(readFileSync(CLIENT, 'utf8')).toMatch(/^"""cairn_tools: /);
  });
});
