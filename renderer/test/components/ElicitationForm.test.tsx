// @vitest-environment happy-dom
import '../support/zh-CN';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../sidecar/src/client/http-client';
import type { AnswerQuestionRequest, Question } from '../../../sidecar/src/protocol';
import { QuestionCard } from '../../src/components/QuestionCard';
import type { Locale } from '../../src/i18n/catalog';
import { I18nProvider } from '../../src/i18n/i18n';
import { answersShown } from '../support/approval-answers';

// Every field kind of MCP's restricted form schema.
const FORM = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', description: 'Who you are', minLength: 2 },
    email: { type: 'string', format: 'email', default: 'ann@example.com' },
    site: { type: 'string', format: 'uri' },
    birthday: { type: 'string', format: 'date', default: '2000-01-02' },
    meeting: { type: 'string', format: 'date-time' },
    age: { type: 'integer', minimum: 0, maximum: 150, default: 30 },
    score: { type: 'number', minimum: 0, maximum: 1 },
    subscribe: { type: 'boolean', title: 'Subscribe', default: true },
    color: { type: 'string', title: 'Color', enum: ['red', 'green', 'blue'], default: 'green' },
    size: {
      type: 'string',
      title: 'Size',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'l', title: 'Large' },
      ],
    },
    tags: { type: 'array', title: 'Tags', items: { type: 'string', enum: ['a', 'b'] }, default: ['a'] },
    toppings: {
      type: 'array',
      title: 'Toppings',
      items: {
        anyOf: [
          { const: 'ch', title: 'Cheese' },
          { const: 'ol', title: 'Olives' },
        ],
      },
    },
  },
  required: ['name'],
};

const question = (patch: Partial<Question> = {}): Question => ({
  id: 'q1',
  session_id: 's1',
  turn_id: 't1',
  tool_call_id: 'tc1',
  fork_id: null,
  kind: 'elicitation',
  question: 'Tell me about yourself',
  options: null,
  tool: null,
  permission: null,
  elicitation: { server_id: 'm1', server_name: 'forms', requested_schema: FORM },
  status: 'pending',
  answer: null,
  created_at: '2025-01-01T00:00:00.000Z',
  answered_at: null,
  ...patch,
});

function renderCard(
  q: Question,
  onAnswer: (a: AnswerQuestionRequest) => Promise<void>,
  locale: Locale = 'en',
) {
  return render(
    <I18nProvider locale={locale}>
      <QuestionCard question={q} onAnswer={onAnswer} />
    </I18nProvider>,
  );
}

const input = (label: string | RegExp) => screen.getByLabelText(label) as HTMLInputElement;
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

afterEach(cleanup);

describe('QuestionCard — an MCP server’s form (elicitation)', () => {
  it('builds every field kind from the schema, prefilled with its defaults, and sends const values', async () => {
    const onAnswer = vi.fn((_a: AnswerQuestionRequest) => Promise.resolve());
    renderCard(question(), onAnswer);
    await answersShown();
    expect(screen.getByRole('heading', { name: 'The MCP server forms asks' })).toBeTruthy();
    expect(screen.getByText('Tell me about yourself')).toBeTruthy();

    expect(input(/^Name/).type).toBe('text');
    expect(screen.getByText('Who you are')).toBeTruthy();
    expect(screen.getByText('(required)')).toBeTruthy();
    expect(input('email').type).toBe('email');
    expect(input('email').value).toBe('ann@example.com');
    expect(input('site').type).toBe('url');
    expect(input('birthday').type).toBe('date');
    expect(input('birthday').value).toBe('2000-01-02');
    expect(input('meeting').type).toBe('datetime-local');
    expect(input('age').type).toBe('number');
    expect(input('age').value).toBe('30');
    expect(input('age').step).toBe('1');
    expect(input('score').step).toBe('any');
    expect(input('Subscribe').type).toBe('checkbox');
    expect(input('Subscribe').checked).toBe(true);
    expect((screen.getByLabelText('Color') as HTMLSelectElement).value).toBe('green');
    // Titled choices show their titles and carry their const values.
    const size = screen.getByLabelText('Size') as HTMLSelectElement;
    expect([...size.options].map((o) => [o.value, o.textContent])).toEqual([
      ['', 'Choose…'],
      ['s', 'Small'],
      ['l', 'Large'],
    ]);
    expect(input('a').checked).toBe(true);
    expect(input('b').checked).toBe(false);
    expect(input('Cheese').value).toBe('ch');

    fireEvent.input(input(/^Name/), { target: { value: 'Ann' } });
    fireEvent.input(input('score'), { target: { value: '0.5' } });
    fireEvent.input(input('meeting'), { target: { value: '2026-01-02T10:30' } });
    fireEvent.change(size, { target: { value: 's' } });
    fireEvent.click(input('Olives'));
    fireEvent.click(input('Subscribe'));
    await act(async () => {
      fireEvent.click(button('Accept'));
    });
    expect(onAnswer).toHaveBeenCalledWith({
      answer: 'accept',
      content: {
        name: 'Ann',
        email: 'ann@example.com',
        birthday: '2000-01-02',
        meeting: new Date('2026-01-02T10:30').toISOString(),
        age: 30,
        score: 0.5,
        subscribe: false,
        color: 'green',
        size: 's',
        tags: ['a'],
        toppings: ['ol'],
      },
    });
    expect(screen.getByText('Sent')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Accept' })).toBeNull();
  });

  it('declines and cancels without content', async () => {
    for (const [name, answer, shown] of [
      ['Decline', 'decline', 'Declined'],
      ['Cancel', 'cancel', 'Cancelled'],
    ] as const) {
      const onAnswer = vi.fn((_a: AnswerQuestionRequest) => Promise.resolve());
      renderCard(question(), onAnswer);
      await answersShown();
      await act(async () => {
        fireEvent.click(button(name));
      });
      expect(onAnswer).toHaveBeenCalledWith({ answer });
      expect(screen.getByText(shown)).toBeTruthy();
      cleanup();
    }
  });

  it('shows the server’s problem next to each field it names, and takes a corrected form', async () => {
    let attempt = 0;
    const onAnswer = vi.fn((_a: AnswerQuestionRequest) =>
      attempt++ === 0
        ? Promise.reject(
            new ApiError(400, 'bad_request', 'The form is not accepted as filled: name is required.', {
              fields: { name: 'is required', age: 'must be at most 150' },
            }),
          )
        : Promise.resolve(),
    );
    renderCard(question(), onAnswer);
    await answersShown();
    await act(async () => {
      fireEvent.click(button('Accept'));
    });
    expect(screen.getByText('Name: is required')).toBeTruthy();
    expect(screen.getByText('age: must be at most 150')).toBeTruthy();
    expect(input(/^Name/).getAttribute('aria-invalid')).toBe('true');
    fireEvent.input(input(/^Name/), { target: { value: 'Ann' } });
    await act(async () => {
      fireEvent.click(button('Accept'));
    });
    expect(onAnswer).toHaveBeenCalledTimes(2);
    expect(screen.queryByText('Name: is required')).toBeNull();
  });

  it('speaks Chinese', async () => {
    renderCard(question(), () => Promise.resolve(), 'zh-CN');
    await answersShown();
    expect(screen.getByRole('heading', { name: 'MCP 服务器 forms 请求填写' })).toBeTruthy();
    expect(button('接受')).toBeTruthy();
    expect(button('拒绝')).toBeTruthy();
    expect(button('取消')).toBeTruthy();
  });

  it('leaves out an optional checkbox never touched with no default, and an optional multi-select emptied', async () => {
    const onAnswer = vi.fn((_a: AnswerQuestionRequest) => Promise.resolve());
    const form = {
      type: 'object',
      properties: {
        agree: { type: 'boolean', title: 'Agree' },
        news: { type: 'boolean', title: 'News' },
        tags: {
          type: 'array',
          title: 'Tags',
          minItems: 1,
          items: { type: 'string', enum: ['a', 'b'] },
          default: ['a'],
        },
        extras: { type: 'array', title: 'Extras', items: { type: 'string', enum: ['x', 'y'] } },
      },
    };
    renderCard(
      question({ elicitation: { server_id: 'm1', server_name: 'forms', requested_schema: form } }),
      onAnswer,
    );
    await answersShown();
    fireEvent.click(input('News'));
    fireEvent.click(input('News')); // unticked again: the user's own false
    fireEvent.click(input('a')); // the optional multi-select emptied: left out, not []
    await act(async () => {
      fireEvent.click(button('Accept'));
    });
    expect(onAnswer).toHaveBeenCalledWith({ answer: 'accept', content: { news: false } });
  });

  it('shows no error for a field named like an Object member when the server names none', async () => {
    const onAnswer = vi.fn((_a: AnswerQuestionRequest) =>
      Promise.reject(
        new ApiError(400, 'bad_request', 'The form is not accepted as filled: name is required.', {
          fields: { name: 'is required' },
        }),
      ),
    );
    const form = {
      type: 'object',
      properties: { name: { type: 'string' }, constructor: { type: 'string' } },
      required: ['name'],
    };
    renderCard(
      question({ elicitation: { server_id: 'm1', server_name: 'forms', requested_schema: form } }),
      onAnswer,
    );
    await answersShown();
    await act(async () => {
      fireEvent.click(button('Accept'));
    });
    expect(screen.getByText('name: is required')).toBeTruthy();
    expect(input('constructor').getAttribute('aria-invalid')).not.toBe('true');
  });

  it('keeps a date-time default’s seconds, and marks hidden characters in the server’s text', async () => {
    const onAnswer = vi.fn(async (_a: AnswerQuestionRequest) => {});
    const schema = {
      type: 'object',
      properties: {
        at: { type: 'string', format: 'date-time', default: '2026-03-04T05:06:07Z' },
        pick: {
          type: 'string',
          title: 'Pick\u202e',
          description: 'Say\u200b yes',
          oneOf: [{ const: 'x', title: 'Ex\u202e' }],
        },
      },
    };
    render(
      <I18nProvider locale="en">
        <QuestionCard
          question={question({
            question: 'Hello\u202e there',
            elicitation: { server_id: 'm1', server_name: 'forms', requested_schema: schema },
          })}
          onAnswer={onAnswer}
        />
      </I18nProvider>,
    );
    const at = (await screen.findByLabelText('at')) as HTMLInputElement;
    expect(at.step).toBe('1');
    expect(at.value).toMatch(/:07$/);
    expect(document.body.textContent).toContain('Hello⟨U+202E⟩ there');
    expect(document.body.textContent).toContain('Say⟨U+200B⟩ yes');
    expect(screen.getByRole('option', { name: 'Ex⟨U+202E⟩' })).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
    });
    expect(onAnswer.mock.calls[0]![0]).toEqual({
      answer: 'accept',
      content: { at: '2026-03-04T05:06:07.000Z' },
    });
  });
});
