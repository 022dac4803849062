import type { FastifyInstance } from 'fastify';
import {
  AnswerQuestionRequest,
  type Question,
  type QuestionList,
  type ToolCallWithResult,
} from '../../protocol';
import { parse } from '../parse';
import type { ServerContext } from '../server-context';

type IdParams = { Params: { id: string } };

export function registerQuestionRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { questions, toolCalls } = ctx.services;

  app.get<IdParams>(
    '/api/sessions/:id/questions',
    async (req): Promise<QuestionList> => ({ questions: questions.pending(req.params.id) }),
  );

  app.post<IdParams>(
    '/api/questions/:id/answer',
    async (req): Promise<Question> => questions.answer(req.params.id, parse(AnswerQuestionRequest, req.body)),
  );

  app.get<IdParams>(
    '/api/tool-calls/:id',
    async (req): Promise<ToolCallWithResult> => toolCalls.get(req.params.id),
  );

  /** The text a Write call replaced (plain text), for its card's diff. */
  app.get<IdParams>('/api/tool-calls/:id/previous', async (req, reply) => {
    const text = await toolCalls.previousContent(req.params.id);
    return reply.type('text/plain; charset=utf-8').header('cache-control', 'private, no-store').send(text);
  });
}
