import type Anthropic from '@anthropic-ai/sdk';
import { CairnError } from '../../errors';
import type { ContentBlock } from '../../protocol';
import type { Store } from '../../store/store';
import type { ModelStep, Outcome, ResponseStrategy } from '../response-strategy';
import { noticeBlocks, type TurnSetup } from '../turn-runner';
import { cellRecord } from './cell-observation';
import { extractCode } from './code-block';
import { codeModeTools } from './code-prompt';
import { repairFinalAnswer } from './final-answer-repair';
import type { FinalAnswers } from './final-answers';
import { formatObservation } from './observation';
import { pythonFunctions } from './python-functions';
import type { ParsesPython } from './python-syntax';

/** The stop sequence that ends a code block: the reply stops where the code does. */
export const CLOSE_TAG = '</code>';

/** Runs the prelude in the session's default kernel, outside any tool call; says whether it ran. */
export type PreludeRunner = (
  sessionId: string,
  turnId: string,
  code: string,
  signal: AbortSignal,
) => Promise<{ ok: boolean; message: string }>;

export interface CodeTurnDeps {
  store: Store;
  answers: FinalAnswers;
  runPrelude: PreludeRunner;
  parses: ParsesPython;
  maxSteps: number;
}

/**
 * A code-mode turn: each reply's code block runs in the session's default kernel as the agent's
 * execute_code cell (so approvals and rules apply to it and its tool functions call back with a token),
 * its output goes back as the next observation, and `final_answer(...)` ends the turn.
 */
export class CodeTurn implements ResponseStrategy {
  readonly stopSequences = [CLOSE_TAG];
  private steps = 0;
  /** The prelude the kernel has from this turn: run again when the tools changed or the state was lost. */
  private installed: string | null = null;
  /** The first message after the last observation: where the reply being handled began. */
  private since: number | null = null;

  constructor(private readonly deps: CodeTurnDeps) {}

  toolDefinitions(): Anthropic.Tool[] {
    return [];
  }

  async handle({
    setup,
    response,
    content,
    message,
    saveAssistant,
  }: ModelStep): Promise<'continue' | Outcome> {
    this.steps += 1;
    const reply = this.replyText(setup, message.id, content);
    const extracted = await extractCode(reply, {
      stoppedAtCloseTag: response.stop_reason === 'stop_sequence' && response.stop_sequence === CLOSE_TAG,
      parses: this.deps.parses,
    });
    if (extracted.kind === 'none') return this.next(setup, extracted.error);
    const code = repairFinalAnswer(extracted.code);
    await this.ensurePrelude(setup);
    const { store } = this.deps;
    const since = store.events.lastSeq(setup.sessionId);
    const outcome = await setup.tools.runForModel(
      { id: `codestep_${message.id}`, name: 'execute_code', input: { code } },
      setup.signal,
    );
    if (setup.signal.aborted) return { status: 'cancelled' };
    const cell = cellRecord(outcome, store.events.after(setup.sessionId, since, 100_000, 'kernel.'));
    if (cell?.stateLost) this.installed = null;
    const error = cell?.observation.error;
    // An answer the FinalAnswer call could not record still arrives on the exception it raised.
    const answer =
      this.deps.answers.take(setup.turnId) ?? (error?.type === 'FinalAnswer' ? error.message : null);
    if (answer !== null) {
      store.transaction(() => {
        saveAssistant([{ type: 'text', text: answer }], 'end_turn');
        store.turns.setAnswer(setup.turnId, answer);
      });
      return { status: 'completed' };
    }
    // A NameError may mean the user reset the kernel under the turn: define the functions again.
    if (error?.type === 'NameError') this.installed = null;
    // No cell ran (denied, refused): the call's own text says why.
    return this.next(setup, cell ? formatObservation(cell.observation) : outcome.content);
  }

  /**
   * The reply's text. One cut by the output limit was saved in parts, with Cairn's "continue" between
   * them: its code began in an earlier part, so the parts since the last observation are read as one.
   */
  private replyText(setup: TurnSetup, messageId: number, content: ContentBlock[]): string {
    const text = (blocks: ContentBlock[]) =>
      blocks.flatMap((b) => (b.type === 'text' ? [String(b.text)] : [])).join('');
    const parts = this.deps.store.messages
      .range(setup.sessionId, this.since, messageId - 1)
      .filter((m) => m.turn_id === setup.turnId && m.role === 'assistant');
    return parts.map((m) => text(m.content)).join('') + text(content);
  }

  /**
   * The observation (or the corrective error) as the next user message, which the user's view hides; then
   * the next request, unless the turn has used its steps. Saved first, so a follow-up prompt continues
   * from a whole history.
   */
  private next(setup: TurnSetup, text: string): 'continue' {
    const observation = this.deps.store.messages.append({
      sessionId: setup.sessionId,
      turnId: setup.turnId,
      role: 'user',
      // A background call that ended meanwhile is told here too, as the tool loop tells it.
      content: [{ type: 'text', text }, ...noticeBlocks(setup.tools)],
      internal: true,
    });
    this.since = observation.id + 1;
    if (this.steps >= this.deps.maxSteps) {
      throw new CairnError(
        'step_limit',
        `The turn used its ${this.deps.maxSteps} code steps without calling final_answer, so it was stopped. ` +
          'Send a follow-up prompt to let it continue from here, or raise CAIRN_CODE_MAX_STEPS.',
      );
    }
    return 'continue';
  }

  /**
   * Defines the tool functions in the kernel as a cell of its own before the model's code, so the model's
   * cell is its code alone. Once per turn, and again when the tools changed or the kernel lost its state.
   */
  private async ensurePrelude(setup: TurnSetup): Promise<void> {
    const { prelude } = pythonFunctions(codeModeTools(setup.tools.modelTools()));
    if (this.installed === prelude) return;
    const ran = await this.deps.runPrelude(setup.sessionId, setup.turnId, prelude, setup.signal);
    if (!ran.ok) {
      throw new CairnError(
        'kernel_start_failed',
        `Code mode could not define your tools as functions in the kernel: ${ran.message}`,
      );
    }
    this.installed = prelude;
  }
}
