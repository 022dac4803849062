import { z } from 'zod';
import { defineTool } from '../tool';

const inputSchema = z.object({
  question: z.string().min(1).describe('The question for the user, clear on its own.'),
  options: z
    .array(z.string().min(1))
    .optional()
    .describe('Suggested answers to pick from; the user may still answer in their own words.'),
});

export const askUserQuestionTool = defineTool({
  name: 'AskUserQuestion',
  description:
    'Asks the user a question and waits for the answer. Use it when a decision is theirs to make or a ' +
    'requirement is unclear, not for things you can find out yourself.',
  inputSchema,
  sideEffects: false,
  needsProject: false,
  async execute(input, ctx) {
    const answer = await ctx.ask(input.question, input.options ?? null);
    return { content: `The user answered: ${answer}` };
  },
});
