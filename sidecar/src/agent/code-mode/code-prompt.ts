import type { Tool } from '../../tools/tool';

/**
 * The kernel tools are not offered as functions: the code already runs in the kernel (execute_code would
 * run a cell from inside a cell, which the kernel refuses), and resetting it from its own cell would erase
 * the functions themselves.
 */
const KERNEL_TOOLS = new Set(['execute_code', 'reset_repl', 'list_variables']);

/** The session's tools that code mode presents as Python functions. */
export function codeModeTools(modelTools: readonly Tool[]): Tool[] {
  return modelTools.filter((t) => !KERNEL_TOOLS.has(t.name));
}

/** The section code mode adds to the system prompt: how to answer, then the functions. */
export function codeModeSection(signatures: string): string {
  return [
    '# Code mode',
    'You act by writing Python. Each reply: your reasoning in a few sentences, then exactly one code block',
    'in <code>...</code> tags, like this:',
    '',
    'I need the file list first.',
    '<code>',
    'files = Glob(pattern="**/*.py")',
    'print(files)',
    '</code>',
    '',
    "The code runs in the session's Python kernel (shared with the user): variables, imports and",
    'functions persist from one block to the next. What it prints and the value of its last expression come',
    'back to you as the observation; then write the next block. Print what you need to see; keep each block',
    'small. When you have the answer, call final_answer(answer) in a block: it ends the task and the user',
    'sees the answer as your reply. Do not call your tools any other way than as these functions.',
    '',
    '```python',
    signatures.trimEnd(),
    '```',
  ].join('\n');
}
