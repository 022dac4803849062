/** ToolControl guide: how to write scripts that use Cairn's tool runtime, by topic. */

const OVERVIEW = `Cairn's tools from your own scripts

Every Bash and Exec command, and every execute_code cell, can call Cairn's tools itself: the same tools you
have, the same approvals and permission rules (a call a rule denies is refused, one that asks waits for
the user), the same result files. Its calls appear under your call in the UI. Topics: python, shell, envelope, background, streaming, load_tool, protocol.

- Python: \`import cairn_tools\` (standard library only, nothing to install), then
  \`cairn_tools.call("Read", {"path": "notes.txt"})\`.
- Shell: \`cairn tool call Read --json '{"path": "notes.txt"}'\`; \`cairn tool status CALL_ID\`;
  \`cairn tool cancel CALL_ID\`.
- A reply has call_id, status, result_dir, content, is_error and meta. A denied or failed call is a reply with
  is_error true; only a transport or token failure raises (cairn_tools.ToolRuntimeError, or exit code 1).
- The token is valid only while the call that runs the script runs, and only in this session.`;

const TOPICS: Record<string, string> = {
  python: `cairn_tools (Python, standard library only; importable in Bash/Exec scripts and local kernels)

  import cairn_tools
  reply = cairn_tools.call("Write", {"path": "out.txt", "content": "hi"})
  if reply.is_error: print("failed:", reply.content)
  receipt = cairn_tools.call("Bash", {"command": "make test"}, is_wait=False)
  print(cairn_tools.status(receipt.call_id).status)
  cairn_tools.cancel(receipt.call_id)

call(name, arguments, method=None, union_id=None, is_wait=True); status(call_id); cancel(call_id);
output(call_id, after=None). Each has an async twin: call_async, status_async, cancel_async, output_async.
Replies are dicts that also read as attributes: call_id, status, result_dir, content, is_error, meta.
cairn_tools.ToolRuntimeError is raised only when the endpoint cannot be reached or the token is refused
(the call that runs the script ended, or kernels on a Jupyter Server, which get no token).

In your execute_code cells (local kernels) \`runtime.selfref\` wraps these calls for your own state:
.context.inspect() / remember(text) / forget(id) / compact(level=..., or the summary fields); .fork.spawn(task,
instruction) / gather_all(); .memory (count, get, append, update, delete, ... on your working history, applied
as one new context version after the batch). A refused call raises runtime.SelfRefError with Cairn's message.`,
  shell: `cairn tool (for shell scripts run by Bash or Exec)

  cairn tool call Read --json '{"path": "README.md"}'      # prints the reply as JSON
  cairn tool call Bash --json '{"command": "sleep 60"}' --no-wait
  cairn tool status tc_…   |   cairn tool cancel tc_…

Exit code 0 for a reply (read is_error in it), 1 when the endpoint or token fails, 2 for bad usage.
For a tool with several methods: --method NAME [--union-id ID] and --json holds the method's arguments.`,
  envelope: `Tools with several methods (Context, loaded tools) take the envelope
  {"method": "...", "union_id": "...", "arguments": {...}, "is_wait": false}
union_id is passed to the tool as given; the tool decides what it means (e.g. a session or a job).
From Python: cairn_tools.call("Context", {}, method="inspect"). Other tools take flat inputs.`,
  background: `Background calls

Bash, Exec, execute_code, MCP tools and loaded tools accept "is_wait": false: the call returns at once with a
receipt {"call_id", "status", "result_dir"} and runs on (cancelling the turn leaves it running) until it ends,
is cancelled, or its session is deleted. It has no time limit unless you give "timeout" (seconds). Read it with
ToolControl status / output, stop it with ToolControl cancel (a Bash or Exec has its whole process tree
stopped, its script token revoked and every call its script started cancelled). When one ends while your turn
runs, your next request carries a one-line notice. Its folder (result_dir) holds status.json and result.txt.`,
  streaming: `Streamed output

A call that streams (Bash, Exec, execute_code, stream methods) writes its output in pieces 0000.txt,
0001.txt, … in its result_dir (numbers may pass four digits); only the newest 20 are kept. ToolControl
{"action": "output", "call_id": C} gives the newest text; with "after": N the pieces after N, and
next_after to go on from. Expect older pieces to be gone: "missing" counts those skipped. A stream method of
a loaded tool always runs in the background and returns its call_id and result_dir.`,
  load_tool: `Tools you write and load (LoadTool {"path", "factory"?, "config"?, "mode"?})

JavaScript/TypeScript (mode "process", the default: a worker process; "local": inside Cairn):
  export function create_tool(config) {
    return { name: 'counter', description: 'Counters, one per union_id.', methods: {
      count: { kind: 'batch', description: 'Adds by.', input_schema: { type: 'object' },
               run(args, ctx) { return { content: 'new value', meta: {} }; } },
      ticks: { kind: 'stream', description: 'Counts up.',
               async *run(args, ctx) { yield 'one'; yield 'two'; } } } };
  }
  ctx: call_id, union_id, signal (aborted on cancel). A batch run returns a string, {content, is_error?,
  meta?} or JSON; a stream run is a generator whose items go to the call's output, a line each.
Python (always a worker process, on the project's interpreter):
  def create_tool(config):
      return {"name": "counter", "description": "...", "methods": {
          "count": {"kind": "batch", "description": "...", "run": lambda args, ctx: "value"},
          "ticks": {"kind": "stream", "description": "...", "run": ticks}}}   # ticks: a generator function
  ctx: call_id, union_id, cancelled(), wait(seconds) (True once cancelled).
The tool is offered from your next request; call it with {"method", "arguments", "union_id"?, "is_wait"?}.
What it prints goes to Cairn's log, not to you: return or yield what you need. A worker that crashes fails
its calls and is not restarted: load it again. Names must be unique in the session.`,
  protocol: `The wire protocol (what cairn_tools speaks)

CAIRN_TOOL_ENDPOINT is http://127.0.0.1:PORT or unix:PATH; CAIRN_TOOL_TOKEN the bearer token.
POST /v1/call {"name", "arguments", "method"?, "union_id"?, "is_wait"?}; POST /v1/status, /v1/cancel
{"call_id"}; POST /v1/output {"call_id", "after"?}; header Authorization: Bearer TOKEN; JSON bodies.
200 with a reply; 401 for a missing, unknown or revoked token; 413 over 8 MiB; nothing is retried.`,
};

export const GUIDE_TOPICS = Object.keys(TOPICS);

export function toolGuide(topic: string | undefined): string {
  if (topic === undefined) return OVERVIEW;
  const text = TOPICS[topic];
  if (text === undefined) return `No guide on "${topic}". Topics: ${GUIDE_TOPICS.join(', ')}.\n\n${OVERVIEW}`;
  return text;
}
