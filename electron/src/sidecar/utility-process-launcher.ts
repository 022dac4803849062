// The one Electron-specific launcher. Electron cannot load under Node, so this file is only
// type-checked; everything it does is a direct call into utilityProcess, with no logic to test.
import type { utilityProcess as UtilityProcessModule } from 'electron';
import type { SidecarChild, SidecarLauncher, SidecarProcessSpec } from './sidecar-launcher';

/**
 * Runs the sidecar as an Electron utility process: Electron's own Node, which works with the
 * RunAsNode fuse off and loads native modules rebuilt for Electron. Messages travel over the
 * child's parentPort.
 */
export function utilityProcessLauncher(utilityProcess: typeof UtilityProcessModule): SidecarLauncher {
  return {
    launch(spec: SidecarProcessSpec): SidecarChild {
      const child = utilityProcess.fork(spec.entry, spec.args, {
        env: spec.env,
        execArgv: spec.execArgv,
        cwd: spec.cwd,
        stdio: 'pipe',
        serviceName: 'Cairn sidecar',
      });
      let exited = false;
      child.once('exit', () => {
        exited = true;
      });
      const outputListeners: ((chunk: string, stream: 'stdout' | 'stderr') => void)[] = [];
      child.stdout?.setEncoding('utf8');
      child.stderr?.setEncoding('utf8');
      child.stdout?.on('data', (chunk: string | Buffer) => {
        for (const listener of outputListeners) listener(String(chunk), 'stdout');
      });
      child.stderr?.on('data', (chunk: string | Buffer) => {
        for (const listener of outputListeners) listener(String(chunk), 'stderr');
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
          child.once('exit', (code: number) => listener(code));
        },
        postMessage(message) {
          if (!exited) child.postMessage(message);
        },
        kill() {
          if (!exited) child.kill();
        },
      };
    },
  };
}
