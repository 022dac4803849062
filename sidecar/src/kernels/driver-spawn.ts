import { type ChildProcess, spawn } from 'node:child_process';
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
}

/**
 * Starts the driver in a process group of its own (SIGINT to the group interrupts the cell, a kill reaches
 * the cell's children) with its channel on stdin/stdout; resolves once it runs, throws when it cannot start.
 */
export async function spawnDriver(opts: DriverSpawnOptions): Promise<ChildProcess> {
  const driver = opts.driverPath ?? defaultDriverPath();
  const args = [
    ...opts.python.args,
    '-u',
    '-X',
    'utf8',
    driver,
    ...(opts.ipython === false ? ['--no-ipython'] : []),
  ];
  const child = spawn(opts.python.command, args, {
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
  return child;
}
