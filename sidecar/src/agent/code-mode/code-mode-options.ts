import { CairnError } from '../../errors';
import type { Store } from '../../store/store';
import type { SessionToolRuntime } from '../../tools/runtime/session-tool-runtime';
import { codeModeSection, codeModeTools } from './code-prompt';
import { CodeTurn, type PreludeRunner } from './code-turn';
import type { FinalAnswers } from './final-answers';
import { pythonFunctions } from './python-functions';
import { pythonParses } from './python-syntax';

/** What the composition root gives code mode: where answers go, the kernel and the project's Python. */
export interface CodeModeOptions {
  answers: FinalAnswers;
  runPrelude: PreludeRunner;
  /** Steps (model replies) a turn may take before it fails with `step_limit`. */
  maxSteps: number;
}

/**
 * A code-mode turn's system prompt (the usual one plus how to answer and the tools as functions) and its
 * strategy. Code mode needs the session's project kernels: without them the turn fails saying so.
 */
export async function prepareCodeTurn(
  options: CodeModeOptions | undefined,
  input: {
    store: Store;
    tools: SessionToolRuntime;
    turnId: string;
    projectRoot: string | null;
    systemPrompt: string;
  },
): Promise<{ systemPrompt: string; strategy: CodeTurn }> {
  const tools = input.tools.modelTools();
  if (!options || input.projectRoot === null || !tools.some((t) => t.name === 'execute_code')) {
    throw new CairnError(
      'bad_request',
      'Code mode runs the model’s code in the project’s Python kernel, and this session has none. ' +
        'Use a session in a project (not conversation-only), or switch the session to tools mode.',
    );
  }
  if (input.store.sessions.get(input.tools.sessionId)?.approval === 'read_only') {
    throw new CairnError(
      'bad_request',
      'Code mode runs the model’s code, and this session is read-only, which refuses it. Switch the approval ' +
        'mode (ask, auto_edits or auto), or switch the session to tools mode.',
    );
  }
  const { signatures } = pythonFunctions(codeModeTools(tools));
  options.answers.open(input.turnId);
  return {
    systemPrompt: `${input.systemPrompt}\n\n${codeModeSection(signatures)}`,
    strategy: new CodeTurn({
      store: input.store,
      answers: options.answers,
      runPrelude: options.runPrelude,
      parses: pythonParses(),
      maxSteps: options.maxSteps,
    }),
  };
}
