// Syntax colours loaded on demand: highlight.js (through lowlight) and each grammar come as chunks of their
// own the first time a code block names that language. Until then the code shows plain; the same text in
// the same box, so colouring it later moves nothing.

import type { Element, ElementContent, Root } from 'hast';
import { useEffect, useSyncExternalStore } from 'react';
import { hastText } from '../markdown/hast-to-jsx';
import { ALIASES, EMBEDS, GRAMMAR_NAMES } from './grammars';

const NAMES: ReadonlySet<string> = new Set(GRAMMAR_NAMES);

type HastElement = Element;
type HastChild = ElementContent;
type Lowlight = ReturnType<typeof import('lowlight')['createLowlight']>;

let lowlight: Lowlight | null = null;
let core: Promise<Lowlight> | null = null;
/** Grammars registered (or that failed to load: those stay plain, and are not asked for again). */
const settled = new Set<string>();
const registered = new Set<string>();
const pending = new Map<string, Promise<void>>();
const listeners = new Set<() => void>();

/** The grammar a fence's language name stands for, or null when we have none for it. */
export function grammarFor(language: string | null | undefined): string | null {
  if (!language) return null;
  const name = language.toLowerCase();
  if (NAMES.has(name)) return name;
  return ALIASES[name] ?? null;
}

function loadCore(): Promise<Lowlight> {
  core ??= import('lowlight').then((module) => {
    lowlight = module.createLowlight();
    return lowlight;
  });
  return core;
}

/** Loads a grammar and those it embeds, then tells every subscriber. Never rejects. */
export function loadGrammar(grammar: string): Promise<void> {
  const known = pending.get(grammar);
  if (known) return known;
  const names = [grammar, ...(EMBEDS[grammar] ?? [])];
  const grammars = import('./grammar-loaders').then(({ GRAMMAR_LOADERS }) =>
    Promise.all(
      names.map((name) =>
        GRAMMAR_LOADERS[name as keyof typeof GRAMMAR_LOADERS]?.().then(
          (module) => [name, module.default] as const,
        ),
      ),
    ),
  );
  const loading = Promise.all([loadCore(), grammars])
    .then(([highlighter, loaded]) => {
      for (const entry of loaded) {
        if (!entry || registered.has(entry[0])) continue;
        highlighter.register(entry[0], entry[1]);
        registered.add(entry[0]);
      }
    })
    .catch(() => undefined)
    .then(() => {
      settled.add(grammar);
      for (const listener of listeners) listener();
    });
  pending.set(grammar, loading);
  return loading;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * True once every grammar that `languages` name has loaded (or failed to); starts loading those missing.
 * A component passes its result to what it memoizes, so it renders again, coloured, when they arrive.
 */
export function useGrammarsReady(languages: readonly (string | null)[]): boolean {
  const grammars = languages.map(grammarFor).filter((g): g is string => g !== null);
  const key = grammars.join(' ');
  useEffect(() => {
    for (const grammar of key ? key.split(' ') : []) if (!settled.has(grammar)) void loadGrammar(grammar);
  }, [key]);
  return useSyncExternalStore(subscribe, () => grammars.every((g) => settled.has(g)));
}

/** The languages of the fenced code blocks in Markdown text (cheap: no parsing). */
export function fenceLanguages(markdown: string): string[] {
  if (!markdown.includes('```') && !markdown.includes('~~~')) return [];
  const found = new Set<string>();
  for (const match of markdown.matchAll(/^ {0,3}(?:`{3,}|~{3,})[ \t]*([^\s`{]+)/gm)) found.add(match[1]!);
  return [...found];
}

function languageOf(code: HastElement): string | false | null {
  const classes = code.properties.className;
  if (!Array.isArray(classes)) return null;
  let found: string | null = null;
  for (const value of classes.map(String)) {
    if (value === 'no-highlight' || value === 'nohighlight') return false;
    if (!found && value.startsWith('lang-')) found = value.slice('lang-'.length);
    if (!found && value.startsWith('language-')) found = value.slice('language-'.length);
  }
  return found;
}

function highlightCode(code: HastElement): void {
  const language = languageOf(code);
  if (!language) return;
  const classes = Array.isArray(code.properties.className) ? code.properties.className : [];
  // The class is there from the start, coloured or not, so the box looks the same before and after.
  if (!classes.includes('hljs')) code.properties.className = ['hljs', ...classes];
  const grammar = grammarFor(language);
  if (!grammar || !lowlight || !registered.has(grammar)) return;
  try {
    const result = lowlight.highlight(grammar, hastText(code));
    if (result.children.length > 0) code.children = result.children as HastChild[];
  } catch {
    // A grammar that throws on this text: the code stays plain.
  }
}

function walk(node: { children: (HastChild | Root['children'][number])[] }): void {
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (child.tagName === 'pre') {
      for (const inner of child.children)
        if (inner.type === 'element' && inner.tagName === 'code') highlightCode(inner);
    } else walk(child);
  }
}

/** Colours each `pre > code` of the tree whose grammar has loaded (in place); the rest stay plain for now. */
export function highlightTree(tree: Root): void {
  walk(tree);
}
