import { describe, expect, it } from 'vitest';
import { EventPrinter } from '../../src/cli/event-printer';
import type { CairnEvent } from '../../src/protocol';
import { capture } from '../support/captured-stream';
import { summaryOf } from '../support/context-script';

const base = { seq: 1, session_id: 'ses_1', turn_id: 'trn_1', time: new Date(0).toISOString() };
const events = [
  { ...base, type: 'context.compaction_started', level: 'block', reason: 'threshold', tokens_before: 9000 },
  {
    ...base,
    type: 'context.compacted',
    version: 2,
    level: 'block',
    reason: 'threshold',
    tokens_before: 9000,
    tokens_after: 4000,
  },
  { ...base, type: 'context.compaction_started', level: 'session', reason: 'agent', tokens_before: 8000 },
  {
    ...base,
    type: 'context.compacted',
    version: 3,
    level: 'session',
    reason: 'agent',
    tokens_before: 8000,
    tokens_after: 900,
    summary: summaryOf('x'),
  },
  {
    ...base,
    type: 'context.compaction_failed',
    level: 'turn',
    reason: 'threshold',
    error: { code: 'cancelled', message: 'The compaction was cancelled with the turn.' },
  },
] as CairnEvent[];

describe('cairn run: compactions', () => {
  it('prints one line per compaction on stderr, with its level and sizes', async () => {
    const out = capture();
    const err = capture();
    const printer = new EventPrinter(false, out.stream, err.stream);
    for (const e of events) printer.print(e);
    printer.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.text()).toBe('');
    expect(err.text().trimEnd().split('\n')).toEqual([
      '⟲ Context compacted (block): about 9000 → 4000 tokens, version 2.',
      '⟲ Context compacted (session): about 8000 → 900 tokens, version 3, with a summary.',
      '⟲ Compaction cancelled: The compaction was cancelled with the turn.',
    ]);
  });

  it('--json emits the events themselves', async () => {
    const out = capture();
    const printer = new EventPrinter(true, out.stream, capture().stream);
    for (const e of events) printer.print(e);
    await new Promise((resolve) => setImmediate(resolve));
    expect(
      out
        .text()
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).type),
    ).toEqual(events.map((e) => e.type));
  });
});
