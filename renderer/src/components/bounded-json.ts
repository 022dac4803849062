/**
 * Compact JSON of a value, cut at `budget` characters, built piece by piece so a 5 MB argument costs no
 * more than the few characters a one-line summary shows (JSON.stringify would write all of it first).
 * Never throws: a value JSON cannot hold (a BigInt, a cycle) shows as text.
 */
export function boundedJson(value: unknown, budget: number): string {
  const out: string[] = [];
  let size = 0;
  const push = (piece: string) => {
    out.push(piece);
    size += piece.length;
  };
  const seen = new Set<object>();
  const walk = (v: unknown): void => {
    if (size >= budget) return;
    if (typeof v === 'string') {
      push(JSON.stringify(v.length > budget ? v.slice(0, budget) : v));
      return;
    }
    if (typeof v === 'bigint') {
      push(String(v));
      return;
    }
    if (v === null || typeof v !== 'object') {
      push(JSON.stringify(v) ?? 'null');
      return;
    }
    const json = (v as { toJSON?: unknown }).toJSON;
    if (typeof json === 'function') {
      walk(json.call(v));
      return;
    }
    if (seen.has(v)) {
      push('[Circular]');
      return;
    }
    seen.add(v);
    if (Array.isArray(v)) {
      push('[');
      for (let i = 0; i < v.length && size < budget; i++) {
        if (i > 0) push(',');
        walk(v[i]);
      }
      push(']');
    } else {
      push('{');
      let first = true;
      for (const key in v) {
        if (size >= budget) break;
        if (!Object.hasOwn(v, key)) continue;
        const field = (v as Record<string, unknown>)[key];
        if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue;
        push(`${first ? '' : ','}${JSON.stringify(key)}:`);
        first = false;
        walk(field);
      }
      push('}');
    }
    seen.delete(v);
  };
  walk(value);
  const text = out.join('');
  return text.length > budget ? text.slice(0, budget) : text;
}
