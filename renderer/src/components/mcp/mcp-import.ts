import { MCP_ENV_NAME, type McpImportPreview, type McpImportRequest } from '../../../../sidecar/src/protocol';

export type AnswerKind = 'text' | 'env' | 'secret';

/** The user's answer to a placeholder: a literal, an environment variable's name, or a secret value. */
export interface ImportAnswer {
  kind: AnswerKind;
  value: string;
}

type Confirm = NonNullable<McpImportRequest['confirm']>;
type WireAnswer = NonNullable<Confirm['answers']>[string];

/** Password inputs start as secrets; a suggested default starts as its text. Nothing is guessed. */
export function initialAnswers(preview: McpImportPreview): Record<string, ImportAnswer> {
  const answers: Record<string, ImportAnswer> = {};
  for (const q of preview.questions) {
    answers[q.id] = q.password ? { kind: 'secret', value: '' } : { kind: 'text', value: q.default ?? '' };
  }
  return answers;
}

/** Servers are chosen by default unless one of the same name exists already. */
export function initialChoice(preview: McpImportPreview): string[] {
  return preview.candidates.filter((c) => !c.exists).map((c) => c.name);
}

/** The questions the chosen servers need answered, in the preview's order. */
export function neededQuestions(preview: McpImportPreview, chosen: readonly string[]): string[] {
  const needed = new Set(
    preview.candidates.filter((c) => chosen.includes(c.name)).flatMap((c) => c.questions),
  );
  return preview.questions.map((q) => q.id).filter((id) => needed.has(id));
}

export type ConfirmResult =
  | { ok: true; confirm: Confirm }
  | { ok: false; reason: 'none_chosen' }
  | { ok: false; reason: 'unanswered'; questions: string[] };

/** The `confirm` part of the import request: only the chosen servers, only their questions' answers. */
export function confirmOf(
  preview: McpImportPreview,
  chosen: readonly string[],
  answers: Readonly<Record<string, ImportAnswer>>,
): ConfirmResult {
  const servers = preview.candidates.map((c) => c.name).filter((name) => chosen.includes(name));
  if (servers.length === 0) return { ok: false, reason: 'none_chosen' };
  const wire: Record<string, WireAnswer> = {};
  const unanswered: string[] = [];
  for (const id of neededQuestions(preview, servers)) {
    const answer = answers[id];
    const value = answer?.kind === 'secret' ? (answer.value ?? '') : (answer?.value ?? '').trim();
    if (!answer || value === '' || (answer.kind === 'env' && !MCP_ENV_NAME.test(value))) {
      unanswered.push(id);
      continue;
    }
    wire[id] = answer.kind === 'env' ? { env: value } : answer.kind === 'secret' ? { secret: value } : value;
  }
  if (unanswered.length > 0) return { ok: false, reason: 'unanswered', questions: unanswered };
  return { ok: true, confirm: Object.keys(wire).length > 0 ? { servers, answers: wire } : { servers } };
}
