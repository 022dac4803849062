import { VERSION } from '../config/version';
import { CairnError } from '../errors';
import { prepareProcess } from './process-setup';
import type { HttpFrontDoor } from './serve-command';
import { describeError, EXIT, USAGE, UsageError } from './usage';

/** What the command line opens besides itself: the HTTP server of `cairn serve`. */
export interface FrontDoors {
  http: HttpFrontDoor;
}

/**
 * The `cairn` command line; returns the exit code. Each command is loaded when it runs: `cairn tool`,
 * which scripts run once per tool call, starts without loading the agent, the server or the database.
 */
export async function main(argv: string[], doors: FrontDoors): Promise<number> {
  const [command, ...rest] = argv;
  prepareProcess();
  try {
    switch (command) {
      case 'serve':
        return await (await import('./serve-command')).serveCommand(rest, doors.http);
      case 'run':
        return await (await import('./run-command')).runCommand(rest);
      case 'config':
        return await (await import('./config-command')).configCommand(rest, doors.http);
      case 'chat':
        return await (await import('./chat-command')).chatCommand(rest, doors.http);
      case 'projects':
      case 'sessions':
        return await (await import('./list-command')).listCommand(command, rest, doors.http);
      case 'search':
        return await (await import('./search-command')).searchCommand(rest, doors.http);
      case 'export':
        return await (await import('./export-command')).exportCommand(rest, doors.http);
      case 'tool':
        return await (await import('./tool-command')).toolCommand(rest);
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
