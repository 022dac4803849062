// The Electron main process: wiring only. The logic lives in desktop-host.ts and is tested under
// Node; this file connects it to Electron and to the sidecar supervisor.
import { app, protocol, utilityProcess } from 'electron';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES } from './app-origin';
import { DesktopHost } from './desktop-host';
import { electronHostAdapter } from './electron-adapter';
import { localSidecarPlan } from './local-sidecar-plan';
import { killProcessTree } from './sidecar/kill-tree';
import { readLoginShellPath } from './sidecar/login-shell-env';
import { nodeForkLauncher } from './sidecar/node-fork-launcher';
import { sidecarBaseEnv, sidecarExecArgv } from './sidecar/sidecar-env';
import { SidecarSupervisor } from './sidecar/sidecar-supervisor';
import { utilityProcessLauncher } from './sidecar/utility-process-launcher';
import { trustSystemCertificates } from './system-ca';

/** A GUI launch has only the system's minimal PATH; read the login shell's once, bounded. */
const LOGIN_SHELL_TIMEOUT_MS = 5000;

// Both must happen before 'ready'.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { ...APP_SCHEME_PRIVILEGES } }]);
app.enableSandbox();

trustSystemCertificates();

const adapter = electronHostAdapter();

let baseEnv: Promise<Record<string, string>> | undefined;
const sidecarBase = (): Promise<Record<string, string>> => {
  baseEnv ??= readLoginShellPath({ timeoutMs: LOGIN_SHELL_TIMEOUT_MS }).then((loginPath) =>
    sidecarBaseEnv(process.env, { loginPath, platform: process.platform }),
  );
  return baseEnv;
};

const host = new DesktopHost({
  adapter,
  env: process.env,
  createSupervisor: (paths) => {
    const plan = localSidecarPlan(app.isPackaged, process.env, sidecarExecArgv, process.versions.node);
    return new SidecarSupervisor({
      launcher:
        plan.runner.kind === 'utility-process'
          ? utilityProcessLauncher(utilityProcess)
          : nodeForkLauncher(plan.runner.nodePath),
      entry: paths.sidecarEntry,
      dataDir: paths.dataDir,
      env: sidecarBase,
      execArgv: plan.execArgv,
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
