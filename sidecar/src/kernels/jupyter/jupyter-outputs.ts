import { stripVTControlCharacters } from 'node:util';
import type { ErrorDetails, MimeBundle, VariableInfo } from '../driver-messages';
import { MimeBundle as MimeBundleSchema, VariableInfo as VariableInfoSchema } from '../driver-messages';

/** Without the colour codes IPython puts in tracebacks. */
export function stripAnsi(text: string): string {
  return stripVTControlCharacters(text);
}

/** A Jupyter `data` dict as the local driver's MimeBundle: string values only (PNG is base64 already). */
export function toMimeBundle(data: unknown): MimeBundle {
  const parsed = MimeBundleSchema.safeParse(data ?? {});
  return parsed.success ? parsed.data : {};
}

const SYNTAX_ERRORS = new Set(['SyntaxError', 'IndentationError', 'TabError']);

/** Jupyter's `ename`/`evalue`/`traceback` as the structured error the local driver gives. */
export function errorDetails(ename: string, evalue: string, traceback: readonly string[]): ErrorDetails {
  const lines = traceback.map(stripAnsi);
  // IPython 8 names cell frames "Cell In [3], line 5" (8.6+: "Cell In[3]"); the last one is where the
  // user's own code failed. Library frames ("File /usr/lib/…") are left out of the line.
  let line: number | null = null;
  for (const entry of lines) {
    for (const match of entry.matchAll(/Cell In ?\[\d+\], line (\d+)/g)) line = Number(match[1]);
  }
  // A SyntaxError's value names the temporary file IPython compiled: "incomplete input (3032903417.py, line 2)".
  const syntax = /^(.*) \([^()]*, line \d+\)$/s.exec(evalue);
  const message = syntax && SYNTAX_ERRORS.has(ename) ? syntax[1]! : evalue;
  return {
    type: ename,
    message,
    line,
    column: null,
    snippet: null,
    pointer: null,
    summary: message ? `${ename}: ${message}` : ename,
    traceback: lines,
  };
}

/**
 * Python that lists the user's variables like the local driver (no `_` names, none of IPython's own), as
 * base64 of JSON so the `text/plain` repr that user_expressions returns needs no unescaping. It runs in a
 * dict of its own, so it leaves no names behind in the user's namespace.
 */
const VARIABLES_SOURCE = `
import base64, json, reprlib
r = reprlib.Repr()
r.maxstring = r.maxother = 200
def short(v):
    try:
        t = r.repr(v)
    except Exception as e:
        t = "<repr failed: %s>" % type(e).__name__
    return t if len(t) <= 200 else t[:199] + "\\u2026"
hide = {"In", "Out", "exit", "quit", "get_ipython"}
ip = ns.get("get_ipython")
if callable(ip):
    try:
        hide |= set(ip().user_ns_hidden)
    except Exception:
        pass
items = [{"name": k, "type": type(v).__name__, "repr": short(v)}
         for k, v in list(ns.items()) if not k.startswith("_") and k not in hide]
out = base64.b64encode(json.dumps(items).encode()).decode()
`;

/** A user expression (evaluated in the user's namespace) whose value is the listing. */
export const VARIABLES_EXPRESSION = `(lambda d: (exec(${JSON.stringify(VARIABLES_SOURCE)}, d), d["out"])[1])({"ns": globals()})`;

/** Clears the namespace: IPython's own reset where there is one, else every name not starting with `_`. */
export const RESET_CODE = `
try:
    get_ipython().run_line_magic("reset", "-f")
except NameError:
    for _k in [k for k in globals() if not k.startswith("_")]:
        del globals()[_k]
`;

/** Reads the user expression's result: `{status: 'ok', data: {'text/plain': "'<base64>'"}}`. */
export function parseVariables(expression: unknown): VariableInfo[] {
  const result = expression as
    | { status?: string; data?: Record<string, unknown>; evalue?: string }
    | undefined;
  if (result?.status !== 'ok') {
    throw new Error(`Listing the kernel's variables failed: ${result?.evalue ?? 'no result'}.`);
  }
  const text = result.data?.['text/plain'];
  if (typeof text !== 'string') throw new Error("Listing the kernel's variables gave no text.");
  const json = Buffer.from(text.replace(/^['"]|['"]$/g, ''), 'base64').toString('utf8');
  return VariableInfoSchema.array().parse(JSON.parse(json));
}
