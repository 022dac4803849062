import { describe, expect, it } from 'vitest';
import { type FrameLike, IPC_CHANNELS, isTrustedSender } from '../src/ipc-policy';

function frame(
  url: string,
  parent: FrameLike | null = null,
  ids = { processId: 4, routingId: 1 },
): FrameLike {
  return { url, parent, ...ids };
}

const main = frame('app://cairn/');

describe('IPC sender policy', () => {
  const cases: [string, FrameLike | null, FrameLike | null, boolean][] = [
    ['the window main frame on app://cairn', main, main, true],
    ['a fresh wrapper of the same frame (same process and routing ids)', frame('app://cairn/x'), main, true],
    ['a subframe of our window', frame('app://cairn/', main, { processId: 4, routingId: 2 }), main, false],
    ['a subframe that claims our ids', frame('app://cairn/', main), main, false],
    ['our main frame after navigating to another origin', { ...main, url: 'https://evil.com/' }, main, false],
    ['a main frame showing file://', { ...main, url: 'file:///index.html' }, main, false],
    ['a main frame showing app://cairn.evil.com', { ...main, url: 'app://cairn.evil.com/' }, main, false],
    ['a frame that is gone (null)', null, main, false],
    ["another window's main frame", frame('app://cairn/', null, { processId: 9, routingId: 1 }), main, false],
    ['any frame when there is no window', main, null, false],
    [
      'a frame without ids that is not the same object',
      { url: 'app://cairn/', parent: null },
      { url: 'app://cairn/', parent: null },
      false,
    ],
  ];

  it.each(cases)('%s → %s', (_name, sender, mainFrame, trusted) => {
    expect(isTrustedSender({ senderFrame: sender }, mainFrame)).toBe(trusted);
  });

  it('names seven distinct channels, all under cairn:', () => {
    const channels = Object.values(IPC_CHANNELS);
    expect(channels).toHaveLength(7);
    expect(new Set(channels).size).toBe(7);
    for (const channel of channels) expect(channel).toMatch(/^cairn:[a-z-]+$/);
  });
});
