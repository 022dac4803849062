import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ContextVersionList,
  ExperienceList,
  KernelVariableList,
  SessionDetail,
} from '../../src/protocol';
import { pythonClientDir } from '../../src/tools/runtime/runtime-assets';
import { closeTestSessions, FLAVOURS, openTestSession } from '../kernels/kernel-support';
import { type Harness, startHarness } from '../support/harness';
import {
  IPYTHON_KERNEL_ENV,
  type KernelJournalEvent,
  kernelEvents,
  STDLIB_KERNEL_ENV,
} from '../support/kernel-harness';
import { systemText } from '../support/model-server';

/**
 * The `runtime` object in a Cairn session's kernels: an agent's cell reaches its own context through it
 * (the Context tool, through cairn_tools and the script endpoint), list_variables does not show it,
 * reset_repl keeps it; a user's cell has no token for it, and a kernel without the tool endpoint has no
 * `runtime` at all. Real sidecar, real kernels of both drivers. Memory and Fork are checked as the calls the
 * wrapper sends, in a plain Python process.
 */

const DRIVERS = FLAVOURS.map((flavour) => ({
  ...flavour,
  env: flavour.ipython ? IPYTHON_KERNEL_ENV : STDLIB_KERNEL_ENV,
}));

afterAll(closeTestSessions);

/** One execute_code call in its own batch. */
const cell = (code: string) => ({
  content: [{ type: 'tool_use' as const, name: 'execute_code', input: { code } }],
});
const done = { content: [{ type: 'text' as const, text: 'done' }] };

/** What each agent cell of a turn printed (one JSON line), in the order they ran. */
async function printedByCells(h: Harness, sessionId: string, turnId: string): Promise<unknown[]> {
  const events = (await kernelEvents(h, sessionId)).filter((e) => e.turn_id === turnId);
  const starts = events.filter((e) => e.type === 'kernel.execution_started');
  return starts.map(({ execution_id }) => {
    const own = events.filter(
      (e): e is Extract<KernelJournalEvent, { type: 'kernel.stream' }> =>
        e.type === 'kernel.stream' && e.execution_id === execution_id && e.stream === 'stdout',
    );
    const stdout = own.map((e) => e.text).join('');
    const result = events.find((e) => e.type === 'kernel.result' && e.execution_id === execution_id);
    if (!stdout) throw new Error(`the cell printed nothing: ${JSON.stringify(result)}`);
    return JSON.parse(stdout);
  });
}

describe.each(DRIVERS)('runtime in the kernels of a session, with the $label', (driver) => {
  let h: Harness;
  let sessionId: string;
  beforeAll(async () => {
    h = await startHarness({ env: { ...driver.env, CAIRN_KERNEL_WARM: '0' } });
    ({ sessionId } = await h.newSession());
  });
  afterAll(async () => h?.close());

  it("an agent's cell inspects and edits its context; a refusal raises SelfRefError; list_variables hides runtime", async () => {
    const code = [
      'import json, cairn_runtime',
      'info = runtime.selfref.context.inspect()',
      'fact = runtime.selfref.context.remember("fact X")',
      'try:',
      '    runtime.selfref.context.forget("nope")',
      '    refused = None',
      'except runtime.SelfRefError as exc:',
      '    refused = [type(exc) is cairn_runtime.SelfRefError, str(exc)]',
      'print(json.dumps({"version": info["version"], "fact": fact, "refused": refused,',
      '                  "ipython": "get_ipython" in globals()}))',
    ].join('\n');
    h.model.enqueue(cell(code), done);
    const turn = await h.startTurn(sessionId, 'look at yourself');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');

    const [printed] = (await printedByCells(h, sessionId, turn.id)) as {
      version: number;
      fact: { id: string; text: string; scope: string };
      refused: [boolean, string];
      ipython: boolean;
    }[];
    expect(printed!.ipython).toBe(driver.ipython);
    expect(printed!.version).toBeGreaterThanOrEqual(1);
    expect(printed!.fact).toMatchObject({ text: 'fact X', scope: 'session' });
    expect(printed!.refused).toEqual([true, 'Experience nope does not exist.']);

    const experiences = await h.api<ExperienceList>('GET', `/api/sessions/${sessionId}/experiences`);
    expect(experiences.body.experiences.map((e) => [e.id, e.text])).toContainEqual([
      printed!.fact.id,
      'fact X',
    ]);

    const variables = await h.api<KernelVariableList>(
      'GET',
      `/api/sessions/${sessionId}/kernels/default/variables`,
    );
    const names = variables.body.variables.map((v) => v.name);
    expect(names).toEqual(expect.arrayContaining(['info', 'fact', 'refused']));
    expect(names).not.toContain('runtime');
  });

  it('keeps runtime through reset_repl; compact is queued; a user cell has no token for it', async () => {
    const code = [
      'import json',
      'print(json.dumps({"info_kept": "info" in globals(),',
      '                  "version": runtime.selfref.context.inspect()["version"],',
      '                  "by_level": runtime.selfref.context.compact(level="block"),',
      '                  "given": runtime.selfref.context.compact(goal="test the runtime", current_status="testing")}))',
    ].join('\n');
    h.model.enqueue({ content: [{ type: 'tool_use', name: 'reset_repl', input: {} }] }, cell(code), done);
    const turn = await h.startTurn(sessionId, 'reset and compact');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');

    const [printed] = (await printedByCells(h, sessionId, turn.id)) as Record<string, unknown>[];
    expect(printed).toMatchObject({
      info_kept: false,
      version: expect.any(Number),
      by_level: { status: 'queued', level: 'block', summary_call: false },
      given: { status: 'queued', level: 'session', summary_call: false },
    });
    // Queued, then applied as a version once the batch's results were written, before the next request.
    const events = (await h.events(sessionId)).filter((e) => e.turn_id === turn.id);
    // The cell is the turn's last call: its tool.finished is the last one.
    const cellEnd = events.map((e) => e.type).lastIndexOf('tool.finished');
    const compacted = events.findIndex((e) => e.type === 'context.compacted' && e.reason === 'agent');
    expect(cellEnd).toBeGreaterThan(-1);
    expect(compacted).toBeGreaterThan(cellEnd);
    const versions = await h.api<ContextVersionList>('GET', `/api/sessions/${sessionId}/context/versions`);
    expect(
      versions.body.versions.filter((v) => v.reason === 'agent' && v.turn_id === turn.id),
    ).not.toHaveLength(0);

    // The user's own cell in the same kernel: runtime is there, but no token comes with the cell.
    const userCell = [
      'import cairn_tools',
      'try:',
      '    runtime.selfref.context.inspect()',
      '    outcome = "answered"',
      'except cairn_tools.ToolRuntimeError as exc:',
      '    outcome = "ToolRuntimeError: " + str(exc)',
      'outcome',
    ].join('\n');
    const run = await h.api('POST', `/api/sessions/${sessionId}/kernels/default/execute`, { code: userCell });
    expect(run.status).toBe(202);
    const result = await h.waitForEvent(sessionId, (e) => e.type === 'kernel.result' && e.turn_id === null);
    if (result.type !== 'kernel.result') throw new Error('no kernel.result');
    expect(result.return_value?.text).toMatch(
      /^"ToolRuntimeError: Cairn's tools are not reachable: CAIRN_TOOL_TOKEN is not set/,
    );
  });

  it("an agent's cell edits its memory: a refused edit raises SelfRefError, the rest is one agent_edit version after the batch", async () => {
    const fresh = await h.newSession();
    h.model.enqueue({ content: [{ type: 'text', text: 'first answer' }] });
    const first = await h.startTurn(fresh.sessionId, 'first prompt');
    expect((await h.waitForTurnEnd(first.id)).status).toBe('completed');
    const code = [
      'import json',
      'memory = runtime.selfref.memory',
      'before = [memory.count(), memory.get(1)]',
      'memory.update(1, {"role": "assistant", "content": "first answer, rewritten"})',
      'memory.set_system_prompt("Answer in French.")',
      'try:',
      '    memory.append({"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_x", "name": "Read", "input": {}}]})',
      '    refused = None',
      'except runtime.SelfRefError as exc:',
      '    refused = str(exc)',
      'print(json.dumps({"before": before, "after": memory.all(), "refused": refused,',
      '                  "prompt": memory.get_system_prompt()}))',
    ].join('\n');
    const from = h.model.requests.length;
    h.model.enqueue(cell(code), done);
    const turn = await h.startTurn(fresh.sessionId, 'edit yourself');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');

    const [printed] = (await printedByCells(h, fresh.sessionId, turn.id)) as {
      before: [number, unknown];
      after: { role: string; content: { type: string; text?: string }[] }[];
      refused: string | null;
      prompt: string;
    }[];
    // The working history is what the model saw before this cell's request: three messages.
    expect(printed!.before).toEqual([
      3,
      { role: 'assistant', content: [{ type: 'text', text: 'first answer' }] },
    ]);
    expect(printed!.after.map((m) => m.content[0]!.text)).toEqual([
      'first prompt',
      'first answer, rewritten',
      'edit yourself',
    ]);
    expect(printed!.refused).toMatch(/^Memory edit refused: .*tool_use/);
    expect(printed!.prompt).toBe('Answer in French.');

    // Applied after the batch: the request after the cell carries the edit and the addition.
    const next = h.model.requests[from + 1]!.body;
    expect(JSON.stringify(next.messages[1])).toContain('first answer, rewritten');
    expect(systemText(next)).toContain('Answer in French.');
    const versions = await h.api<ContextVersionList>(
      'GET',
      `/api/sessions/${fresh.sessionId}/context/versions`,
    );
    expect(versions.body.versions.map((v) => v.reason)).toEqual(['initial', 'agent_edit']);
  });

  it("an agent's cell spawns a fork and gathers its answer", async () => {
    const code = [
      'import json',
      'spawned = runtime.selfref.fork.spawn("greet", "Say hello from the fork.")',
      'gathered = runtime.selfref.fork.gather_all()',
      'print(json.dumps({"spawned": spawned, "gathered": gathered}))',
    ].join('\n');
    // The parent waits in gather_all, so the fork's one request comes between the parent's two.
    h.model.enqueue(cell(code), { content: [{ type: 'text', text: 'hello from the fork' }] }, done);
    const turn = await h.startTurn(sessionId, 'delegate');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    const [printed] = (await printedByCells(h, sessionId, turn.id)) as {
      spawned: { fork_id: string; status: string };
      gathered: Record<string, { status: string; response: string }>;
    }[];
    expect(printed!.spawned.status).toMatch(/^(queued|running)$/);
    expect(printed!.gathered).toEqual({
      [printed!.spawned.fork_id]: { status: 'completed', response: 'hello from the fork' },
    });
    const detail = await h.api<SessionDetail>('GET', `/api/sessions/${sessionId}`);
    expect(detail.body.forks).toContainEqual(
      expect.objectContaining({ fork_id: printed!.spawned.fork_id, turn_id: turn.id, status: 'completed' }),
    );
  });

  it('is not there in a kernel started without the tool endpoint', async () => {
    const t = await openTestSession(driver);
    const kernel = t.session.kernel();
    const result = await kernel.execute('runtime');
    expect(result.error?.type).toBe('NameError');
    await kernel.reset();
    expect((await kernel.execute('"runtime" in globals()')).returnValue?.text).toBe('False');
  });
});

/** Runs a Python script with the client folder on PYTHONPATH, as kernels have it; returns what it printed. */
function runPython(script: string): string {
  const run = spawnSync('python3', ['-c', script], {
    env: { ...process.env, PYTHONPATH: pythonClientDir() },
    encoding: 'utf8',
  });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return run.stdout;
}

describe('cairn_runtime, the wrapper', () => {
  it('sends each method as one call of its tool, method and arguments, and returns what the tool answered', () => {
    const script = `
import json, sys, pydoc
import cairn_runtime
lazy = "cairn_tools" not in sys.modules  # imported at the first call: kernels start without it
import cairn_tools

sent = []
answers = {"count": {"count": 3}, "all": {"messages": [{"role": "user", "content": "hi"}]},
           "get": {"message": {"role": "assistant", "content": "yo"}}, "get_system_prompt": {"system_prompt": "be brief"}}

def call(name, arguments, method=None, union_id=None, is_wait=True):
    sent.append([name, method, arguments])
    if arguments.get("id") == "nope":
        return cairn_tools.Reply(content="Experience nope does not exist.", is_error=True)
    if method == "versions":
        return cairn_tools.Reply(content="not JSON", is_error=False)
    return cairn_tools.Reply(content=json.dumps(answers.get(method, {"done": method})), is_error=False)

cairn_tools.call = call
runtime = cairn_runtime.Runtime()
c, f, m = runtime.selfref.context, runtime.selfref.fork, runtime.selfref.memory
msg = {"role": "user", "content": [{"type": "text", "text": "hi"}]}
returned = [
    c.inspect(), c.remember("fact"), c.remember("lesson", scope="project"), c.compact(level="block"),
    c.compact(goal="g", discoveries=["d"], remember=["r"], ref="u3"), c.versions(), c.read(2), c.read(2, before=5),
    f.spawn("t", "do it"), f.spawn("t", "do it", tools=["Read"]), f.gather_all(),
    f.gather_all(include_history=True, timeout_s=30), f.status("fk_1"), f.cancel("fk_1"),
    m.count(), len(m), m.all(), [x for x in m], m.get(-1), m[0], m[0:1], m.append(msg), m.insert(0, msg), m.update(-1, msg),
    m.delete(-2), m.replace([msg]), m.clear(), m.get_system_prompt(), m.set_system_prompt("x"),
    m.append_system_prompt("y"),
]
m[1] = msg
del m[-1]
try:
    c.forget("nope")
    refused = None
except runtime.SelfRefError as exc:
    refused = str(exc)
help_text = pydoc.render_doc(m, renderer=pydoc.plaintext)
print(json.dumps({"lazy": lazy, "sent": sent, "returned": returned, "refused": refused, "repr": repr(runtime),
                  "help": ["working history" in help_text, "append_system_prompt" in help_text]}))
`;
    const out = JSON.parse(runPython(script)) as Record<string, unknown>;
    const msg = { role: 'user', content: [{ type: 'text', text: 'hi' }] };
    expect(out.sent).toEqual([
      ['Context', 'inspect', {}],
      ['Context', 'remember', { text: 'fact', scope: 'session' }],
      ['Context', 'remember', { text: 'lesson', scope: 'project' }],
      ['Context', 'compact', { level: 'block' }],
      ['Context', 'compact', { goal: 'g', discoveries: ['d'], remember: ['r'], ref: 'u3' }],
      ['Context', 'versions', {}],
      ['Context', 'read', { version: 2 }],
      ['Context', 'read', { version: 2, before: 5 }],
      ['Fork', 'spawn', { task: 't', instruction: 'do it' }],
      ['Fork', 'spawn', { task: 't', instruction: 'do it', tools: ['Read'] }],
      ['Fork', 'gather_all', { include_history: false }],
      ['Fork', 'gather_all', { include_history: true, timeout_s: 30 }],
      ['Fork', 'status', { fork_id: 'fk_1' }],
      ['Fork', 'cancel', { fork_id: 'fk_1' }],
      ['Memory', 'count', {}],
      ['Memory', 'count', {}],
      ['Memory', 'all', {}],
      ['Memory', 'all', {}],
      ['Memory', 'get', { index: -1 }],
      ['Memory', 'get', { index: 0 }],
      ['Memory', 'all', {}],
      ['Memory', 'append', { message: msg }],
      ['Memory', 'insert', { index: 0, message: msg }],
      ['Memory', 'update', { index: -1, message: msg }],
      ['Memory', 'delete', { index: -2 }],
      ['Memory', 'replace', { messages: [msg] }],
      ['Memory', 'clear', {}],
      ['Memory', 'get_system_prompt', {}],
      ['Memory', 'set_system_prompt', { text: 'x' }],
      ['Memory', 'append_system_prompt', { text: 'y' }],
      ['Memory', 'update', { index: 1, message: msg }],
      ['Memory', 'delete', { index: -1 }],
      ['Context', 'forget', { id: 'nope' }],
    ]);
    const hi = { role: 'user', content: 'hi' };
    const yo = { role: 'assistant', content: 'yo' };
    expect(out.returned).toEqual([
      { done: 'inspect' },
      { done: 'remember' },
      { done: 'remember' },
      { done: 'compact' },
      { done: 'compact' },
      'not JSON',
      { done: 'read' },
      { done: 'read' },
      { done: 'spawn' },
      { done: 'spawn' },
      { done: 'gather_all' },
      { done: 'gather_all' },
      { done: 'status' },
      { done: 'cancel' },
      3,
      3,
      [hi],
      [hi],
      yo,
      yo,
      [hi],
      { done: 'append' },
      { done: 'insert' },
      { done: 'update' },
      { done: 'delete' },
      { done: 'replace' },
      { done: 'clear' },
      'be brief',
      { done: 'set_system_prompt' },
      { done: 'append_system_prompt' },
    ]);
    expect(out).toMatchObject({
      lazy: true,
      refused: 'Experience nope does not exist.',
      repr: expect.stringMatching(/^<Cairn runtime: runtime\.selfref\.context, \.fork, \.memory/),
      help: [true, true],
    });
  });

  it("calls through Cairn's cairn_tools even when a project's own cairn_tools.py comes first on sys.path", () => {
    const script = `
import json, os, sys, tempfile
project = tempfile.mkdtemp()
with open(os.path.join(project, "cairn_tools.py"), "w") as f:
    f.write("def call(*args, **kwargs):\\n    raise RuntimeError('the project shadow ran')\\n")
sys.path.insert(0, project)  # as the kernel puts the project folder first
import cairn_tools as shadow
import cairn_runtime
os.environ.pop("CAIRN_TOOL_ENDPOINT", None)
try:
    cairn_runtime.Runtime().selfref.context.inspect()
except Exception as exc:
    print(json.dumps([type(exc).__name__, str(exc)[:52], shadow.__file__.startswith(project)]))
`;
    const [kind, message, shadowed] = JSON.parse(runPython(script)) as [string, string, boolean];
    // The shadow is what `import cairn_tools` finds, but the runtime's call went to Cairn's own client.
    expect(shadowed).toBe(true);
    expect([kind, message]).toEqual([
      'ToolRuntimeError',
      "Cairn's tools are not reachable: CAIRN_TOOL_ENDPOINT",
    ]);
  });
});
