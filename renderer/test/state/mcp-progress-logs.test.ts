import { describe, expect, it } from 'vitest';
import type { CairnEvent, NewEvent } from '../../../sidecar/src/protocol';
import { applyMcpLog, logText, MAX_LOG_LINES, MAX_LOG_TEXT, type McpLogs } from '../../src/state/mcp-logs';
import { applyEvent, type ToolItem, type TurnView, turnFromStart } from '../../src/state/turn-view';
import { eventMaker } from '../support/journal-events';

const ev = eventMaker('s');
const play = (view: TurnView, events: NewEvent[]) => events.reduce((v, e) => applyEvent(v, ev(e)), view);
const NAME = 'mcp__srv__work';

/** A turn whose MCP call has started (its card made from tool.started alone). */
function runningMcpCall(): TurnView {
  const start = ev({ type: 'turn.started', turn_id: 't', ordinal: 1, prompt: 'hi' });
  return play(turnFromStart(start as Extract<CairnEvent, { type: 'turn.started' }>), [
    {
      type: 'tool.started',
      turn_id: 't',
      tool_call_id: 'tc1',
      tool_use_id: 'tu1',
      name: NAME,
      input: { steps: 3 },
      status: 'running',
      parent_tool_call_id: null,
      background: false,
    },
  ]);
}
const card = (view: TurnView) => (view.items.find((i) => i.kind === 'tool') as ToolItem).card;

describe('tool.progress on a call’s card', () => {
  it('keeps the latest progress of the call it names, and leaves other calls alone', () => {
    const view = runningMcpCall();
    expect(card(view).progress).toBeNull();
    const after = play(view, [
      { type: 'tool.progress', turn_id: 't', tool_call_id: 'tc1', progress: 1, total: 3, message: 'one' },
      { type: 'tool.progress', turn_id: 't', tool_call_id: 'tc1', progress: 2, total: 3, message: null },
    ]);
    expect(card(after).progress).toEqual({ progress: 2, total: 3, message: null });
    const other = play(after, [
      { type: 'tool.progress', turn_id: 't', tool_call_id: 'tc9', progress: 7, total: null, message: 'x' },
    ]);
    expect(other).toBe(after);
  });
});

describe('mcp.log lines for the session’s MCP panel', () => {
  const log = (server: string, data: unknown, level: 'info' | 'error' = 'info') =>
    ev({ type: 'mcp.log', turn_id: null, server_id: server, level, data });

  it('keeps each server’s recent lines, newest last, each once, and passes other events by', () => {
    let logs: McpLogs = {};
    const first = log('a', 'started');
    logs = applyMcpLog(logs, first);
    logs = applyMcpLog(logs, log('b', { n: 1 }, 'error'));
    expect(applyMcpLog(logs, first)).toBe(logs);
    expect(applyMcpLog(logs, ev({ type: 'turn.cancelled', turn_id: 't' }))).toBe(logs);
    expect(logs.a!.map((l) => [l.level, l.text])).toEqual([['info', 'started']]);
    expect(logs.b!.map((l) => [l.level, l.text])).toEqual([['error', '{"n":1}']]);
    for (let i = 0; i < MAX_LOG_LINES + 10; i++) logs = applyMcpLog(logs, log('a', `line ${i}`));
    expect(logs.a).toHaveLength(MAX_LOG_LINES);
    expect(logs.a!.at(-1)!.text).toBe(`line ${MAX_LOG_LINES + 9}`);
  });

  it('puts lines in journal order when the history read at opening comes after live ones', () => {
    const older = log('a', 'from the history');
    const live = log('a', 'live');
    let logs: McpLogs = applyMcpLog({}, live);
    logs = applyMcpLog(logs, older);
    expect(logs.a!.map((l) => l.text)).toEqual(['from the history', 'live']);
  });

  it('shows data as text: strings as they are, other JSON as JSON, long text cut', () => {
    expect(logText('plain <b>text</b>')).toBe('plain <b>text</b>');
    expect(logText(null)).toBe('null');
    expect(logText([1, { a: true }])).toBe('[1,{"a":true}]');
    expect(logText(undefined)).toBe('undefined');
    expect(logText('y'.repeat(MAX_LOG_TEXT + 5))).toBe(`${'y'.repeat(MAX_LOG_TEXT)}…`);
  });
});
