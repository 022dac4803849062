// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import { ToolItemView } from '../../src/components/ToolItemView';
import { I18nProvider } from '../../src/i18n/i18n';
import { cardFromCall, questionItem, type ToolItem, toolItem } from '../../src/state/tool-items';
import { approvalFor, storedToolCall } from '../support/tool-calls';
import '../support/lazy-bodies';

// A background call's card and the calls its script started, nested under it with their approval.

const client = new CairnClient({ url: 'http://127.0.0.1:1', token: 't' }, async () => new Response('{}'));
const parent = storedToolCall({ id: 'tc1', background: true, input: { command: 'python build.py' } });
const script = storedToolCall({
  id: 'tc2',
  name: 'Write',
  tool_use_id: 'script_x',
  input: { path: 'out.txt', content: 'x' },
  parent_tool_call_id: 'tc1',
  status: 'waiting_approval',
});

function setup(item: ToolItem) {
  const answers: [string, string][] = [];
  render(
    <I18nProvider locale="en">
      <ToolItemView
        item={item}
        client={client}
        onAnswer={async (id, answer) => {
          answers.push([id, answer.answer]);
        }}
      />
    </I18nProvider>,
  );
  return answers;
}

const cardOf = (id: string) => document.querySelector<HTMLElement>(`.tool-card[data-call-id="${id}"]`)!;

afterEach(cleanup);

describe('a background call with its script calls', () => {
  it('says it runs in the background, and nests the script calls with their approvals', async () => {
    const item = toolItem(cardFromCall(parent), [
      toolItem(cardFromCall(script)),
      questionItem(approvalFor(script)),
    ]);
    const answers = setup(item);
    const header = within(cardOf('tc1')).getAllByRole('button')[0]!;
    expect(header.textContent).toContain('background');
    expect(header.textContent).toContain('Running');
    fireEvent.click(header);
    expect(cardOf('tc1').textContent).toContain(
      'Runs in the background: the agent went on without waiting for it.',
    );

    const group = screen.getByRole('group', { name: 'Calls started by the script of Bash' });
    const nested = within(group).getAllByRole('button')[0]!;
    expect(nested.textContent).toContain('Write');
    expect(nested.textContent).toContain('out.txt');
    expect(nested.textContent).toContain('Waiting for approval');
    expect(nested.textContent).not.toContain('background');
    fireEvent.click(nested);
    expect(cardOf('tc2').textContent).toContain('Started by a script of call tc1');

    const approval = within(group).getByRole('region', { name: /^Allow Write/ });
    fireEvent.click(await within(approval).findByRole('button', { name: 'Allow once' }));
    await waitFor(() => expect(answers).toEqual([['q-tc2', 'allow']]));
  });

  it('shows an ended background call as ended, and no group without script calls', () => {
    setup(
      toolItem(
        cardFromCall({
          ...parent,
          status: 'cancelled',
          is_error: true,
          duration_ms: 2500,
          preview: 'stopped',
        }),
      ),
    );
    const header = within(cardOf('tc1')).getAllByRole('button')[0]!;
    expect(header.textContent).toContain('Cancelled');
    expect(header.textContent).toContain('2.5 s');
    fireEvent.click(header);
    expect(cardOf('tc1').textContent).toContain('Ran in the background, while the agent went on.');
    expect(screen.queryByRole('group')).toBeNull();
  });
});
