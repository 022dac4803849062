import * as z from 'zod/mini';
import { trustSystemCertificates } from '../config/system-ca';

/**
 * Process-wide settings every `cairn` command runs with, the same under plain Node and inside
 * Electron's utility process (the desktop app's sidecar), where the defaults differ.
 */
export function prepareProcess(proc: NodeJS.Process = process): void {
  trustSystemCertificates();
  // The wire schemas are zod/mini, which brings no messages of its own: without this a command that loads
  // no classic zod would say only "Invalid input" where it should say what was expected.
  z.config(z.locales.en());
  // Cairn logs through its logger; a library's console.debug chatter (@jupyterlab/services announces every
  // socket and kernel status) would land in `cairn run`'s output and the desktop host's diagnostics.
  if (proc.env.CAIRN_LOG_LEVEL !== 'debug') console.debug = () => {};
  // Electron's utility processes only warn on an unhandled rejection, where Node crashes: crash in
  // both, so the desktop host restarts a sidecar in an unknown state instead of it carrying on.
  if (proc.listenerCount('unhandledRejection') === 0) {
    proc.on('unhandledRejection', (reason) => {
      throw reason;
    });
  }
}
