import { z } from 'zod';
import { defineTool, type Tool } from '../../tools/tool';
import type { FinalAnswers } from './final-answers';
import { FINAL_ANSWER_TOOL } from './python-prelude';

const inputSchema = z.object({ answer: z.string().describe('The final answer, as text.') });

/**
 * What the kernel's `final_answer(x)` calls before it raises FinalAnswer: records the answer for the
 * call's turn, which the code loop ends with. Script-only (the model writes `final_answer`, never calls
 * this by name) and without side effects, so no approval stands between the model and its answer.
 */
export function finalAnswerTool(answers: FinalAnswers): Tool<typeof inputSchema> {
  return defineTool({
    name: FINAL_ANSWER_TOOL,
    description: 'Records the final answer of a code-mode turn (called by final_answer).',
    inputSchema,
    sideEffects: false,
    needsProject: false,
    scriptOnly: true,
    async execute(input, ctx) {
      if (!answers.record(ctx.turnId, input.answer)) {
        return { content: 'final_answer ends a turn only in a code-mode session.', isError: true };
      }
      return { content: 'Answer recorded.' };
    },
  });
}
