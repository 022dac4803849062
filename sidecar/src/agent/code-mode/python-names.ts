/** Python's keywords (soft keywords such as `match` and `type` are valid names and stay). */
const KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);

/** Python's builtins: a tool function must not shadow one the model's code may still want (`print`, `open`). */
const BUILTINS = new Set(
  'abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex copyright credits delattr dict dir divmod enumerate eval exec exit filter float format frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter len license list locals map max memoryview min next object oct open ord pow print property quit range repr reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip'.split(
    ' ',
  ),
);

/** Names the prelude itself binds in the kernel, and ones a kernel has (`display`, IPython's `In`/`Out`). */
export const PRELUDE_NAMES = ['final_answer', 'FinalAnswer', 'ToolCallError'] as const;
const KERNEL_NAMES = new Set([...PRELUDE_NAMES, 'cairn_tools', 'display', 'get_ipython', 'In', 'Out']);

/** Any text as a Python identifier: other characters become `_`, a leading digit gets a prefix. */
export function pythonIdentifier(text: string, prefix: string): string {
  const name = text.replace(/[^A-Za-z0-9_]/g, '_');
  if (name === '') return prefix;
  return /^[0-9]/.test(name) ? `${prefix}_${name}` : name;
}

export const isPythonKeyword = (name: string): boolean => KEYWORDS.has(name);

/** Whether a tool function of this name would hide something the model's code needs. */
export const clashesInKernel = (name: string): boolean =>
  KEYWORDS.has(name) || BUILTINS.has(name) || KERNEL_NAMES.has(name);

/** `name`, or `name_2`, `name_3`... : the first not taken. Adds it to `taken`. */
export function uniqueName(name: string, taken: Set<string>): string {
  let unique = name;
  for (let n = 2; taken.has(unique); n++) unique = `${name}_${n}`;
  taken.add(unique);
  return unique;
}
