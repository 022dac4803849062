import { parseArgs } from 'node:util';
import { resolveDataDir } from '../config/data-dir';
import type { CairnEvent, Question, TurnStatus } from '../protocol';
import { EventPrinter } from './event-printer';
import { LocalTurnDriver } from './local-turn-driver';
import { RemoteTurnDriver } from './remote-turn-driver';
import { askAtTerminal } from './terminal-question';
import type { TurnDriver } from './turn-driver';
import { describeError, EXIT, UsageError } from './usage';

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
    },
    strict: true,
    allowPositionals: false,
  });
  if (!values.workspace) throw new UsageError('--workspace DIR is required.');
  if (!values.prompt) throw new UsageError('--prompt TEXT is required.');
  const json = values.json;
  const sessionId = values.session ?? null;
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
    });
  } else {
    driver = new LocalTurnDriver({
      dataDir: resolveDataDir(values['data-dir']),
      workspace: values.workspace,
      prompt: values.prompt,
      sessionId,
    });
  }
  return drive(driver, { json, interactive: !json && process.stdin.isTTY === true });
}

async function drive(driver: TurnDriver, mode: { json: boolean; interactive: boolean }): Promise<number> {
  const printer = new EventPrinter(mode.json, process.stdout, process.stderr);
  let endedBy: 'question' | 'sigint' | null = null;
  const stopFor = (reason: 'question' | 'sigint') => {
    if (endedBy) return;
    endedBy = reason;
    // Not from inside the event callback: a journal listener must not start new journal writes.
    setImmediate(() => void driver.cancel().catch(() => undefined));
  };
  const onSigint = () => stopFor('sigint');
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  // Open terminal prompts: withdrawn when their question is settled elsewhere or the turn ends.
  const prompts = new Map<string, AbortController>();
  try {
    const onQuestion = (question: Question) => {
      if (!mode.interactive) {
        if (!mode.json)
          process.stderr.write(
            `The agent asks: ${question.question}\nNo terminal to answer at: cancelling.\n`,
          );
        stopFor('question');
        return;
      }
      const prompt = new AbortController();
      prompts.set(question.id, prompt);
      askAtTerminal(question, prompt.signal)
        .then(
          (answer) => driver.answer(question.id, answer),
          () => {
            if (!prompt.signal.aborted) stopFor('sigint');
          },
        )
        .catch((error: unknown) =>
          process.stderr.write(`cairn: the answer was not taken: ${describeError(error)}\n`),
        )
        .finally(() => prompts.delete(question.id));
    };
    await driver.start((event: CairnEvent) => {
      printer.print(event);
      if (event.type === 'question.required') onQuestion(event.question);
      if (event.type === 'question.answered' || event.type === 'question.closed') {
        prompts.get(event.question_id)?.abort();
      }
    });
    const status: TurnStatus = await driver.finished();
    printer.end();
    if (endedBy === 'question') return EXIT.question;
    if (endedBy === 'sigint') return EXIT.interrupted;
    return status === 'completed' ? EXIT.ok : EXIT.failed;
  } finally {
    for (const prompt of prompts.values()) prompt.abort();
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    await driver.close();
  }
}
