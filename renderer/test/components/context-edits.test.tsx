// @vitest-environment happy-dom
import '../support/zh-CN';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import type { ContextInfo, ContextVersionInfo } from '../../../sidecar/src/protocol';
import { ContextPanel } from '../../src/components/context/ContextPanel';
import { I18nProvider } from '../../src/i18n/i18n';
import type { CompactNow } from '../../src/state/use-compact-now';
import { useContextInfo } from '../../src/state/use-context-info';
import { eventMaker } from '../support/journal-events';
import { liveSource } from '../support/live-source';

// The agent's own edits in the context panel: the session's system prompt addition as a read-only block,
// read again when the agent edits its context, and the versions its edits wrote named as such.

const INSTRUCTIONS = 'Session instructions (written by the agent)';

const info = (addition: string | null): ContextInfo => ({
  version: addition === null ? 1 : 2,
  estimated_tokens: 1_000,
  estimated: true,
  usable_window: 96_000,
  compact_threshold: 0.8,
  threshold_tokens: 76_800,
  compaction_pending: false,
  units: [],
  system_prompt_addition: addition,
});

const version = (number: number, reason: string): ContextVersionInfo => ({
  number,
  parent: number === 1 ? null : number - 1,
  level: null,
  reason,
  turn_id: null,
  tokens_before: null,
  tokens_after: null,
  after_message_id: null,
  summary: null,
  created_at: '2026-12-01T10:00:00.000Z',
});

/** A sidecar whose session context has no addition until the agent writes one (`edit()`). */
function sidecar() {
  let addition: string | null = null;
  const fetch: typeof globalThis.fetch = async (input) => {
    const path = new URL(String(input)).pathname;
    const json = (value: unknown) =>
      new Response(JSON.stringify(value), { status: 200, headers: { 'content-type': 'application/json' } });
    if (path === '/api/sessions/s1/context') return json(info(addition));
    if (path === '/api/sessions/s1/context/versions')
      return json({ versions: [version(1, 'initial'), version(2, 'agent_edit')] });
    return new Response(JSON.stringify({ error: { code: 'not_found', message: path } }), { status: 404 });
  };
  return {
    client: new CairnClient({ url: 'http://127.0.0.1:1', token: 't' }, fetch),
    edit: (text: string) => {
      addition = text;
    },
  };
}

const idle: CompactNow = {
  busy: false,
  outcome: null,
  compact: async () => undefined,
  cancel: () => undefined,
};

function Panel(props: { client: CairnClient; source: ReturnType<typeof liveSource>; readOnly?: boolean }) {
  const context = useContextInfo(props.client, 's1', props.source, { units: false });
  return (
    <ContextPanel
      client={props.client}
      sessionId="s1"
      events={props.source}
      info={context.value}
      infoError={context.error}
      compaction={idle}
      turnRunning={false}
      request={{ nonce: 1 }}
      readOnly={props.readOnly}
    />
  );
}

afterEach(() => cleanup());

describe('the session’s system prompt addition', () => {
  it('shows once the agent writes it, read again on context.edited', async () => {
    const server = sidecar();
    const source = liveSource(eventMaker('s1'));
    render(
      <I18nProvider locale="en">
        <Panel client={server.client} source={source} />
      </I18nProvider>,
    );
    await screen.findByText(/Version 1 · 1,000 of 96,000 tokens/);
    expect(screen.queryByRole('region', { name: INSTRUCTIONS })).toBeNull();

    server.edit('Answer in French.\nKeep replies short.');
    source.emit({
      type: 'context.edited',
      turn_id: 't1',
      version: 2,
      messages: 0,
      system_prompt_addition: 'Answer in French.\nKeep replies short.',
    });
    const block = await screen.findByRole('region', { name: INSTRUCTIONS });
    expect(block.querySelector('pre')?.textContent).toBe('Answer in French.\nKeep replies short.');
    // Shown as text, not a field: only the agent changes it.
    expect(within(block).queryByRole('textbox')).toBeNull();
    // The version the edit wrote is named for what it is.
    await waitFor(() => expect(screen.getByText('Version 2 · edited by the agent')).toBeTruthy());
    expect(screen.getByRole('button', { name: 'Compact now' })).toBeTruthy();
  });

  it('in Chinese, and read-only (a fork’s) without "compact now"', async () => {
    const server = sidecar();
    server.edit('用中文回答。');
    render(
      <I18nProvider locale="zh-CN">
        <Panel client={server.client} source={liveSource(eventMaker('s1'))} readOnly />
      </I18nProvider>,
    );
    const block = await screen.findByRole('region', { name: '会话指令（由智能体编写）' });
    expect(block.textContent).toContain('用中文回答。');
    expect(screen.queryByRole('button', { name: '立即压缩' })).toBeNull();
  });
});
