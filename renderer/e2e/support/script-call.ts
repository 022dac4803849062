// A shell line that calls a tool through Cairn's runtime as a script would (CAIRN_TOOL_ENDPOINT with the
// call's CAIRN_TOOL_TOKEN), for tests of the calls scripts start. Runs the Node that runs the tests.

/** Writes `file` (relative to the project) with "hi" through the runtime, and prints "wrote: true". */
export function writeFromScript(file: string): string {
  const js = [
    'fetch(process.env.CAIRN_TOOL_ENDPOINT + "/v1/call", {',
    'method: "POST",',
    'headers: { authorization: "Bearer " + process.env.CAIRN_TOOL_TOKEN, "content-type": "application/json" },',
    `body: JSON.stringify({ name: "Write", arguments: { path: "${file}", content: "hi" } }),`,
    '}).then((r) => r.text()).then((t) => console.log("wrote:", t.length > 0))',
  ].join(' ');
  return `'${process.execPath}' -e '${js}'`;
}
