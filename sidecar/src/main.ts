import { main as runCommandLine } from './cli/main';
import { startServer } from './server/start-server';
import { loadTlsCredentials } from './server/tls-options';

/**
 * The `cairn` program: the command line, given the HTTP server as the front door `cairn serve` opens. The
 * two front doors know nothing of each other; this entry is the one place that joins them.
 */
export function main(argv: string[]): Promise<number> {
  return runCommandLine(argv, { http: { start: startServer, loadTls: loadTlsCredentials } });
}
