import path from 'node:path';
import { parseArgs } from 'node:util';
import { resolveDataDir } from '../config/data-dir';
import { SessionMode } from '../protocol';
import { LocalTurnDriver } from './local-turn-driver';
import { RemoteTurnDriver } from './remote-turn-driver';
import type { TurnDriver } from './turn-driver';
import { TurnRun, type TurnRunOptions } from './turn-run';
import { EXIT, UsageError } from './usage';

export async function runCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      workspace: { type: 'string' },
      prompt: { type: 'string' },
      json: { type: 'boolean', default: false },
      session: { type: 'string' },
      'data-dir': { type: 'string' },
      server: { type: 'string' },
      mode: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (!values.workspace) throw new UsageError('--workspace DIR is required.');
  if (!values.prompt) throw new UsageError('--prompt TEXT is required.');
  const json = values.json;
  const sessionId = values.session ?? null;
  const mode = parseMode(values.mode);
  const notice = (text: string) => process.stderr.write(`cairn: ${text}\n`);
  let driver: TurnDriver;
  if (values.server) {
    const token = process.env.CAIRN_TOKEN;
    if (!token) throw new UsageError('--server needs the server token in CAIRN_TOKEN.');
    if (!/^https?:\/\//.test(values.server)) throw new UsageError('--server must be an http(s) URL.');
    driver = new RemoteTurnDriver({
      serverUrl: values.server,
      token,
      workspace: values.workspace,
      prompt: values.prompt,
      sessionId,
      mode,
      notice,
    });
  } else {
    driver = new LocalTurnDriver({
      dataDir: resolveDataDir(values['data-dir']),
      workspace: values.workspace,
      prompt: values.prompt,
      sessionId,
      mode,
      notice,
    });
  }
  return drive(driver, {
    json,
    interactive: !json && process.stdin.isTTY === true,
    workspace: path.resolve(values.workspace),
  });
}

/** --mode: tools (the model calls tools) or code (it writes Python that runs in the session's kernel). */
export function parseMode(value: string | undefined): SessionMode | null {
  if (value === undefined) return null;
  const parsed = SessionMode.safeParse(value);
  if (!parsed.success) {
    throw new UsageError(`--mode must be ${SessionMode.options.join(' or ')} (got "${value}").`);
  }
  return parsed.data;
}

async function drive(driver: TurnDriver, options: TurnRunOptions): Promise<number> {
  const turn = new TurnRun(driver, options);
  const onSigint = () => turn.stop('sigint');
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  try {
    const status = await turn.run();
    if (turn.endedBy === 'question') return EXIT.question;
    if (turn.endedBy === 'sigint') return EXIT.interrupted;
    return status === 'completed' ? EXIT.ok : EXIT.failed;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
}
