// The Electron main process: wiring only. The logic lives in desktop-host.ts and is tested under
// Node; this file connects it to Electron and to the sidecar supervisor.
import { app, protocol, utilityProcess } from 'electron';
import { trustSystemCertificates } from '../../sidecar/src/config/system-ca';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES } from './app-origin';
import { DesktopHost } from './desktop-host';
import { electronHostAdapter } from './electron-adapter';
import { localSidecarRunner } from './local-sidecar-plan';
import { killProcessTree } from './sidecar/kill-tree';
import { readLoginShellPath } from './sidecar/login-shell-env';
import { nodeForkLauncher } from './sidecar/node-fork-launcher';
import { sidecarBaseEnv } from './sidecar/sidecar-env';
import { SidecarSupervisor } from './sidecar/sidecar-supervisor';
import { utilityProcessLauncher } from './sidecar/utility-process-launcher';

/** A GUI launch has only the system's minimal PATH; read the login shell's once, bounded. */
const LOGIN_SHELL_TIMEOUT_MS = 5000;

// Both must happen before 'ready'.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { ...APP_SCHEME_PRIVILEGES } }]);
app.enableSandbox();

trustSystemCertificates();

const adapter = electronHostAdapter();

let baseEnv: Promise<Record<string, string>> | undefined;
const sidecarBase = (): Promise<Record<string, string>> => {
  // The shell's rc files run with the scrubbed environment: no backend token or Electron variables.
  const scrubbed = sidecarBaseEnv(process.env, { loginPath: null, platform: process.platform });
  baseEnv ??= readLoginShellPath({ timeoutMs: LOGIN_SHELL_TIMEOUT_MS, env: scrubbed }).then((loginPath) =>
    sidecarBaseEnv(process.env, { loginPath, platform: process.platform }),
  );
  return baseEnv;
};

const host = new DesktopHost({
  adapter,
  env: process.env,
  createSupervisor: (paths) => {
    const runner = localSidecarRunner(app.isPackaged, process.env);
    return new SidecarSupervisor({
      launcher:
        runner.kind === 'utility-process'
          ? utilityProcessLauncher(utilityProcess)
          : nodeForkLauncher(runner.nodePath),
      entry: paths.sidecarEntry,
      dataDir: paths.dataDir,
      env: sidecarBase,
      execArgv: [],
      diagnostics: {
        dir: paths.diagnosticsDir,
        appVersion: app.getVersion(),
        versions: { ...process.versions },
      },
      killTree: (pid) => killProcessTree(pid),
    });
  },
});

host.run().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  adapter.showError('Cairn cannot start', message);
  app.exit(1);
});
