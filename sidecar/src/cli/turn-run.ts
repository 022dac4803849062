import type { CairnEvent, Question, TurnStatus } from '../protocol';
import { EventPrinter } from './event-printer';
import { askApprovalAtTerminal } from './terminal-approval';
import { askElicitationAtTerminal } from './terminal-elicitation';
import { askAtTerminal, askKernelInputAtTerminal } from './terminal-question';
import type { TurnDriver } from './turn-driver';
import { describeError } from './usage';

export interface TurnRunOptions {
  /** One JSON event a line instead of readable text. */
  json: boolean;
  /** Whether questions and a cell's input() can be answered at this terminal. */
  interactive: boolean;
  /** The project folder (the printer shows full paths of files a call asks to write). */
  workspace: string;
}

/** Why a turn was stopped from here: a question nobody can answer here, or the user's Ctrl+C. */
export type StopReason = 'question' | 'sigint';

/**
 * One turn at the terminal, for `cairn run` and each line of `cairn chat`: prints its events, asks its
 * questions, approvals and cells' input() at the prompt, and cancels it on stop().
 */
export class TurnRun {
  private reason: StopReason | null = null;
  private readonly printer: EventPrinter;
  // Open terminal prompts: withdrawn when their question is settled elsewhere or the turn ends.
  private readonly prompts = new Map<string, AbortController>();
  private readonly inputPrompts = new Map<
    string,
    { kernel: string; execution: string; prompt: AbortController }
  >();

  constructor(
    private readonly driver: TurnDriver,
    private readonly options: TurnRunOptions,
  ) {
    this.printer = new EventPrinter(options.json, process.stdout, process.stderr, options.workspace);
  }

  /** What stopped the turn from here, if anything did. */
  get endedBy(): StopReason | null {
    return this.reason;
  }

  /** Cancels the turn (once; a later call changes nothing). */
  stop(reason: StopReason): void {
    if (this.reason) return;
    this.reason = reason;
    // Not from inside the event callback: a journal listener must not start new journal writes.
    setImmediate(() => void this.driver.cancel().catch(() => undefined));
  }

  /** Runs the turn to its end; `onStarted` hears its session once it is submitted. Closes the driver. */
  async run(onStarted: (sessionId: string) => void = () => undefined): Promise<TurnStatus> {
    try {
      const { sessionId } = await this.driver.start((event) => this.onEvent(event));
      onStarted(sessionId);
      const status = await this.driver.finished();
      this.printer.end();
      return status;
    } finally {
      for (const prompt of this.prompts.values()) prompt.abort();
      for (const { prompt } of this.inputPrompts.values()) prompt.abort();
      await this.driver.close();
    }
  }

  private onEvent(event: CairnEvent): void {
    this.printer.print(event);
    if (event.type === 'question.required') this.onQuestion(event.question);
    if (event.type === 'question.answered' || event.type === 'question.closed') {
      this.prompts.get(event.question_id)?.abort();
    }
    if (event.type === 'kernel.input_request') this.onInputRequest(event);
    // The cell ended (answered elsewhere, interrupted by a limit, or its kernel died): no more waiting.
    if (event.type === 'kernel.result' || event.type === 'kernel.error' || event.type === 'kernel.died') {
      for (const { kernel, execution, prompt } of this.inputPrompts.values()) {
        if (event.execution_id === null ? kernel === event.kernel : execution === event.execution_id)
          prompt.abort();
      }
    }
  }

  private onQuestion(question: Question): void {
    if (!this.options.interactive) {
      // The event printer has shown the question (an approval with the whole call).
      if (!this.options.json) process.stderr.write('No terminal to answer at: cancelling.\n');
      this.stop('question');
      return;
    }
    const prompt = new AbortController();
    this.prompts.set(question.id, prompt);
    const asked =
      question.kind === 'approval'
        ? askApprovalAtTerminal(question, prompt.signal)
        : question.kind === 'elicitation'
          ? askElicitationAtTerminal(question, prompt.signal)
          : askAtTerminal(question, prompt.signal).then((answer) => ({ answer }));
    asked
      .then(
        (answer) => this.driver.answer(question.id, answer),
        () => {
          // Ctrl+C at the prompt closes it: that cancels the turn.
          if (!prompt.signal.aborted) this.stop('sigint');
        },
      )
      .catch((error: unknown) =>
        process.stderr.write(`cairn: the answer was not taken: ${describeError(error)}\n`),
      )
      .finally(() => this.prompts.delete(question.id));
  }

  /** A cell's input(): answered here, or left to the kernel's input idle limit, which ends the wait. */
  private onInputRequest(request: Extract<CairnEvent, { type: 'kernel.input_request' }>): void {
    if (!this.options.interactive) {
      if (!this.options.json)
        process.stderr.write(
          'The cell waits for input that cannot be given here (no terminal): it stops when the ' +
            "kernel's input idle limit runs out (CAIRN_KERNEL_INPUT_TIMEOUT_MS, 300 s by default).\n",
        );
      return;
    }
    const prompt = new AbortController();
    this.inputPrompts.set(request.request_id, {
      kernel: request.kernel,
      execution: request.execution_id,
      prompt,
    });
    askKernelInputAtTerminal(request.password, prompt.signal)
      .then(
        (value) => this.driver.replyInput(request.kernel, request.request_id, value),
        () => {
          if (!prompt.signal.aborted) this.stop('sigint');
        },
      )
      .catch((error: unknown) =>
        process.stderr.write(`cairn: the input was not taken: ${describeError(error)}\n`),
      )
      .finally(() => this.inputPrompts.delete(request.request_id));
  }
}
