import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Tool, ToolContext, ToolResult } from '../../src/tools/tool';

export interface TestContext extends ToolContext {
  outputs: { stream: 'stdout' | 'stderr'; text: string }[];
  /** What went to the call's output pieces (onOutput's text and writePiece's). */
  pieces: string[];
  questions: { question: string; options: string[] | null }[];
}

export interface TestContextOptions {
  projectRoot: string | null;
  sessionResultsDir?: string;
  signal?: AbortSignal;
  /** What `ask` answers. */
  answer?: string;
  background?: boolean;
  scriptAccess?: ToolContext['scriptAccess'];
  ancestors?: ToolContext['ancestors'];
}

/** A ToolContext that records streamed output and questions. */
export function makeContext(opts: TestContextOptions): TestContext {
  const ctx: TestContext = {
    projectRoot: opts.projectRoot,
    sessionId: 'session-test',
    turnId: 'turn-test',
    toolCallId: 'call-test',
    sessionResultsDir: opts.sessionResultsDir ?? path.join(os.tmpdir(), 'cairn-no-results-dir'),
    callDir: path.join(opts.sessionResultsDir ?? path.join(os.tmpdir(), 'cairn-no-results-dir'), 'call-test'),
    signal: opts.signal ?? new AbortController().signal,
    background: opts.background ?? false,
    scriptAccess: opts.scriptAccess ?? null,
    ancestors: opts.ancestors ?? [],
    outputs: [],
    pieces: [],
    questions: [],
    onOutput(stream, text) {
      ctx.outputs.push({ stream, text });
      ctx.pieces.push(text);
    },
    writePiece(text) {
      ctx.pieces.push(text);
    },
    async ask(question, options) {
      ctx.questions.push({ question, options });
      return opts.answer ?? 'yes';
    },
  };
  return ctx;
}

/** Validates the input with the tool's schema (as the dispatcher does), then runs it. */
export function runTool(tool: Tool, input: unknown, ctx: ToolContext): Promise<ToolResult> {
  return tool.execute(tool.inputSchema.parse(input), ctx);
}

/** A fresh temp folder, resolved with realpath (macOS's /var is a symlink) like a real project root. */
export async function makeTempDir(prefix = 'cairn-tools-'): Promise<string> {
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)));
}

export async function removeDir(dir: string): Promise<void> {
  await fs.rm(dir, { recursive: true, force: true });
}

/**
 * Whether a process no longer runs: gone (ESRCH) or a zombie waiting to be reaped (some containers' init
 * never reaps orphans, so a killed process can stay a zombie forever).
 */
export function isProcessGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
  if (process.platform !== 'linux') return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** Polls `check` until it holds; throws after `timeoutMs` (a ceiling against hangs, not a speed test). */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('waitFor: condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
