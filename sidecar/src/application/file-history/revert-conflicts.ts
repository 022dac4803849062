import type { TurnFiles } from '../../store/turn-files-repo';
import type { ProjectSnapshots } from '../../tools/snapshots/project-snapshots';
import type { PathChange } from '../../tools/snapshots/snapshot-tree';

/**
 * The paths that something other than the turns being undone changed, which a revert must not overwrite
 * unasked:
 * - what changed between those turns, and since the last one ended (`now`): the user's edits, kernel cells
 *   they ran, background calls, other sessions;
 * - what changed while one of them ran but outside its tool calls (recorded as the turn ended);
 * - everything from a turn Cairn stopped during (its changes cannot be told from what came after), up to the
 *   next recording;
 * - what the project's other sessions' turns changed since the first undone turn began.
 */
export async function changedByOthers(
  project: ProjectSnapshots,
  undone: TurnFiles[],
  others: TurnFiles[],
  now: string,
): Promise<Set<string>> {
  const paths = new Set<string>();
  const add = async (from: string, to: string) => {
    for (const change of await project.changes(from, to)) paths.add(change.path);
  };
  const recorded = undone.filter((t) => t.before);
  for (const [i, turn] of recorded.entries()) {
    for (const path of turn.foreign) paths.add(path);
    const next = recorded[i + 1]?.before ?? now;
    await add(turn.after ?? turn.before!, next);
  }
  for (const other of others) {
    if (other.before && other.after) await add(other.before, other.after);
  }
  return paths;
}

/**
 * Which of a revert's changes (from the files now to the target) to make, and which of them would overwrite
 * someone else's work: paths in `others`, and files the last scan left out (ignored now) that are on disk
 * with other content. Such a file with the target's content needs nothing; a folder the undone turns made
 * where the file was is no conflict when the restore removes its recorded files first.
 */
export async function planRevert(
  project: ProjectSnapshots,
  root: string,
  changes: PathChange[],
  others: Set<string>,
): Promise<{ conflicts: string[]; toApply: PathChange[] }> {
  const conflicts: string[] = [];
  const toApply: PathChange[] = [];
  for (const change of changes) {
    let disk: Awaited<ReturnType<ProjectSnapshots['onDisk']>> = 'missing';
    if (change.before === null && change.after) disk = await project.onDisk(root, change.path, change.after);
    if (disk === 'folder') {
      const prefix = `${change.path}/`;
      disk = changes.some((c) => c.after === null && c.path.startsWith(prefix)) ? 'missing' : 'different';
    }
    if (disk === 'same') continue;
    if (others.has(change.path) || disk === 'different') conflicts.push(change.path);
    toApply.push(change);
  }
  return { conflicts, toApply };
}
