import { parseArgs } from 'node:util';
import { resolveDataDir } from '../config/data-dir';
import { isLoopbackHost } from '../server/loopback';
import { startServer } from '../server/start-server';
import { EXIT, parseIntFlag, UsageError } from './usage';

const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'];

export async function serveCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8765' },
      'data-dir': { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const host = values.host;
  if (!isLoopbackHost(host)) {
    throw new UsageError(
      `Binding ${host} would expose Cairn beyond this machine, which needs TLS; this version serves loopback only (127.0.0.1, ::1, localhost).`,
    );
  }
  const port = parseIntFlag('port', values.port) ?? 8765;
  if (port > 65535) throw new UsageError('--port must be between 0 and 65535.');
  const running = await startServer({ dataDir: resolveDataDir(values['data-dir']), host, port });

  const stopped = new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      // A second signal (a terminal and a wrapper both sending one) must not cut the shutdown short.
      if (stopping) return;
      stopping = true;
      process.stderr.write(`\n${signal}: stopping Cairn…\n`);
      running.stop().then(
        () => resolve(EXIT.ok),
        (error: unknown) => {
          process.stderr.write(`cairn: stopping failed: ${String(error)}\n`);
          resolve(EXIT.failed);
        },
      );
    };
    // SIGHUP: the terminal closed; SIGBREAK: Ctrl+Break on Windows, which has no SIGTERM.
    for (const signal of STOP_SIGNALS) process.on(signal, () => stop(signal));
  });
  // Only now: whoever waits for this line may signal at once, and must find the handlers in place.
  process.stdout.write(`Cairn ${running.url} is ready. Open in a browser:\n${running.browserUrl}\n`);
  return stopped;
}
