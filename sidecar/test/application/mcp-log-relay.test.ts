import { describe, expect, it } from 'vitest';
import { boundLogData, MCP_LOG_LIMITS, McpLogRelay } from '../../src/application/mcp/mcp-log-relay';
import { MCP_LIMITS, type McpLogLevel } from '../../src/protocol';
import { waitFor } from '../mcp/support/mcp-servers';

describe('McpLogRelay: a server’s log messages on their way to the journal, bounded', () => {
  it('passes a few a second and notes how many it left out once the second ends', async () => {
    const out: [McpLogLevel, unknown][] = [];
    const relay = new McpLogRelay((level, data) => out.push([level, data]));
    for (let i = 0; i < 200; i++) relay.log('info', `line ${i}`);
    expect(out.length).toBeLessThanOrEqual(2 * MCP_LOG_LIMITS.perSecond);
    expect(out[0]).toEqual(['info', 'line 0']);
    await waitFor(() => out.some(([, d]) => String(d).includes('left out')), 5_000, 'the note');
    const note = out.find(([, d]) => String(d).includes('left out'))!;
    const passed = out.filter(([, d]) => String(d).startsWith('line ')).length;
    expect(note).toEqual([
      'warning',
      `[Cairn: ${200 - passed} log messages from this server left out: it sent more than ${MCP_LOG_LIMITS.perSecond} a second]`,
    ]);
    relay.close();
  });

  it('stops after its limit per connection, saying so once', () => {
    const out: unknown[] = [];
    const relay = new McpLogRelay((_level, data) => out.push(data), { perSecond: 1_000, perConnection: 5 });
    for (let i = 0; i < 20; i++) relay.log('debug', i);
    expect(out.slice(0, 5)).toEqual([0, 1, 2, 3, 4]);
    expect(out.slice(5)).toEqual([
      '[Cairn: this server has sent 5 log messages; further ones are not shown until it is started again]',
    ]);
    relay.close();
  });

  it('redacts credentials in what a server logs (it may echo a secret it was started with)', () => {
    const token = 'abcdef0123456789abcdef';
    const out = boundLogData({ request: { headers: { authorization: `Bearer ${token}` } }, note: 'ok' });
    expect(JSON.stringify(out)).not.toContain(token);
    expect(out).toEqual({ request: { headers: { authorization: '[REDACTED]' } }, note: 'ok' });
    expect(boundLogData(`sent Authorization: Bearer ${token}`)).toBe('sent Authorization: Bearer [REDACTED]');
  });

  it('cuts large data to marked text and leaves small data as it was', () => {
    expect(boundLogData({ a: [1, 'two'] })).toEqual({ a: [1, 'two'] });
    expect(boundLogData(undefined)).toBeUndefined();
    const cut = boundLogData({ blob: 'x'.repeat(20_000) }) as string;
    expect(typeof cut).toBe('string');
    expect(cut.startsWith('{"blob":"xxx')).toBe(true);
    expect(cut).toMatch(/… \[Cairn: cut; 20011 characters in all\]$/);
    expect(cut.length).toBeLessThan(MCP_LIMITS.logDataChars + 100);
  });
});
