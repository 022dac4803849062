import type { Tool } from '../../tools/tool';
import { clashesInKernel, PRELUDE_NAMES, pythonIdentifier, uniqueName } from './python-names';
import { FINAL_ANSWER_DOC, pythonPrelude } from './python-prelude';
import { CALL_HELPER, pythonSignature } from './python-signature';

/** What code mode's system prompt shows before the signatures. */
const SIGNATURES_HEADER = [
  "# Your tools, as Python functions. Each returns the tool's result (parsed JSON when it is a JSON object",
  '# or list, else its text) and raises ToolCallError when the call fails or is denied.',
].join('\n');

/**
 * Each tool's Python function name, in the tools' order: the name as an identifier, `_tool` added when
 * it would hide a keyword, a builtin or a name the prelude binds, `_2`... when another took it.
 */
export function toolFunctionNames(tools: readonly Tool[]): Map<string, string> {
  const taken = new Set<string>([CALL_HELPER, ...PRELUDE_NAMES]);
  const names = new Map<string, string>();
  for (const tool of tools) {
    let name = pythonIdentifier(tool.name, 'tool');
    if (clashesInKernel(name)) name = `${name}_tool`;
    names.set(uniqueName(name, taken), tool.name);
  }
  return names;
}

/**
 * The session's tools as Python functions for code mode: `signatures` for the system prompt (def lines
 * and docstrings, `final_answer` last) and `prelude`, the source that defines them in the kernel.
 */
export function pythonFunctions(tools: readonly Tool[]): { prelude: string; signatures: string } {
  const names = [...toolFunctionNames(tools).keys()];
  const functions = tools.map((tool, i) => ({
    name: names[i]!,
    signature: pythonSignature(tool, names[i]!),
  }));
  const finalAnswer = `def final_answer(answer):\n    """${FINAL_ANSWER_DOC}"""\n    ...`;
  const signatures = [
    SIGNATURES_HEADER,
    ...functions.map(({ signature }) => `${signature.head}\n    ...`),
    finalAnswer,
  ].join('\n\n\n');
  return { prelude: pythonPrelude(functions), signatures: `${signatures}\n` };
}
