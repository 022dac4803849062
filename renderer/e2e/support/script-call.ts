// A shell line that calls a tool through Cairn's runtime as a script would (`cairn tool call`, with the
// endpoint and token Cairn gave the command), for tests of the calls scripts start.

/** Writes `file` (relative to the project) with "hi" through the runtime, and prints "wrote: true". */
export function writeFromScript(file: string): string {
  const args = JSON.stringify({ path: file, content: 'hi' });
  return `cairn tool call Write --json '${args}' > /dev/null && echo "wrote: true"`;
}
