import { describe, expect, it } from 'vitest';
import { EventPrinter } from '../../src/cli/event-printer';
import type { CairnEvent } from '../../src/protocol';
import { capture } from '../support/captured-stream';

const event = (state: string, extra: Record<string, unknown> = {}) =>
  ({
    type: 'mcp.server',
    seq: 1,
    session_id: 'ses_1',
    turn_id: 'trn_1',
    time: new Date(0).toISOString(),
    server_id: 'mcp_1',
    name: 'github',
    state,
    error: null,
    tools: 0,
    ...extra,
  }) as CairnEvent;

describe('cairn run: MCP servers starting for a turn', () => {
  it('shows each server starting, ready with its tools, or what went wrong, on stderr', async () => {
    const out = capture();
    const err = capture();
    const printer = new EventPrinter(false, out.stream, err.stream);
    printer.print(event('connecting'));
    printer.print(event('connected', { tools: 12 }));
    printer.print(event('failed', { error: 'spawn npx ENOENT' }));
    printer.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.text()).toBe('');
    expect(err.text()).toContain('MCP server "github" is starting');
    expect(err.text()).toContain('MCP server "github" is ready (12 tools)');
    expect(err.text()).toContain('✗ MCP server "github" failed: spawn npx ENOENT');
  });

  it('says which server waits for a login, and where, with hidden characters shown', async () => {
    const out = capture();
    const err = capture();
    const printer = new EventPrinter(false, out.stream, err.stream);
    printer.print(
      event('auth_required', {
        authorization_url: 'https://auth.example.com/authorize?x=1\u202e',
        error: 'needs a login',
      }),
    );
    printer.print(event('auth_required', { authorization_url: null, error: 'logins are refused here' }));
    printer.print(event('failed', { error: 'the server said \u001b[2J\u001b]0;pwned\u0007 no' }));
    printer.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(err.text()).toContain(
      'MCP server "github" waits for you to log in: open https://auth.example.com/authorize?x=1',
    );
    expect(err.text()).not.toContain('\u202e');
    expect(err.text()).toContain('✗ MCP server "github" needs a login: logins are refused here');
    // An authorization server's words reach the terminal as text, never as control sequences.
    expect(err.text()).not.toContain('\u001b');
    expect(err.text()).toContain('the server said \\u001b[2J');
  });

  it('shows a running call’s progress on one line, the server’s message with hidden characters shown', async () => {
    const out = capture();
    const err = capture();
    const printer = new EventPrinter(false, out.stream, err.stream);
    const progress = (p: number, total: number | null, message: string | null) =>
      ({
        ...(event('x') as object),
        type: 'tool.progress',
        tool_call_id: 'tc_1',
        progress: p,
        total,
        message,
      }) as CairnEvent;
    printer.print(progress(3, 10, 'copying\nfiles\u202e'));
    printer.print(progress(42, null, null));
    printer.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(err.text()).toContain('… 3 of 10: copying files');
    expect(err.text()).not.toContain('\u202e');
    expect(err.text()).toContain('… 42 so far');
  });
});
