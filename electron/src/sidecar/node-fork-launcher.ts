import { type ChildProcess, fork } from 'node:child_process';
import type { SidecarChild, SidecarLauncher, SidecarProcessSpec } from './sidecar-launcher';

/** How long an exit waits for the child's pipes to drain, so the output tail holds its last words. */
const DRAIN_MS = 250;

/**
 * Runs the sidecar with a plain Node binary over child_process.fork. Used when Electron runs
 * unpackaged (the native modules in node_modules are built for Node, not Electron) and in tests.
 */
export function nodeForkLauncher(nodePath: string): SidecarLauncher {
  return {
    launch(spec: SidecarProcessSpec): SidecarChild {
      const child = fork(spec.entry, spec.args, {
        execPath: nodePath,
        // Explicit, so the host's own flags (a test runner's loaders, inspector ports) never leak in.
        execArgv: spec.execArgv,
        env: spec.env,
        cwd: spec.cwd,
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        serialization: 'json',
      });
      return wrapForkedChild(child);
    },
  };
}

function wrapForkedChild(child: ChildProcess): SidecarChild {
  const outputListeners: ((chunk: string, stream: 'stdout' | 'stderr') => void)[] = [];
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    for (const listener of outputListeners) listener(chunk, 'stdout');
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    for (const listener of outputListeners) listener(chunk, 'stderr');
  });

  const exitListeners: ((code: number | null) => void)[] = [];
  let exited = false;
  const emitExit = (code: number | null) => {
    if (exited) return;
    exited = true;
    for (const listener of exitListeners) listener(code);
  };

  child.on('exit', (code) => {
    // 'close' would wait for every holder of the pipes, and a grandchild that inherited stdout could
    // hold them forever; so wait for the pipes only briefly.
    const pipes = [child.stdout, child.stderr].filter(
      (stream): stream is NonNullable<typeof stream> => stream !== null && !stream.closed,
    );
    if (pipes.length === 0) return emitExit(code);
    const timer = setTimeout(() => emitExit(code), DRAIN_MS);
    let open = pipes.length;
    for (const pipe of pipes) {
      pipe.once('close', () => {
        open -= 1;
        if (open === 0) {
          clearTimeout(timer);
          emitExit(code);
        }
      });
    }
  });
  // A failed spawn (missing Node binary, bad cwd) reports only 'error'; a later 'error' from a send on
  // a closed channel must not end anything.
  child.on('error', (error) => {
    if (child.pid === undefined) {
      const line = `cairn host: could not start the sidecar: ${error.message}\n`;
      for (const listener of outputListeners) listener(line, 'stderr');
      emitExit(null);
    }
  });

  return {
    get pid() {
      return child.pid;
    },
    onMessage(listener) {
      child.on('message', (message: unknown) => listener(message));
    },
    onOutput(listener) {
      outputListeners.push(listener);
    },
    onExit(listener) {
      exitListeners.push(listener);
    },
    postMessage(message) {
      if (!child.connected) return;
      // The callback swallows the error of a channel that closed meanwhile (the child is exiting).
      child.send(message as object, (error) => {
        void error;
      });
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
