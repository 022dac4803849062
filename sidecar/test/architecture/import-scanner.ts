/**
 * Reads, from a file's text, every module it loads. It reads the text, not a syntax tree, so a name in a
 * string or a comment counts too: it errs towards seeing an import that is not there.
 */

/** One module a file names; `typeOnly` when the compiler erases it (`import type`, `export type`). */
export interface ImportRef {
  spec: string;
  typeOnly: boolean;
}

/** What a file loads: the modules it names, and the loads whose module cannot be read from the text. */
export interface ScannedImports {
  refs: ImportRef[];
  unreadable: string[];
}

/** Every module a file names: static imports and re-exports, dynamic import(), require(), import = require. */
export function importsOf(source: string): string[] {
  return scanImports(source).refs.map((ref) => ref.spec);
}

const STATIC = /(?:^|[^\w.$])((?:import|export)\s[^'"`;]*?)\bfrom\s*['"]([^'"]+)['"]/gm;
const SIDE_EFFECT = /(?:^|[^\w.$])import\s+['"]([^'"]+)['"]/gm;
// `\s*` is kept apart: a call written without a space is code, `import (` in prose usually is not.
const CALL = /(?:^|[^\w.$])(import|require)(\s*)\(/gm;
// Under verbatimModuleSyntax only these forms are erased; `import { type X }` still loads the module.
const TYPE_ONLY_HEAD = /^(?:import|export)\s+type\s*(?:[{*]|[\w$]+\s*$)/;
// The bases a require made by createRequire resolves `./x` from as this file would.
const OWN_BASE = new Set(['import.meta.url', '__filename']);

export function scanImports(source: string): ScannedImports {
  const found: { at: number; ref: ImportRef }[] = [];
  const unreadable: string[] = [];
  const add = (at: number, spec: string, typeOnly = false) => found.push({ at, ref: { spec, typeOnly } });

  for (const m of source.matchAll(STATIC)) {
    add(m.index, m[2]!, TYPE_ONLY_HEAD.test(m[1]!.trim().replace(/\s+/g, ' ')));
  }
  for (const m of source.matchAll(SIDE_EFFECT)) add(m.index, m[1]!);
  for (const m of source.matchAll(CALL)) {
    const open = m.index + m[0].length;
    const arg = readArgument(source, open, m[2] === '');
    if (arg?.spec !== undefined) add(m.index, arg.spec);
    else if (arg) unreadable.push(`${m[1]}(${arg.text})`);
  }
  for (const load of createRequireLoads(source)) {
    if (load.spec !== undefined) add(load.at, load.spec);
    else unreadable.push(load.text);
  }
  found.sort((a, b) => a.at - b.at);
  return { refs: found.map((f) => f.ref), unreadable };
}

/**
 * The module named by the call whose `(` ends just before `open`: a string or a template without `${}`
 * gives `spec`; anything else gives only `text` (it is chosen at run time). Null when it is no load at all
 * (an empty call, or prose when `strict` is off).
 */
function readArgument(source: string, open: number, strict: boolean): { spec?: string; text: string } | null {
  const rest = source.slice(open);
  const lead = /^\s*(?:\/\*[\s\S]*?\*\/\s*)*/.exec(rest)![0];
  const body = rest.slice(lead.length);
  const literal = /^(['"])([^'"\n]*)\1\s*[),]/.exec(body);
  if (literal) return { spec: literal[2]!, text: literal[0] };
  const template = /^`([^`]*)`\s*[),]/.exec(body);
  if (template) {
    const text = `\`${template[1]}\``;
    return template[1]!.includes('${') ? { text } : { spec: template[1]!, text };
  }
  if (strict && /^[\w$`'"]/.test(body)) return { text: body.slice(0, argumentEnd(body)).trim() };
  return null;
}

/** Where the argument that starts `text` ends: its matching `)`, or a stopping point if there is none. */
function argumentEnd(text: string): number {
  const close = closingParen(text, 0);
  return close === -1 ? Math.min(text.length, 60) : close;
}

/** The index of the `)` that closes an argument list starting at `from` (just after its `(`), or -1. */
function closingParen(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === '`') {
      const end = text.indexOf(c, i + 1);
      if (end === -1) return -1;
      i = end;
    } else if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

/**
 * Loads through a require made by node:module's createRequire: called at once (`createRequire(b)('x')`)
 * or bound to a name and called later. One used any other way (returned, passed on) cannot be followed.
 */
function createRequireLoads(source: string): { at: number; spec?: string; text: string }[] {
  const loads: { at: number; spec?: string; text: string }[] = [];
  const makers = new Set(['createRequire']);
  for (const m of source.matchAll(/\bcreateRequire\s+as\s+([\w$]+)/g)) makers.add(m[1]!);

  for (const maker of makers) {
    const call = new RegExp(`(?:^|[^\\w$])${asPattern(maker)}\\s*\\(`, 'gm');
    for (const m of source.matchAll(call)) {
      const open = m.index + m[0].length;
      const close = closingParen(source, open);
      const base = close === -1 ? '' : source.slice(open, close).trim();
      const text = `${maker}(${base})`;
      if (close === -1) {
        loads.push({ at: m.index, text });
        continue;
      }
      const after = source.slice(close + 1);
      const direct = /^\s*\(/.exec(after);
      const nameAt = m.index + m[0].indexOf(maker);
      const bound = /(?:const|let|var)\s+([\w$]+)\s*=\s*$/.exec(source.slice(0, nameAt));
      if (direct) {
        loads.push(requireLoad(source, m.index, close + 1 + direct[0].length, base, text));
      } else if (/^\s*\??\./.test(after)) {
        // `.resolve(...)` only finds a path; it loads nothing.
      } else if (bound) {
        // A binding named `require` is read already, as any require() call is.
        if (bound[1] === 'require') continue;
        const uses = new RegExp(`(?:^|[^\\w.$])${asPattern(bound[1]!)}\\s*\\(`, 'gm');
        for (const use of source.slice(close).matchAll(uses)) {
          const at = close + use.index + use[0].length;
          loads.push(requireLoad(source, close + use.index, at, base, `${bound[1]}(…)`));
        }
      } else {
        // A require handed on elsewhere loads what this text cannot see.
        loads.push({ at: m.index, text: `${text} used where its loads cannot be read` });
      }
    }
  }
  return loads;
}

/** One call of a made require: its module, unless it is named at run time or relative to another base. */
function requireLoad(source: string, at: number, open: number, base: string, text: string) {
  const arg = readArgument(source, open, true) ?? { text: '' };
  if (arg.spec === undefined) return { at, text: `${text}(${arg.text})` };
  if (arg.spec.startsWith('.') && !OWN_BASE.has(base)) {
    return { at, text: `${text}('${arg.spec}'), relative to ${base}, not this file` };
  }
  return { at, spec: arg.spec, text };
}

const asPattern = (name: string) => name.replace(/\$/g, '\\$');
