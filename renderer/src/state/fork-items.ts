import type { ForkInfo } from '../../../sidecar/src/protocol';

/** The forks a turn spawned, as one group in its flow. */
export interface ForksItem {
  kind: 'forks';
  key: 'forks';
  forks: ForkInfo[];
}

/** Anything a list of a turn's items may hold; tool items are looked into for their name. */
type AnyItem = { kind: string; key: string; card?: { name: string } };

/** The model's tool that spawns and gathers forks; its first card is where the group goes. */
const FORK_TOOL = 'Fork';

/** The list with `fork` in it: replaced where it was, else added at the end (forks come oldest first). */
export function upsertFork(forks: readonly ForkInfo[], fork: ForkInfo): ForkInfo[] {
  const index = forks.findIndex((f) => f.fork_id === fork.fork_id);
  if (index === -1) return [...forks, fork];
  const next = forks.slice();
  next[index] = fork;
  return next;
}

/** The forks of each turn, in the order given. */
export function forksByTurn(forks: readonly ForkInfo[]): Map<string, ForkInfo[]> {
  const byTurn = new Map<string, ForkInfo[]>();
  for (const fork of forks) byTurn.set(fork.turn_id, [...(byTurn.get(fork.turn_id) ?? []), fork]);
  return byTurn;
}

/**
 * A turn's items with its forks group holding `forks`: the group stays where it is, or goes right after
 * the first Fork card (the spawn), or at the end when the turn has none. No forks: the items as they are.
 */
export function placeForks<T extends AnyItem>(items: readonly (T | ForksItem)[], forks: ForkInfo[]) {
  const index = items.findIndex((i) => i.kind === 'forks');
  if (index !== -1) {
    const next = items.slice();
    next[index] = { kind: 'forks', key: 'forks', forks };
    return next;
  }
  if (forks.length === 0) return items.slice();
  const group: ForksItem = { kind: 'forks', key: 'forks', forks };
  const spawn = items.findIndex((i) => i.kind === 'tool' && (i as AnyItem).card?.name === FORK_TOOL);
  if (spawn === -1) return [...items, group];
  return [...items.slice(0, spawn + 1), group, ...items.slice(spawn + 1)];
}

/** A turn's items after a `fork.updated`: the fork's row changed, or added to the group. */
export function applyForkUpdate<T extends AnyItem>(items: readonly (T | ForksItem)[], fork: ForkInfo) {
  const group = items.find((i): i is ForksItem => i.kind === 'forks');
  return placeForks(items, upsertFork(group?.forks ?? [], fork));
}
