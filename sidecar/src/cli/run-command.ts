import path from 'node:path';
import { parseArgs } from 'node:util';
import { resolveDataDir } from '../config/data-dir';
import { type CairnEvent, type Question, SessionMode, type TurnStatus } from '../protocol';
import { EventPrinter } from './event-printer';
import { LocalTurnDriver } from './local-turn-driver';
import { RemoteTurnDriver } from './remote-turn-driver';
import { askApprovalAtTerminal } from './terminal-approval';
import { askAtTerminal, askKernelInputAtTerminal } from './terminal-question';
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
function parseMode(value: string | undefined): SessionMode | null {
  if (value === undefined) return null;
  const parsed = SessionMode.safeParse(value);
  if (!parsed.success) {
    throw new UsageError(`--mode must be ${SessionMode.options.join(' or ')} (got "${value}").`);
  }
  return parsed.data;
}

async function drive(
  driver: TurnDriver,
  mode: { json: boolean; interactive: boolean; workspace: string },
): Promise<number> {
  const printer = new EventPrinter(mode.json, process.stdout, process.stderr, mode.workspace);
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
  const inputPrompts = new Map<string, { kernel: string; execution: string; prompt: AbortController }>();
  try {
    const onQuestion = (question: Question) => {
      if (!mode.interactive) {
        // The event printer has shown the question (an approval with the whole call).
        if (!mode.json) process.stderr.write('No terminal to answer at: cancelling.\n');
        stopFor('question');
        return;
      }
      const prompt = new AbortController();
      prompts.set(question.id, prompt);
      const asked =
        question.kind === 'approval'
          ? askApprovalAtTerminal(question, prompt.signal)
          : askAtTerminal(question, prompt.signal).then((answer) => ({ answer }));
      asked
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
    // A cell's input(): answered here, or left to the kernel's input idle limit, which ends the wait.
    const onInputRequest = (request: Extract<CairnEvent, { type: 'kernel.input_request' }>) => {
      if (!mode.interactive) {
        if (!mode.json)
          process.stderr.write(
            'The cell waits for input that cannot be given here (no terminal): it stops when the ' +
              "kernel's input idle limit runs out (CAIRN_KERNEL_INPUT_TIMEOUT_MS, 300 s by default).\n",
          );
        return;
      }
      const prompt = new AbortController();
      inputPrompts.set(request.request_id, {
        kernel: request.kernel,
        execution: request.execution_id,
        prompt,
      });
      askKernelInputAtTerminal(request.password, prompt.signal)
        .then(
          (value) => driver.replyInput(request.kernel, request.request_id, value),
          () => {
            if (!prompt.signal.aborted) stopFor('sigint');
          },
        )
        .catch((error: unknown) =>
          process.stderr.write(`cairn: the input was not taken: ${describeError(error)}\n`),
        )
        .finally(() => inputPrompts.delete(request.request_id));
    };
    const withdrawInputs = (kernelName: string, executionId: string | null) => {
      for (const { kernel, execution, prompt } of inputPrompts.values()) {
        if (executionId === null ? kernel === kernelName : execution === executionId) prompt.abort();
      }
    };
    await driver.start((event: CairnEvent) => {
      printer.print(event);
      if (event.type === 'question.required') onQuestion(event.question);
      if (event.type === 'question.answered' || event.type === 'question.closed') {
        prompts.get(event.question_id)?.abort();
      }
      if (event.type === 'kernel.input_request') onInputRequest(event);
      // The cell ended (answered elsewhere, interrupted by a limit, or its kernel died): no more waiting.
      if (event.type === 'kernel.result' || event.type === 'kernel.error' || event.type === 'kernel.died') {
        withdrawInputs(event.kernel, event.execution_id);
      }
    });
    const status: TurnStatus = await driver.finished();
    printer.end();
    if (endedBy === 'question') return EXIT.question;
    if (endedBy === 'sigint') return EXIT.interrupted;
    return status === 'completed' ? EXIT.ok : EXIT.failed;
  } finally {
    for (const prompt of prompts.values()) prompt.abort();
    for (const { prompt } of inputPrompts.values()) prompt.abort();
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    await driver.close();
  }
}
