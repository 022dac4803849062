import { describe, expect, it } from 'vitest';
import { LineFramer } from '../../src/kernels/line-framer';

/**
 * Frames `chunks` and returns what came out, in order. A line `P <n>` announces an n-byte payload, as a
 * driver's stream header does; `end` calls end() after the last chunk.
 */
function frame(chunks: (string | Buffer)[], max: number, opts: { maxPayload?: number; end?: boolean } = {}) {
  const out: string[] = [];
  const payloads: Buffer[] = [];
  const framer: LineFramer = new LineFramer(
    {
      onLine: (line) => {
        const text = line.toString('utf8');
        out.push(`line:${text}`);
        const announced = /^P (\d+)$/.exec(text);
        if (announced) framer.readPayload(Number(announced[1]));
      },
      onPayload: (payload) => {
        payloads.push(Buffer.from(payload)); // a copy: the framer may hand out views of its chunks
        out.push(`payload:${payload.toString('utf8')}`);
      },
      onOverflow: (head, bytes) => out.push(`overflow:${head.toString('utf8')}:${bytes}`),
      onTruncated: (head, bytes) => out.push(`truncated:${head.toString('utf8')}:${bytes}`),
    },
    max,
    opts.maxPayload,
  );
  for (const chunk of chunks) framer.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  if (opts.end) framer.end();
  return { out, payloads };
}

/** The bytes of `input` one by one, then in pseudo-random pieces (fixed seed), then whole. */
function splits(input: Buffer): Buffer[][] {
  const bytes = [...input].map((b) => Buffer.from([b]));
  let seed = 7;
  const pieces: Buffer[] = [];
  for (let at = 0; at < input.length; ) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const size = 1 + (seed % 9);
    pieces.push(input.subarray(at, at + size));
    at += size;
  }
  return [bytes, pieces, [input]];
}

describe('LineFramer lines', () => {
  it('splits lines across and within chunks, keeping a character split between chunks whole', () => {
    const euro = Buffer.from('€');
    expect(
      frame(
        ['ab', 'c\nd\n\ne', Buffer.concat([Buffer.from('x'), euro.subarray(0, 1)]), euro.subarray(1), '\n'],
        100,
      ).out,
    ).toEqual(['line:abc', 'line:d', 'line:', 'line:ex€']);
  });

  it('keeps a line of exactly the limit and holds back a line without its newline', () => {
    expect(frame(['12345\n', '123'], 5).out).toEqual(['line:12345']);
  });

  it('drops a line over the limit up to its newline, reports its head once, and goes on', () => {
    expect(frame(['{"type":"re', 'sult"}', 'more', 'and more\nnext\n'], 20).out).toEqual([
      'overflow:{"type":"result"}more:29',
      'line:next',
    ]);
    expect(frame(['123456789\nok\n'], 8).out).toEqual(['overflow:123456789:9', 'line:ok']);
  });
});

describe('LineFramer payloads', () => {
  // Newlines, a 2-, 3- and 4-byte character, and text that looks like a header or a message: all payload.
  const text = 'first\n\nP 3\n{"type":"result"}\né € 😀 end\n';
  const payload = Buffer.from(text);
  const input = Buffer.concat([
    Buffer.from(`P ${payload.length}\n`),
    payload,
    Buffer.from('after\nP 0\nP 2\n'),
    Buffer.from('😀').subarray(0, 2), // a payload may hold any bytes; it is delivered as they are
    Buffer.from('last\n'),
  ]);

  it.each(splits(input).map((chunks) => [chunks.length, chunks]))(
    'delivers payloads whole and in order however the input is cut (%i chunks)',
    (_count, chunks) => {
      const { out, payloads } = frame(chunks, 64);
      expect(out).toEqual([
        `line:P ${payload.length}`,
        `payload:${text}`,
        'line:after',
        'line:P 0',
        'payload:',
        'line:P 2',
        `payload:${Buffer.from('😀').subarray(0, 2).toString('utf8')}`,
        'line:last',
      ]);
      expect(payloads[0]!.equals(payload)).toBe(true);
      expect(payloads[2]!.equals(Buffer.from('😀').subarray(0, 2))).toBe(true);
    },
  );

  it('takes a payload of exactly the cap, and caps payloads and lines separately', () => {
    expect(frame(['P 12\n', 'abcdefghijkl', 'x\n'], 5, { maxPayload: 12 }).out).toEqual([
      'line:P 12',
      'payload:abcdefghijkl',
      'line:x',
    ]);
    // The line cap still holds right after a payload.
    expect(frame(['P 2\nab123456\nok\n'], 5, { maxPayload: 12 }).out).toEqual([
      'line:P 2',
      'payload:ab',
      'overflow:123456:6',
      'line:ok',
    ]);
  });

  const skipped = 'fake\n{"type":"result"}\nzzzzzzz'; // 30 bytes
  it.each(splits(Buffer.from(`P ${skipped.length}\n${skipped}ok\n`)).map((c) => [c.length, c]))(
    'skips a payload announced over the cap, reports its header once it has passed, and stays in step (%i chunks)',
    (_count, chunks) => {
      const { out, payloads } = frame(chunks, 64, { maxPayload: 29 });
      expect(out).toEqual(['line:P 30', 'overflow:P 30:30', 'line:ok']);
      expect(payloads).toEqual([]);
    },
  );

  it('reports a payload cut short by the end of the input, delivers none of it, and starts afresh', () => {
    const out: string[] = [];
    const framer: LineFramer = new LineFramer({
      onLine: (line) => {
        out.push(`line:${line.toString('utf8')}`);
        if (line.toString('utf8') === 'P 10') framer.readPayload(10);
      },
      onPayload: (payload) => out.push(`payload:${payload.toString('utf8')}`),
      onOverflow: (head, bytes) => out.push(`overflow:${head.toString('utf8')}:${bytes}`),
      onTruncated: (head, bytes) => out.push(`truncated:${head.toString('utf8')}:${bytes}`),
    });
    for (const byte of Buffer.from('P 10\nab\ncd')) framer.push(Buffer.from([byte]));
    framer.end();
    expect(out).toEqual(['line:P 10', 'truncated:P 10:5']);
    framer.push(Buffer.from('next\n'));
    expect(out.at(-1)).toBe('line:next');
  });

  it('reports a skipped payload or a line cut short by the end of the input, and nothing when it ends clean', () => {
    expect(frame(['P 30\n', 'abc'], 64, { maxPayload: 10, end: true }).out).toEqual([
      'line:P 30',
      'truncated:P 30:3',
    ]);
    expect(frame(['ok\n', 'half a li', 'ne'], 64, { end: true }).out).toEqual([
      'line:ok',
      'truncated:half a line:11',
    ]);
    expect(frame(['123456789'], 5, { end: true }).out).toEqual(['truncated:123456789:9']);
    expect(frame(['ok\nP 2\nab'], 64, { end: true }).out).toEqual(['line:ok', 'line:P 2', 'payload:ab']);
  });

  it('refuses a payload length that is not a byte count', () => {
    const framer = new LineFramer({ onLine: () => {}, onPayload: () => {}, onOverflow: () => {} });
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 53])
      expect(() => framer.readPayload(bad)).toThrow(RangeError);
  });
});
