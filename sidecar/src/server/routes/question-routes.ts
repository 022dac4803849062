import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors';
import { AnswerQuestionRequest } from '../../protocol';
import { parse } from '../parse';
import type { ServerContext } from '../server-context';

export function registerQuestionRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get<{ Params: { id: string } }>('/api/sessions/:id/questions', async (req) => {
    if (!ctx.store.sessions.get(req.params.id)) throw notFound('Session', req.params.id);
    return { questions: ctx.store.questions.pending(req.params.id) };
  });

  app.post<{ Params: { id: string } }>('/api/questions/:id/answer', async (req) => {
    const body = parse(AnswerQuestionRequest, req.body);
    return ctx.runtime.answerQuestion(req.params.id, body.answer);
  });

  app.get<{ Params: { id: string } }>('/api/tool-calls/:id', async (req) => {
    const call = ctx.store.toolCalls.get(req.params.id);
    if (!call) throw notFound('Tool call', req.params.id);
    return { ...call, result: ctx.runtime.files.readResult(call.session_id, call.id) };
  });
}
