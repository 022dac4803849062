// @vitest-environment happy-dom
import '../support/zh-CN';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnswerQuestionRequest, Question } from '../../../sidecar/src/protocol';
import { ForkTasks } from '../../src/components/forks/fork-tasks';
import { QuestionCard } from '../../src/components/QuestionCard';
import type { Locale } from '../../src/i18n/catalog';
import { I18nProvider } from '../../src/i18n/i18n';
import { answersShown } from '../support/approval-answers';

function makeQuestion(patch: Partial<Question> = {}): Question {
  return {
    id: 'q1',
    session_id: 's1',
    turn_id: 't1',
    tool_call_id: null,
    fork_id: null,
    elicitation: null,
    kind: 'question',
    question: 'Which port should the server use?',
    options: ['8080', '3000'],
    tool: null,
    permission: null,
    status: 'pending',
    answer: null,
    created_at: '2025-01-01T00:00:00.000Z',
    answered_at: null,
    ...patch,
  };
}

const approval = (patch: Partial<Question> = {}) =>
  makeQuestion({
    kind: 'approval',
    question: 'Bash wants to run a command.',
    options: null,
    tool: { name: 'Bash', input: { command: 'rm -rf build' } },
    permission: null,
    tool_call_id: 'tc1',
    ...patch,
  });

/** An onAnswer whose promise the test settles. */
function controlledAnswer() {
  let settle: { resolve: () => void; reject: (error: Error) => void } = {
    resolve: () => undefined,
    reject: () => undefined,
  };
  const onAnswer = vi.fn(
    (_answer: AnswerQuestionRequest) =>
      new Promise<void>((resolve, reject) => {
        settle = { resolve, reject };
      }),
  );
  return { onAnswer, resolve: () => settle.resolve(), reject: (error: Error) => settle.reject(error) };
}

function renderCard(
  question: Question,
  onAnswer: (answer: AnswerQuestionRequest) => Promise<void>,
  locale: Locale = 'en',
) {
  const wrap = (node: ReactNode) => <I18nProvider locale={locale}>{node}</I18nProvider>;
  const result = render(wrap(<QuestionCard question={question} onAnswer={onAnswer} />));
  return {
    ...result,
    update: (next: Question) => result.rerender(wrap(<QuestionCard question={next} onAnswer={onAnswer} />)),
  };
}

const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

/** The text of one named part of an approval (its code, diff or path), less the block's last line break. */
const partText = (name: string) =>
  screen.getByRole('region', { name }).querySelector('pre, code')?.textContent?.replace(/\n$/, '');

const noAnswerButtons = () =>
  screen.queryByRole('button', { name: 'Allow once' }) === null &&
  screen.queryByRole('button', { name: 'Deny' }) === null;

afterEach(cleanup);

describe('QuestionCard — approvals', () => {
  it('shows the tool and its command and allows it', async () => {
    const answer = controlledAnswer();
    renderCard(approval(), answer.onAnswer);
    await answersShown();
    expect(screen.getByRole('heading', { name: 'Allow Bash?' })).toBeTruthy();
    expect(partText('Command')).toBe('rm -rf build');
    // The server's own sentence only repeats the tool and command, so it is not shown again.
    expect(screen.queryByText('Bash wants to run a command.')).toBeNull();
    fireEvent.click(button('Allow once'));
    expect(answer.onAnswer).toHaveBeenCalledWith({ answer: 'allow' });
    expect(button('Allow once').disabled).toBe(true);
    expect(button('Deny').disabled).toBe(true);
    expect(screen.getByText('Sending…')).toBeTruthy();
    // A second click while the first is under way sends nothing.
    fireEvent.click(button('Deny'));
    expect(answer.onAnswer).toHaveBeenCalledTimes(1);
    await act(async () => answer.resolve());
    expect(screen.getByText('Allowed')).toBeTruthy();
    expect(noAnswerButtons()).toBe(true);
  });

  it('denies', async () => {
    const onAnswer = vi.fn((_answer: AnswerQuestionRequest) => Promise.resolve());
    renderCard(approval(), onAnswer);
    await answersShown();
    await act(async () => {
      fireEvent.click(button('Deny'));
    });
    expect(onAnswer).toHaveBeenCalledWith({ answer: 'deny' });
    expect(screen.getByText('Denied')).toBeTruthy();
  });

  it('shows an error inline and lets the user try again', async () => {
    const answer = controlledAnswer();
    renderCard(approval(), answer.onAnswer);
    await answersShown();
    fireEvent.click(button('Allow once'));
    await act(async () => answer.reject(new Error('The server went away.')));
    expect(screen.getByRole('alert').textContent).toBe('Could not send the answer: The server went away.');
    expect(button('Allow once').disabled).toBe(false);
    fireEvent.click(button('Allow once'));
    expect(answer.onAnswer).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the outcome after a reload', () => {
    const { update } = renderCard(approval({ status: 'answered', answer: 'deny' }), vi.fn());
    expect(screen.getByText('Denied')).toBeTruthy();
    update(approval({ status: 'closed' }));
    expect(screen.getByText('No longer waiting for an answer')).toBeTruthy();
    expect(noAnswerButtons()).toBe(true);
  });

  it('speaks Chinese', async () => {
    renderCard(approval(), vi.fn(), 'zh-CN');
    await answersShown();
    expect(screen.getByRole('heading', { name: '允许运行 Bash 吗？' })).toBeTruthy();
    expect(button('允许一次')).toBeTruthy();
    expect(button('拒绝')).toBeTruthy();
  });
});

describe('QuestionCard — approvals show the whole input', () => {
  const card = (tool: string) => screen.getByRole('region', { name: `Allow ${tool}?` });
  const tool = (name: string, input: unknown) => approval({ tool: { name, input } });

  it('shows a 1,000-character command whole, line breaks kept, and its other arguments', async () => {
    const command = Array.from({ length: 50 }, (_, i) => `echo step-${String(i).padStart(3, '0')}`)
      .join(' &&\n')
      .padEnd(1000, '#');
    expect(command.length).toBe(1000);
    renderCard(tool('Bash', { command, timeout: 30 }), vi.fn());
    expect(card('Bash').textContent).toContain(command);
    expect(card('Bash').textContent).not.toContain('…');
    expect(partText('Command')).toBe(command);
    expect(partText('Other arguments')).toBe('{\n  "timeout": 30\n}');
    // Shell-highlighted, and the buttons are still there below the box.
    await vi.waitFor(() =>
      expect(card('Bash').querySelector('code.language-bash .hljs-built_in')?.textContent).toBe('echo'),
    );
    expect(button('Allow once')).toBeTruthy();
  });

  it('shows Exec as its program and every argument', () => {
    const message = 'x'.repeat(300);
    renderCard(tool('Exec', { program: 'git', args: ['commit', '-m', `fix: ${message}`] }), vi.fn());
    expect(card('Exec').textContent).toContain(`git commit -m 'fix: ${message}'`);
  });

  it("shows a Write's path and its whole content, highlighted by the file's extension", async () => {
    const content = `${Array.from({ length: 40 }, (_, i) => `export const value${i} = ${i};`).join('\n')}\n`;
    renderCard(tool('Write', { path: 'src/values.ts', content }), vi.fn());
    expect(card('Write').textContent).toContain('src/values.ts');
    expect(card('Write').textContent).toContain(content.trimEnd());
    expect(partText('File')).toBe('src/values.ts');
    expect(partText('Content to write')).toBe(content);
    const code = screen.getByRole('region', { name: 'Content to write' }).querySelector('code');
    expect(code?.classList.contains('language-typescript')).toBe(true);
    await vi.waitFor(() => expect(code?.querySelector('.hljs-keyword')?.textContent).toBe('export'));
  });

  it("shows an Edit's path and a diff: removed lines and added lines", () => {
    const oldString = 'const a = 1;\nconst b = 2;\nconst c = 3;\n';
    const newString = 'const a = 1;\nconst b = 20;\nconst bb = 21;\nconst c = 3;\n';
    renderCard(
      tool('Edit', { path: 'src/a.ts', old_string: oldString, new_string: newString, replace_all: true }),
      vi.fn(),
    );
    expect(partText('File')).toBe('src/a.ts');
    const lines = (role: string) => screen.queryAllByRole(role).map((line) => line.textContent);
    expect(lines('deletion')).toEqual(['-const b = 2;\n']);
    expect(lines('insertion')).toEqual(['+const b = 20;\n', '+const bb = 21;\n']);
    expect(partText('Changes')).toBe(
      ' const a = 1;\n-const b = 2;\n+const b = 20;\n+const bb = 21;\n const c = 3;',
    );
    expect(screen.getByText('Every occurrence in the file is replaced.')).toBeTruthy();
  });

  it('shows execute_code as its whole Python code, highlighted', async () => {
    const code = Array.from({ length: 30 }, (_, i) => `total_${i} = sum(range(${i}))  # line ${i}`).join(
      '\n',
    );
    renderCard(tool('execute_code', { code, kernel: 'analysis' }), vi.fn());
    expect(card('execute_code').textContent).toContain(code);
    expect(partText('Python code')).toBe(code);
    await vi.waitFor(() =>
      expect(card('execute_code').querySelector('code.language-python .hljs-built_in')?.textContent).toBe(
        'sum',
      ),
    );
    expect(partText('Other arguments')).toBe('{\n  "kernel": "analysis"\n}');
  });

  it("shows an MCP tool's whole input as pretty JSON", () => {
    const input = {
      title: 'Crash on start',
      body: Array.from({ length: 20 }, (_, i) => `Step ${i}: the app opens, then closes.`).join('\n'),
      labels: ['bug', 'p1'],
    };
    renderCard(tool('mcp__github__create_issue', input), vi.fn());
    const json = JSON.stringify(input, null, 2);
    expect(card('mcp__github__create_issue').textContent).toContain(json);
    expect(partText('Arguments')).toBe(json);
  });
});

describe('QuestionCard — approvals show hidden characters', () => {
  const tool = (name: string, input: unknown) => approval({ tool: { name, input } });
  const card = (name: string) => screen.getByRole('region', { name: `Allow ${name}?` });
  const markers = (name: string) =>
    [...card(name).querySelectorAll('.invisible-char')].map((marker) => marker.textContent);
  const warning = () => screen.queryByText(/hidden or direction-changing/);

  it("shows a Write path's right-to-left override and its content's zero-width space, and warns", () => {
    renderCard(tool('Write', { path: 'notes\u202Etxt.sh', content: 'echo hi\u200B\n' }), vi.fn());
    // The path reads as the tool gets it, not as "noteshs.txt".
    expect(partText('File')).toBe('notes⟨U+202E⟩txt.sh');
    expect(partText('Content to write')).toBe('echo hi⟨U+200B⟩\n');
    expect(markers('Write')).toEqual(['⟨U+202E⟩', '⟨U+200B⟩']);
    // None of the characters themselves reaches the page.
    expect(card('Write').textContent).not.toMatch(/[\u202E\u200B]/);
    expect(warning()?.textContent).toBe(
      'This input contains 2 hidden or direction-changing characters, shown as ⟨U+…⟩ markers. Check it before allowing.',
    );
    // The warning sits above Allow and is read out with it.
    const allow = button('Allow once');
    expect(allow.getAttribute('aria-describedby')).toBe(warning()?.id);
    expect(warning()!.compareDocumentPosition(allow) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("marks a command's hidden characters yet copies the command as it is", async () => {
    const command = 'echo ok\u2066 && rm -rf ~\u2069';
    renderCard(tool('Bash', { command }), vi.fn());
    expect(partText('Command')).toBe('echo ok⟨U+2066⟩ && rm -rf ~⟨U+2069⟩');
    // Still highlighted as shell: the markers go in after highlighting.
    await vi.waitFor(() =>
      expect(card('Bash').querySelector('code.language-bash .hljs-built_in')?.textContent).toBe('echo'),
    );
    expect(markers('Bash')).toEqual(['⟨U+2066⟩', '⟨U+2069⟩']);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy code' }));
    });
    expect(await navigator.clipboard.readText()).toBe(command);
  });

  it("marks the hidden characters in an Edit's diff and in the arguments shown as JSON", () => {
    renderCard(
      tool('Edit', {
        path: 'src/a.ts',
        old_string: 'const ok = true;\nconst role = "user";\n',
        new_string: 'const ok = true;\nconst role = "user\u202E\u2066admin\u2069\u2066";\n',
        note: 'see\u{E0041}',
      }),
      vi.fn(),
    );
    const lines = (role: string) => screen.queryAllByRole(role).map((line) => line.textContent);
    expect(lines('deletion')).toEqual(['-const role = "user";\n']);
    expect(lines('insertion')).toEqual(['+const role = "user⟨U+202E⟩⟨U+2066⟩admin⟨U+2069⟩⟨U+2066⟩";\n']);
    expect(partText('Other arguments')).toBe('{\n  "note": "see⟨U+E0041⟩"\n}');
    expect(warning()?.textContent).toContain('contains 5 hidden');
  });

  it('says "1 character" for one, and warns of nothing in plain input or Windows line ends', () => {
    const { update } = renderCard(tool('Bash', { command: 'ls\u00AD -la' }), vi.fn());
    expect(warning()?.textContent).toBe(
      'This input contains 1 hidden or direction-changing character, shown as a ⟨U+…⟩ marker. Check it before allowing.',
    );
    update(tool('Write', { path: 'a.txt', content: 'one\r\ntwo\r\n' }));
    expect(warning()).toBeNull();
    expect(card('Write').querySelector('.invisible-char')).toBeNull();
    expect(button('Allow once').hasAttribute('aria-describedby')).toBe(false);
  });

  it('warns in Chinese', () => {
    renderCard(tool('Bash', { command: 'ls\u200B' }), vi.fn(), 'zh-CN');
    expect(screen.getByText(/隐藏或改变文字方向的字符/).textContent).toBe(
      '此输入包含 1 个隐藏或改变文字方向的字符，已显示为 ⟨U+…⟩ 标记。允许前请仔细检查。',
    );
  });
});

describe('QuestionCard — questions', () => {
  it('answers with an option', async () => {
    const answer = controlledAnswer();
    renderCard(makeQuestion(), answer.onAnswer);
    expect(screen.getByText('Which port should the server use?')).toBeTruthy();
    fireEvent.click(button('3000'));
    expect(answer.onAnswer).toHaveBeenCalledWith({ answer: '3000' });
    expect(button('8080').disabled).toBe(true);
    expect((screen.getByRole('textbox', { name: 'Your answer' }) as HTMLInputElement).disabled).toBe(true);
    await act(async () => answer.resolve());
    expect(screen.getByText('Answered: 3000')).toBeTruthy();
  });

  it('answers in free text with the Answer button', async () => {
    const onAnswer = vi.fn((_answer: AnswerQuestionRequest) => Promise.resolve());
    renderCard(makeQuestion(), onAnswer);
    expect(button('Answer').disabled).toBe(true);
    fireEvent.input(screen.getByRole('textbox', { name: 'Your answer' }), { target: { value: '  5173 ' } });
    expect(button('Answer').disabled).toBe(false);
    await act(async () => {
      fireEvent.click(button('Answer'));
    });
    expect(onAnswer).toHaveBeenCalledWith({ answer: '5173' });
  });

  it('submits the free answer with Enter', async () => {
    const onAnswer = vi.fn((_answer: AnswerQuestionRequest) => Promise.resolve());
    renderCard(makeQuestion({ options: null }), onAnswer);
    const input = screen.getByRole('textbox', { name: 'Your answer' });
    fireEvent.input(input, { target: { value: 'Use 4000' } });
    await act(async () => {
      fireEvent.submit(input.closest('form')!);
    });
    expect(onAnswer).toHaveBeenCalledWith({ answer: 'Use 4000' });
    expect(screen.getByText('Answered: Use 4000')).toBeTruthy();
  });

  it('does not send an empty answer', () => {
    const onAnswer = vi.fn((_answer: AnswerQuestionRequest) => Promise.resolve());
    renderCard(makeQuestion(), onAnswer);
    fireEvent.input(screen.getByRole('textbox', { name: 'Your answer' }), { target: { value: '   ' } });
    fireEvent.submit(screen.getByRole('textbox', { name: 'Your answer' }).closest('form')!);
    expect(onAnswer).not.toHaveBeenCalled();
  });

  it('shows the stored answer', () => {
    renderCard(makeQuestion({ status: 'answered', answer: '8080' }), vi.fn());
    expect(screen.getByText('Answered: 8080')).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
  });
});

describe('QuestionCard — asked by a fork', () => {
  const forkTasks = new Map([['ses_fork1', 'Check the tests']]);
  const inSession = (question: Question, locale: Locale = 'en') =>
    render(
      <I18nProvider locale={locale}>
        <ForkTasks.Provider value={forkTasks}>
          <QuestionCard question={question} onAnswer={() => Promise.resolve()} />
        </ForkTasks.Provider>
      </I18nProvider>,
    );

  it('names the fork by its task, and answers as any card does', async () => {
    const onAnswer = vi.fn((_answer: AnswerQuestionRequest) => Promise.resolve());
    render(
      <I18nProvider locale="en">
        <ForkTasks.Provider value={forkTasks}>
          <QuestionCard question={approval({ fork_id: 'ses_fork1' })} onAnswer={onAnswer} />
        </ForkTasks.Provider>
      </I18nProvider>,
    );
    const card = screen.getByRole('region', { name: 'Allow Bash?' });
    expect(card.querySelector('.question-card-fork')?.textContent).toBe('From fork: Check the tests');
    await act(async () => {
      fireEvent.click(button('Allow once'));
    });
    expect(onAnswer).toHaveBeenCalledWith({ answer: 'allow' });
  });

  it('names it by its id when its task is not known, in Chinese too; a card of the session itself has no label', () => {
    inSession(makeQuestion({ id: 'q2', fork_id: 'ses_other' }), 'zh-CN');
    expect(screen.getByText('来自分支：ses_other')).toBeTruthy();
    cleanup();
    inSession(makeQuestion());
    expect(document.querySelector('.question-card-fork')).toBeNull();
  });
});
