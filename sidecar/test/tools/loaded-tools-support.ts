import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { silentLogger } from '../../src/log/logger';
import { childEnv } from '../../src/tools/child-env';
import type { LoadedToolHandle } from '../../src/tools/runtime/loaded/loaded-tool-handle';
import {
  type LoadRequest,
  ToolLoader,
  type ToolLoaderOptions,
} from '../../src/tools/runtime/loaded/tool-loader';
import type { ToolContext, ToolResult } from '../../src/tools/tool';
import { makeTempDir, removeDir, waitFor } from './tool-context';

export { isProcessGone, waitFor } from './tool-context';

export const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'loaded');

/** A ToolContext for a call of a loaded tool, recording what it streams. */
export interface CallContext extends ToolContext {
  texts: string[];
  controller: AbortController;
}

export function callContext(projectRoot: string, toolCallId = 'call-1'): CallContext {
  const controller = new AbortController();
  const ctx: CallContext = {
    projectRoot,
    sessionId: 'session-test',
    turnId: 'turn-test',
    toolCallId,
    sessionResultsDir: path.join(projectRoot, '.results'),
    callDir: path.join(projectRoot, '.results', toolCallId),
    signal: controller.signal,
    controller,
    background: false,
    texts: [],
    onOutput(_stream, text) {
      ctx.texts.push(text);
    },
    writePiece() {},
    scriptAccess: null,
    ancestors: [],
    async ask() {
      return 'yes';
    },
  };
  return ctx;
}

/** Calls a loaded tool as the runner does: the envelope checked by its schema, then execute. */
export function call(handle: LoadedToolHandle, input: unknown, ctx: ToolContext): Promise<ToolResult> {
  return handle.tool.execute(handle.tool.inputSchema.parse(input), ctx);
}

/** A project folder with the counter fixtures in tools/, a scratch folder, and what to clean up. */
export class TestProject {
  readonly handles: LoadedToolHandle[] = [];
  loader!: ToolLoader;

  private constructor(
    readonly root: string,
    readonly scratch: string,
  ) {}

  static async create(options: Partial<ToolLoaderOptions> = {}): Promise<TestProject> {
    const project = new TestProject(await makeTempDir('cairn-loaded-'), await makeTempDir('cairn-scratch-'));
    await fs.mkdir(path.join(project.root, 'tools'));
    for (const file of await fs.readdir(FIXTURES)) {
      await fs.copyFile(path.join(FIXTURES, file), path.join(project.root, 'tools', file));
    }
    project.loader = new ToolLoader({
      python: async () => ({ command: 'python3', args: [] }),
      env: () => childEnv(),
      scratchDir: project.scratch,
      logger: silentLogger,
      ...options,
    });
    return project;
  }

  /** Loads a tool (kept for cleanup), with no other tool in the session. */
  async load(request: LoadRequest, loader = this.loader): Promise<LoadedToolHandle> {
    const handle = await loader.load(request, this.loadContext(), () => false);
    this.handles.push(handle);
    return handle;
  }

  loadContext(signal = new AbortController().signal) {
    return { projectRoot: this.root, sessionId: 'session-test', toolCallId: 'load-call', signal };
  }

  async write(relative: string, content: string): Promise<void> {
    await fs.mkdir(path.dirname(path.join(this.root, relative)), { recursive: true });
    await fs.writeFile(path.join(this.root, relative), content);
  }

  ctx(toolCallId?: string): CallContext {
    return callContext(this.root, toolCallId);
  }

  async dispose(): Promise<void> {
    await Promise.all(this.handles.map((handle) => handle.stop()));
    await removeDir(this.root);
    await removeDir(this.scratch);
  }
}

/** The Python interpreters to test with: `python3` on PATH, and the system's own when there is one. */
export const PYTHONS: { label: string; command: string }[] = [
  { label: 'python3 on PATH', command: 'python3' },
  ...(existsSync('/usr/bin/python3') ? [{ label: '/usr/bin/python3', command: '/usr/bin/python3' }] : []),
];

/** Waits until the context has streamed `count` texts. */
export function streamed(ctx: CallContext, count: number): Promise<void> {
  return waitFor(() => ctx.texts.length >= count);
}
