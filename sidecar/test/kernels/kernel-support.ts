import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { defaultDriverPath } from '../../src/kernels/driver-path';
import type { PythonCommand } from '../../src/kernels/driver-spawn';
import { KernelManager, type KernelManagerOptions } from '../../src/kernels/kernel-manager';
import type { KernelEvent, KernelLimits } from '../../src/kernels/kernel-types';
import type { SessionKernels } from '../../src/kernels/session-kernels';
import type { LogFields, Logger } from '../../src/log/logger';
import { childEnv } from '../../src/tools/child-env';
import { makeTempDir, removeDir } from '../tools/tool-context';

/**
 * The two drivers the kernels must work with: the stdlib one (`python3` on PATH, IPython switched off even
 * where it is importable) and the IPython one (Debian's python3 with python3-ipython and matplotlib).
 */
export interface Flavour {
  label: string;
  /** null: found on PATH like a project without settings. */
  pythonPath: string | null;
  python: PythonCommand;
  ipython: boolean;
}

export const STDLIB: Flavour = {
  label: 'stdlib driver (python3 on PATH)',
  pythonPath: null,
  python: { command: 'python3', args: [] },
  ipython: false,
};

export const IPYTHON: Flavour = {
  label: 'IPython driver (/usr/bin/python3)',
  pythonPath: '/usr/bin/python3',
  python: { command: '/usr/bin/python3', args: [] },
  ipython: true,
};

export const FLAVOURS: Flavour[] = existsSync('/usr/bin/python3') ? [STDLIB, IPYTHON] : [STDLIB];

export const DRIVER_PATH = defaultDriverPath();

/** The environment a kernel gets in the sidecar: this process's, scrubbed of secrets. */
export function kernelEnv(): NodeJS.ProcessEnv {
  return childEnv(process.env);
}

/** A logger that keeps what it is given, to check that something was (or was not) reported. */
export function recordingLogger(): Logger & { lines: { level: string; msg: string; fields?: LogFields }[] } {
  const lines: { level: string; msg: string; fields?: LogFields }[] = [];
  const at =
    (level: string) =>
    (msg: string, fields?: LogFields): void => {
      lines.push({ level, msg, ...(fields ? { fields } : {}) });
    };
  const logger = {
    lines,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: () => logger,
  };
  return logger;
}

/** Collects kernel events; `ofType` narrows. */
export function eventLog(): {
  events: KernelEvent[];
  listener: (event: KernelEvent) => void;
  ofType: <T extends KernelEvent['type']>(type: T) => Extract<KernelEvent, { type: T }>[];
} {
  const events: KernelEvent[] = [];
  return {
    events,
    listener: (event) => events.push(event),
    ofType: <T extends KernelEvent['type']>(type: T) =>
      events.filter((e): e is Extract<KernelEvent, { type: T }> => e.type === type),
  };
}

/** Joins consecutive chunks of the same stream: the driver may split output anywhere. */
export function mergeRuns(chunks: [string, string][]): [string, string][] {
  const merged: [string, string][] = [];
  for (const [name, text] of chunks) {
    const last = merged.at(-1);
    if (last && last[0] === name) last[1] += text;
    else merged.push([name, text]);
  }
  return merged;
}

export interface TestSession {
  manager: KernelManager;
  session: SessionKernels;
  events: ReturnType<typeof eventLog>;
  dataDir: string;
  projectRoot: string;
  kernelsDir: string;
  artifactsDir: string;
}

/** Opens a session's kernels in a fresh data folder; `closeTestSessions` shuts them down and removes it. */
export async function openTestSession(
  flavour: Pick<Flavour, 'pythonPath' | 'ipython'>,
  opts: {
    limits?: Partial<KernelLimits>;
    warm?: boolean;
    sessionId?: string;
    scriptEnv?: KernelManagerOptions['scriptEnv'];
  } = {},
): Promise<TestSession> {
  const dataDir = await makeTempDir('cairn-kernels-');
  const projectRoot = path.join(dataDir, 'project');
  await fs.mkdir(projectRoot);
  const sessionId = opts.sessionId ?? 'ses_test';
  const kernelsDir = path.join(dataDir, 'sessions', sessionId, 'kernels');
  const artifactsDir = path.join(dataDir, 'artifacts');
  const manager = new KernelManager({
    env: kernelEnv,
    driverPath: DRIVER_PATH,
    ipython: flavour.ipython,
    warm: opts.warm ?? false,
    ...(opts.limits ? { limits: opts.limits } : {}),
    ...(opts.scriptEnv ? { scriptEnv: opts.scriptEnv } : {}),
  });
  const events = eventLog();
  const session = manager.openSession(sessionId, {
    projectRoot,
    pythonPath: flavour.pythonPath,
    kernelsDir,
    artifactsDir,
    onEvent: events.listener,
  });
  const opened = { manager, session, events, dataDir, projectRoot, kernelsDir, artifactsDir };
  openSessions.push(opened);
  return opened;
}

const openSessions: TestSession[] = [];

export async function closeTestSessions(): Promise<void> {
  await Promise.all(
    openSessions.splice(0).map(async (s) => {
      await s.manager.shutdownAll();
      await removeDir(s.dataDir);
    }),
  );
}
