import { type ChildProcess, spawn } from 'node:child_process';
import { type SandboxSpec, sandboxCommand } from '../process/sandbox';
import { defaultDriverPath } from './driver-path';

/** How to run an interpreter: `{command: '/usr/bin/python3', args: []}` or `{command: 'py', args: ['-3']}`. */
export interface PythonCommand {
  command: string;
  args: readonly string[];
}

export interface DriverSpawnOptions {
  python: PythonCommand;
  cwd: string;
  /** The environment without Cairn's secrets (tools/child-env's childEnv()); the PYTHON* settings are added. */
  env: NodeJS.ProcessEnv;
  driverPath?: string;
  /** false passes --no-ipython (the stdlib driver even where IPython is importable). */
  ipython?: boolean;
  /** Runs the driver in this sandbox (its project's); throws sandbox_unavailable when it cannot run. */
  sandbox?: SandboxSpec | null;
}

/** A started driver, and whether its process group's leader is the sandbox's monitor (bwrap), not Python. */
export interface SpawnedDriver {
  child: ChildProcess;
  leaderIsMonitor: boolean;
}

/**
 * Starts the driver in a process group of its own (SIGINT to the group interrupts the cell, a kill reaches
 * the cell's children) with its channel on stdin/stdout; resolves once it runs, throws when it cannot start.
 */
export async function spawnDriver(opts: DriverSpawnOptions): Promise<SpawnedDriver> {
  const driver = opts.driverPath ?? defaultDriverPath();
  const args = [
    ...opts.python.args,
    '-u',
    '-X',
    'utf8',
    driver,
    ...(opts.ipython === false ? ['--no-ipython'] : []),
  ];
  const command = sandboxCommand(opts.sandbox, opts.python.command, args, opts.cwd);
  const child = spawn(command.file, command.args, {
    cwd: opts.cwd,
    env: { ...opts.env, PYTHONUNBUFFERED: '1', MPLBACKEND: 'Agg', PYTHONIOENCODING: 'utf-8' },
    detached: process.platform !== 'win32',
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  const spawned = await new Promise<Error | null>((resolve) => {
    child.once('spawn', () => resolve(null));
    child.once('error', (err) => resolve(err));
  });
  if (spawned) {
    throw new Error(`Could not start the Python kernel with ${opts.python.command}: ${spawned.message}`, {
      cause: spawned,
    });
  }
  return { child, leaderIsMonitor: command.leaderIsMonitor };
}
