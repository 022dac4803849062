// @vitest-environment happy-dom
import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { turnFromHistory } from '../../src/state/turn-view';
import { useTurnKeys } from '../../src/state/use-turn-keys';
import { turns } from '../support/sessions-backend';

describe('useTurnKeys', () => {
  const views = turns('ses_keys', 5).map(turnFromHistory);

  it('keeps the same key function while the ids are the same, whatever the array', () => {
    const { result, rerender } = renderHook(({ list }) => useTurnKeys(list), {
      initialProps: { list: views },
    });
    const first = result.current;
    expect(views.map((_, i) => first(i))).toEqual(views.map((v) => v.turn.id));
    // A delta replaces one view: a new array and a new object, the same ids.
    const streamed = views.slice();
    streamed[4] = { ...views[4]!, items: [] };
    rerender({ list: streamed });
    expect(result.current).toBe(first);
  });

  it('gives a new key function when turns come or go, keyed by their ids', () => {
    const { result, rerender } = renderHook(({ list }) => useTurnKeys(list), {
      initialProps: { list: views.slice(2) },
    });
    const first = result.current;
    rerender({ list: views });
    expect(result.current).not.toBe(first);
    expect(result.current(0)).toBe(views[0]!.turn.id);
    expect(result.current(99)).toBe(99);
  });
});
