import { main as runCommandLine } from './cli/main';
import type { RunningServer } from './server/start-server';
import { loadTlsCredentials } from './server/tls-options';

/**
 * The `cairn` program: the command line, given the HTTP server as the front door `cairn serve` opens. The
 * two front doors know nothing of each other; this entry is the one place that joins them. The server is
 * loaded only when `cairn serve` starts it.
 */
export function main(argv: string[]): Promise<number> {
  const start = async (
    ...args: Parameters<typeof import('./server/start-server').startServer>
  ): Promise<RunningServer> => (await import('./server/start-server')).startServer(...args);
  return runCommandLine(argv, { http: { start, loadTls: loadTlsCredentials } });
}
