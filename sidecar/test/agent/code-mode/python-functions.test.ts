import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pythonFunctions, toolFunctionNames } from '../../../src/agent/code-mode/python-functions';
import { type ContextToolPort, contextTool } from '../../../src/context/context-tool';
import { mcpAgentTool } from '../../../src/tools/mcp-tool';
import { builtinToolSource } from '../../../src/tools/registry';
import { pythonClientDir } from '../../../src/tools/runtime/runtime-assets';
import { defineTool, type Tool } from '../../../src/tools/tool';

/** A tool with a zod schema that is never run. */
function plainTool(
  name: string,
  description = `The ${name} tool.`,
  inputSchema: z.ZodType = z.object({}),
): Tool {
  return defineTool({
    name,
    description,
    inputSchema,
    sideEffects: false,
    needsProject: false,
    async execute() {
      return { content: '' };
    },
  });
}

/** An MCP tool whose schema has a property name that is no identifier, a keyword one, and an enum. */
const issueTool = mcpAgentTool({
  agentName: 'mcp__git-hub__create-issue',
  serverName: 'git-hub',
  def: {
    name: 'create-issue',
    allowed: true,
    description: 'Opens an issue.\n\nLong details the docstring keeps too.',
    inputSchema: {
      type: 'object',
      properties: {
        'repo-name': { type: 'string', description: 'owner/name of the repository' },
        title: { type: 'string' },
        state: { type: 'string', enum: ['open', 'closed'], description: 'Its state.' },
        from: { type: 'integer', description: 'A keyword as a name.' },
        labels: { type: 'array', items: { type: 'string' } },
      },
      required: ['title', 'repo-name'],
    },
  },
  connection: () => null,
});

const contextPort = {} as ContextToolPort; // the tool is never run here
const tools = async (): Promise<Tool[]> =>
  builtinToolSource({ conversationOnly: false }).toolsForTurn({
    sessionId: 's1',
    turnId: 't1',
    projectRoot: '/project',
    signal: new AbortController().signal,
  });

/** Runs Python with the `cairn_tools` client importable, as kernels have it; returns stdout. */
function runPython(args: string[], input: string): { stdout: string; stderr: string; status: number | null } {
  const run = spawnSync('python3', args, {
    input,
    env: { ...process.env, PYTHONPATH: pythonClientDir() },
    encoding: 'utf8',
  });
  return { stdout: run.stdout, stderr: run.stderr, status: run.status };
}

function expectParses(source: string): void {
  const run = runPython(['-c', 'import ast,sys; ast.parse(sys.stdin.read())'], source);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
}

/**
 * Runs the prelude with `cairn_tools.call` replaced by a recorder answering from `REPLIES`, then `code`;
 * returns what the script printed as JSON last, and the calls the recorder saw.
 */
function runPrelude(prelude: string, code: string, replies: Record<string, unknown> = {}) {
  const script = `
import json, cairn_tools
CALLS = []
REPLIES = json.loads(${JSON.stringify(JSON.stringify(replies))})
def recorder(name, arguments, method=None, union_id=None, is_wait=True):
    CALLS.append({"name": name, "arguments": arguments, "method": method})
    return cairn_tools.Reply(REPLIES.get(name, {"content": "plain text", "is_error": False}))
cairn_tools.call = recorder
${prelude}
OUT = {}
${code}
print(json.dumps({"out": OUT, "calls": CALLS}))
`;
  const run = runPython(['-'], script);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as {
    out: Record<string, unknown>;
    calls: { name: string; arguments: Record<string, unknown>; method: string | null }[];
  };
}

describe('toolFunctionNames', () => {
  it('makes identifiers, keeps clear of keywords, builtins and the prelude, and never repeats one', () => {
    const names = toolFunctionNames(
      ['Read', 'print', 'exec', 'my.tool', 'my-tool', '3d', 'class', 'final_answer', 'mcp__s__t'].map((n) =>
        plainTool(n),
      ),
    );
    expect([...names]).toEqual([
      ['Read', 'Read'],
      ['print_tool', 'print'],
      ['exec_tool', 'exec'],
      ['my_tool', 'my.tool'],
      ['my_tool_2', 'my-tool'],
      ['tool_3d', '3d'],
      ['class_tool', 'class'],
      ['final_answer_tool', 'final_answer'],
      ['mcp__s__t', 'mcp__s__t'],
    ]);
  });
});

describe('pythonFunctions signatures', () => {
  it('gives each built-in tool a def from its schema: required first, optional ones = None, typed', async () => {
    const { signatures } = pythonFunctions(await tools());
    expect(signatures).toContain('def Read(path: str, offset: int = None, limit: int = None');
    expect(signatures).toMatch(/def Bash\(command: str, [^)]*is_wait: bool = None/);
    expect(signatures).toContain('def AskUserQuestion(');
    expect(signatures).toMatch(
      /def final_answer\(answer\):\n {4}"""Ends the task: answer is shown to the user as your reply\."""/,
    );
    expectParses(signatures);
  });

  it('maps an MCP property name that is no identifier, passes it by its own name, and lists an enum', () => {
    const { signatures, prelude } = pythonFunctions([issueTool]);
    expect(signatures).toContain(
      'def mcp__git_hub__create_issue(title: str, repo_name: str, state: str = None, from_: int = None, labels: list = None',
    );
    expect(signatures).toContain('repo_name (str): Passed as "repo-name". owner/name of the repository');
    expect(signatures).toContain('state (str, optional): One of "open", "closed". Its state.');
    expect(signatures).toContain('Long details the docstring keeps too.');
    expect(prelude).toContain('"repo-name": repo_name');
    expectParses(signatures);
    expectParses(prelude);
  });

  it('gives a multi-method tool a method and keyword arguments, its methods listed', () => {
    const { signatures } = pythonFunctions([contextTool(contextPort) as unknown as Tool]);
    expect(signatures).toContain('def Context(method: str, **arguments):');
    expect(signatures).toMatch(/Methods:\n\s+inspect\n\s+compact\n/);
    expectParses(signatures);
  });

  it('keeps a description with quotes, backslashes and control characters valid Python', () => {
    const nasty = plainTool('Nasty', 'Ends with """ and \\ and \u0001 and a quote"');
    // A server's description ending in triple quotes must not end the docstring (it stopped code mode).
    const triple = plainTool('Triple', 'Harmless tool """');
    const six = plainTool('Six', 'x """"""');
    const { signatures, prelude } = pythonFunctions([nasty, triple, six]);
    expectParses(signatures);
    expectParses(prelude);
    expect(signatures).toContain('Harmless tool \\"\\"\\""""');
  });

  it('reads a boolean property schema (valid JSON Schema) as no constraint', () => {
    const loose = mcpAgentTool({
      agentName: 'mcp__loose__take',
      serverName: 'loose',
      def: {
        name: 'take',
        allowed: true,
        description: 'Takes anything.',
        inputSchema: { type: 'object', properties: { x: true, y: { anyOf: [true, { const: 'a' }] } } },
      },
    } as unknown as Parameters<typeof mcpAgentTool>[0]) as unknown as Tool;
    const { signatures } = pythonFunctions([loose]);
    expect(signatures).toContain('def mcp__loose__take(x = None, y: str = None,');
    expectParses(signatures);
  });
});

describe('pythonFunctions prelude, run in python3', () => {
  it('sends the tool name and the given arguments by their own names, and returns parsed JSON or text', async () => {
    const { prelude } = pythonFunctions([...(await tools()), issueTool]);
    expectParses(prelude);
    const run = runPrelude(
      prelude,
      `
OUT["read"] = Read("notes.txt", limit=5)
OUT["issue"] = mcp__git_hub__create_issue("Bug", "me/repo", state="open", from_=3)
OUT["text"] = Bash("echo hi")
`,
      {
        Read: { content: '{"lines": [1, 2]}', is_error: false },
        'mcp__git-hub__create-issue': { content: '[1, "two"]', is_error: false },
      },
    );
    expect(run.out).toEqual({ read: { lines: [1, 2] }, issue: [1, 'two'], text: 'plain text' });
    expect(run.calls).toEqual([
      { name: 'Read', arguments: { path: 'notes.txt', limit: 5 }, method: null },
      {
        name: 'mcp__git-hub__create-issue',
        arguments: { title: 'Bug', 'repo-name': 'me/repo', state: 'open', from: 3 },
        method: null,
      },
      { name: 'Bash', arguments: { command: 'echo hi' }, method: null },
    ]);
  });

  it('calls a multi-method tool with its method', () => {
    const { prelude } = pythonFunctions([contextTool(contextPort) as unknown as Tool]);
    const run = runPrelude(prelude, 'OUT["r"] = Context("compact", ref="r1", level=None)');
    expect(run.calls).toEqual([{ name: 'Context', arguments: { ref: 'r1' }, method: 'compact' }]);
  });

  it('raises ToolCallError, an Exception, with the tool error text', async () => {
    const { prelude } = pythonFunctions(await tools());
    const run = runPrelude(
      prelude,
      `
try:
    Read("missing.txt")
except Exception as e:
    OUT["error"] = [type(e).__name__, str(e), e.tool, isinstance(e, ToolCallError)]
`,
      { Read: { content: 'No such file: missing.txt', is_error: true } },
    );
    expect(run.out.error).toEqual(['ToolCallError', 'No such file: missing.txt', 'Read', true]);
  });

  it('final_answer records the answer as JSON and is not swallowed by except Exception', () => {
    const { prelude } = pythonFunctions([]);
    const run = runPrelude(
      prelude,
      `
try:
    try:
        final_answer({"a": 1})
    except Exception:
        OUT["swallowed"] = True
except FinalAnswer as done:
    OUT["answer"] = done.answer
    OUT["recorded"] = done.recorded
    OUT["base"] = not isinstance(done, Exception)
`,
    );
    expect(run.out).toEqual({ answer: { a: 1 }, recorded: true, base: true });
    expect(run.calls).toEqual([{ name: 'FinalAnswer', arguments: { answer: '{"a": 1}' }, method: null }]);
  });

  it('final_answer still ends the code when recording it fails, and running the prelude again keeps the classes', () => {
    const { prelude } = pythonFunctions([]);
    const run = runPrelude(
      prelude,
      `
first = FinalAnswer
def unreachable(*args, **kwargs):
    raise cairn_tools.ToolRuntimeError("no endpoint")
cairn_tools.call = unreachable
exec(${JSON.stringify(prelude)}, globals())
try:
    final_answer("done")
except first as done:
    OUT["answer"] = done.answer
    OUT["recorded"] = done.recorded
`,
    );
    expect(run.out).toEqual({ answer: 'done', recorded: false });
  });
});
