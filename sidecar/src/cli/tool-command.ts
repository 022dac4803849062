import { parseArgs } from 'node:util';
import { scriptTarget, sendScriptRequest, ToolRuntimeError } from './script-client';
import { EXIT, UsageError } from './usage';

/**
 * `cairn tool call NAME --json ARGS|- [--no-wait] [--method M] [--union-id U]`, `cairn tool status|cancel
 * CALL_ID`, `cairn tool output CALL_ID [--after N]`: a shell script's way to Cairn's tools, with the
 * endpoint and token Cairn gave the command it runs in. Prints the reply as JSON; exit 0 for any reply
 * (a failed call has "is_error": true), 1 when the runtime cannot be reached or refuses the token.
 */
export async function toolCommand(
  args: string[],
  out: NodeJS.WritableStream = process.stdout,
): Promise<number> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      json: { type: 'string' },
      'no-wait': { type: 'boolean', default: false },
      method: { type: 'string' },
      'union-id': { type: 'string' },
      after: { type: 'string' },
    },
    strict: true,
    allowPositionals: true,
  });
  const [subject, ...extra] = positionals;
  if (!subject || extra.length > 0)
    throw new UsageError(`cairn tool ${action ?? ''}: give one name or call id.`);
  let op: 'call' | 'status' | 'cancel' | 'output';
  let body: Record<string, unknown>;
  switch (action) {
    case 'call':
      op = 'call';
      body = {
        name: subject,
        // `--json -` reads the arguments from standard input (large or awkward to quote).
        arguments: parseJsonArgs(values.json === '-' ? await readStdin() : values.json),
        ...(values.method !== undefined ? { method: values.method } : {}),
        ...(values['union-id'] !== undefined ? { union_id: values['union-id'] } : {}),
        is_wait: !values['no-wait'],
      };
      break;
    case 'status':
    case 'cancel':
      op = action;
      body = { call_id: subject };
      break;
    case 'output': {
      op = 'output';
      const after = values.after === undefined ? undefined : Number(values.after);
      if (after !== undefined && !Number.isInteger(after))
        throw new UsageError('--after takes a piece number.');
      body = { call_id: subject, ...(after !== undefined ? { after } : {}) };
      break;
    }
    default:
      throw new UsageError(
        'cairn tool call NAME --json ARGS|- [--no-wait] | status CALL_ID | cancel CALL_ID | output CALL_ID [--after N].',
      );
  }
  try {
    const reply = await sendScriptRequest(scriptTarget(process.env), op, body);
    out.write(`${JSON.stringify(reply)}\n`);
    return EXIT.ok;
  } catch (error) {
    if (!(error instanceof ToolRuntimeError)) throw error;
    process.stderr.write(`cairn: ${error.message}\n`);
    return EXIT.failed;
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJsonArgs(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`--json must be a JSON object: ${text.slice(0, 80)}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError("--json must be a JSON object of the tool's arguments.");
  }
  return value as Record<string, unknown>;
}
