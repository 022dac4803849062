/**
 * Old ids to new ones, applied to every string inside a value: an id stands alone (`tool_call_id`) or
 * inside a text (a result file's path). Ids are long and random, so a match is never a coincidence.
 */
export class IdRemap {
  private readonly map = new Map<string, string>();
  private pattern: RegExp | null = null;

  set(oldId: string, newId: string): string {
    // Short strings could occur by chance in text: only real ids (a prefix and a random tail) are mapped.
    if (oldId.length >= 8) {
      this.map.set(oldId, newId);
      this.pattern = null;
    }
    return newId;
  }

  get(oldId: string): string | undefined {
    return this.map.get(oldId);
  }

  text(value: string): string {
    if (this.map.size === 0) return value;
    this.pattern ??= new RegExp(
      [...this.map.keys()]
        .sort((a, b) => b.length - a.length)
        .map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('|'),
      'g',
    );
    return value.replace(this.pattern, (id) => this.map.get(id) ?? id);
  }

  /** A deep copy of `value` with every string mapped (keys too: maps keyed by id), then passed to `then`. */
  deep<T>(value: T, then: (s: string) => string = (s) => s): T {
    return walk(value, (s) => then(this.text(s))) as T;
  }
}

function walk(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((v) => walk(v, fn));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [fn(k), walk(v, fn)]));
  }
  return value;
}
