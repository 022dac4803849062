import { VERSION } from '../config/version';
import { CairnError } from '../errors';
import { configCommand } from './config-command';
import { prepareProcess } from './process-setup';
import { runCommand } from './run-command';
import { type HttpFrontDoor, serveCommand } from './serve-command';
import { describeError, EXIT, USAGE, UsageError } from './usage';

/** What the command line opens besides itself: the HTTP server of `cairn serve`. */
export interface FrontDoors {
  http: HttpFrontDoor;
}

/** The `cairn` command line; returns the exit code. */
export async function main(argv: string[], doors: FrontDoors): Promise<number> {
  const [command, ...rest] = argv;
  prepareProcess();
  try {
    switch (command) {
      case 'serve':
        return await serveCommand(rest, doors.http);
      case 'run':
        return await runCommand(rest);
      case 'config':
        return await configCommand(rest);
      case '--version':
      case '-v':
        process.stdout.write(`cairn ${VERSION}\n`);
        return EXIT.ok;
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(`${USAGE}\n`);
        return command === undefined ? EXIT.usage : EXIT.ok;
      default:
        throw new UsageError(`Unknown command "${command}".`);
    }
  } catch (error) {
    if (error instanceof UsageError || isParseArgsError(error)) {
      process.stderr.write(`cairn: ${describeError(error)}\n\n${USAGE}\n`);
      return EXIT.usage;
    }
    process.stderr.write(`cairn: ${describeError(error)}\n`);
    if (!(error instanceof CairnError) && error instanceof Error && process.env.CAIRN_DEBUG) {
      process.stderr.write(`${error.stack}\n`);
    }
    return EXIT.failed;
  }
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}
