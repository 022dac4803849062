// @vitest-environment happy-dom
import '../support/zh-CN';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnswerQuestionRequest, Question } from '../../../sidecar/src/protocol';
import { QuestionCard } from '../../src/components/QuestionCard';
import { SessionHasProject } from '../../src/components/session-project';
import type { Locale } from '../../src/i18n/catalog';
import { I18nProvider } from '../../src/i18n/i18n';
import { answersShown } from '../support/approval-answers';

// An approval's five answers: which request each sends, and the "always" editor's rule (the suggestion,
// edited or emptied, saved for the project or everywhere).

function approval(patch: Partial<Question> = {}): Question {
  return {
    id: 'q1',
    session_id: 's1',
    turn_id: 't1',
    tool_call_id: 'tc1',
    fork_id: null,
    elicitation: null,
    kind: 'approval',
    question: 'Bash wants to run a command.',
    options: null,
    tool: { name: 'Bash', input: { command: 'npm run test -- --watch' } },
    permission: {
      reason: 'No rule matches this command, and the session asks before commands.',
      rule_id: null,
      suggestion: { tool: 'Bash', pattern: 'npm run test *' },
    },
    status: 'pending',
    answer: null,
    created_at: '2025-01-01T00:00:00.000Z',
    answered_at: null,
    ...patch,
  };
}

/** Renders the card and waits for its answers (they load when an approval first waits). */
async function renderCard(question: Question, options: { hasProject?: boolean; locale?: Locale } = {}) {
  const onAnswer = vi.fn((_request: AnswerQuestionRequest) => Promise.resolve());
  render(
    <I18nProvider locale={options.locale ?? 'en'}>
      <SessionHasProject.Provider value={options.hasProject ?? true}>
        <QuestionCard question={question} onAnswer={onAnswer} />
      </SessionHasProject.Provider>
    </I18nProvider>,
  );
  await answersShown();
  return onAnswer;
}

const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

afterEach(cleanup);

describe('an approval card with permission info', () => {
  it('says why it asks, and which rule asked when one did', async () => {
    await renderCard(approval());
    expect(
      screen.getByText('Why it asks: No rule matches this command, and the session asks before commands.'),
    ).toBeTruthy();
    expect(screen.queryByText(/A rule asks/)).toBeNull();
    cleanup();
    await renderCard(
      approval({
        permission: {
          reason: 'The rule asks.',
          rule_id: 'rule_7',
          suggestion: { tool: 'Bash', pattern: null },
        },
      }),
    );
    expect(screen.getByText('A rule asks for this call (rule_7).')).toBeTruthy();
  });

  it('offers five answers, none focused when the card appears', async () => {
    await renderCard(approval());
    const names = within(document.querySelector('.question-card-actions') as HTMLElement)
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(names).toEqual(['Allow once', 'Allow for this session', 'Always allow…', 'Deny', 'Always deny…']);
    expect(document.activeElement).toBe(document.body);
  });

  it.each([
    ['Allow once', { answer: 'allow' }],
    ['Allow for this session', { answer: 'allow', remember: 'session' }],
    ['Deny', { answer: 'deny' }],
  ])('%s sends %j', async (name, request) => {
    const onAnswer = await renderCard(approval());
    fireEvent.click(button(name));
    expect(onAnswer).toHaveBeenCalledWith(request);
    await screen.findByRole('status');
  });

  it('"Always allow…" edits the suggested rule and saves it for the project with the answer', async () => {
    const onAnswer = await renderCard(approval());
    fireEvent.click(button('Always allow…'));
    const editor = screen.getByRole('form', { name: 'Always allow Bash' });
    const pattern = within(editor).getByRole('textbox', { name: 'Pattern' }) as HTMLInputElement;
    expect(pattern.value).toBe('npm run test *');
    // Opened by the click, so it may take focus.
    expect(document.activeElement).toBe(pattern);
    expect((within(editor).getByRole('radio', { name: 'This project' }) as HTMLInputElement).checked).toBe(
      true,
    );
    expect(onAnswer).not.toHaveBeenCalled();

    fireEvent.input(pattern, { target: { value: '  npm run *  ' } });
    fireEvent.click(within(editor).getByRole('button', { name: 'Save and allow' }));
    expect(onAnswer).toHaveBeenCalledWith({ answer: 'allow', remember: 'project', pattern: 'npm run *' });
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('Allowed Saved as a rule for this project.'),
    );
  });

  it('"Always deny…" saves everywhere when chosen, and an emptied pattern means any input (null)', async () => {
    const onAnswer = await renderCard(approval());
    fireEvent.click(button('Always deny…'));
    const editor = screen.getByRole('form', { name: 'Always deny Bash' });
    fireEvent.input(within(editor).getByRole('textbox', { name: 'Pattern' }), { target: { value: ' ' } });
    fireEvent.click(within(editor).getByRole('radio', { name: 'Everywhere' }));
    fireEvent.click(within(editor).getByRole('button', { name: 'Save and deny' }));
    expect(onAnswer).toHaveBeenCalledWith({ answer: 'deny', remember: 'global', pattern: null });
  });

  it('without a project the rule can only be saved everywhere; Esc and Cancel close the editor unsent', async () => {
    const onAnswer = await renderCard(approval(), { hasProject: false });
    fireEvent.click(button('Always allow…'));
    const editor = screen.getByRole('form', { name: 'Always allow Bash' });
    expect(within(editor).queryByRole('radio', { name: 'This project' })).toBeNull();
    expect((within(editor).getByRole('radio', { name: 'Everywhere' }) as HTMLInputElement).checked).toBe(
      true,
    );
    fireEvent.keyDown(within(editor).getByRole('textbox', { name: 'Pattern' }), { key: 'Escape' });
    expect(screen.queryByRole('form')).toBeNull();
    fireEvent.click(button('Always allow…'));
    fireEvent.click(button('Cancel'));
    expect(screen.queryByRole('form')).toBeNull();
    fireEvent.click(button('Always allow…'));
    fireEvent.submit(screen.getByRole('form', { name: 'Always allow Bash' }));
    expect(onAnswer).toHaveBeenCalledWith({ answer: 'allow', remember: 'global', pattern: 'npm run test *' });
  });

  it('offers only Allow once and Deny when the server sent no permission info', async () => {
    await renderCard(approval({ permission: null }));
    const actions = within(document.querySelector('.question-card-actions') as HTMLElement);
    expect(actions.getAllByRole('button').map((b) => b.textContent)).toEqual(['Allow once', 'Deny']);
    expect(screen.queryByText(/Why it asks/)).toBeNull();
  });

  it('speaks Chinese', async () => {
    await renderCard(approval(), { locale: 'zh-CN' });
    fireEvent.click(button('始终允许…'));
    expect(screen.getByRole('form', { name: '始终允许 Bash' })).toBeTruthy();
    expect(button('保存并允许')).toBeTruthy();
    expect(screen.getByText(/^询问原因：/)).toBeTruthy();
  });
});
