import readline from 'node:readline/promises';
import type { AnswerQuestionRequest, Question } from '../protocol';
import { revealHidden } from './reveal-hidden';

/**
 * Asks for an approval at the terminal with the card's choices: allow once, allow for this session,
 * always allow (a project rule, its pattern editable), deny, always deny. Aborting withdraws the prompt.
 */
export async function askApprovalAtTerminal(
  question: Question,
  signal: AbortSignal,
): Promise<AnswerQuestionRequest> {
  const suggestion = question.permission?.suggestion ?? { tool: question.tool?.name ?? '?', pattern: null };
  const rule = `${suggestion.tool}${suggestion.pattern === null ? '' : ` ${suggestion.pattern}`}`;
  const choices: { label: string; answer: 'allow' | 'deny'; remember?: 'session' | 'project' }[] = [
    { label: 'allow once', answer: 'allow' },
    { label: 'allow for this session', answer: 'allow', remember: 'session' },
    { label: `always allow in this project (rule: ${rule})`, answer: 'allow', remember: 'project' },
    { label: 'deny', answer: 'deny' },
    { label: `always deny in this project (rule: ${rule})`, answer: 'deny', remember: 'project' },
  ];
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    choices.forEach((choice, i) => {
      process.stderr.write(`  ${i + 1}. ${revealHidden(choice.label).text}\n`);
    });
    for (;;) {
      const raw = (await rl.question('> ', { signal })).trim().toLowerCase();
      const byNumber = Number(raw);
      const choice =
        Number.isInteger(byNumber) && byNumber >= 1 && byNumber <= choices.length
          ? choices[byNumber - 1]!
          : choices.find((c) => c.label === raw || (c.remember === undefined && c.answer === raw));
      if (!choice) {
        if (raw.length > 0) process.stderr.write(`  Answer 1 to ${choices.length}.\n`);
        continue;
      }
      if (choice.remember !== 'project')
        return { answer: choice.answer, ...(choice.remember ? { remember: choice.remember } : {}) };
      // "Always" saves a rule: its pattern may be edited first (Enter keeps it; "*any*" matches any input).
      const shown = suggestion.pattern === null ? 'any input' : suggestion.pattern;
      const edited = (await rl.question(`  pattern [${shown}]: `, { signal })).trim();
      const pattern = edited === '' ? suggestion.pattern : edited === '*any*' ? null : edited;
      return { answer: choice.answer, remember: 'project', pattern };
    }
  } finally {
    rl.close();
  }
}
