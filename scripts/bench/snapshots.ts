import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ProjectSnapshots } from '../../sidecar/src/tools/snapshots/project-snapshots';
import { gitStatus, makeBenchProject, text } from './snapshot-project';
import { median, ms, prng, type Row, ratio, tempDir } from './util';

export interface SnapshotBenchOptions {
  files: number;
  folders: number;
  nodeModules: number;
  runs: number;
  warmup: number;
}

const SECTION_PREFIX = '(l) recording a turn’s file changes';

/** What a turn does to the project: 10 files edited, 2 added, 1 deleted. Returns the expected changes. */
function turnEdits(root: string, unused: string[], turn: number, next: () => number): Map<string, string> {
  const expected = new Map<string, string>();
  const abs = (rel: string) => path.join(root, ...rel.split('/'));
  for (let i = 0; i < 10; i++) {
    const rel = unused.pop()!;
    const lines = fs.readFileSync(abs(rel), 'utf8').split('\n');
    lines.splice(Math.floor(lines.length / 2), 1, `// changed by turn ${turn}`);
    fs.writeFileSync(abs(rel), `${lines.join('\n')}${text(next, 80)}`);
    expected.set(rel, 'modified');
  }
  for (const name of ['a', 'b']) {
    const rel = `area-0${turn % 10}/mod-${turn % 10}/added-${turn}-${name}.ts`;
    fs.writeFileSync(abs(rel), text(next, 600));
    expected.set(rel, 'added');
  }
  const gone = unused.pop()!;
  fs.rmSync(abs(gone));
  expected.set(gone, 'deleted');
  return expected;
}

function check(what: string, ok: boolean, detail: () => string): void {
  if (!ok)
    throw new Error(
      `(l) ${what}: ${detail()} — the snapshot engine recorded something else than the bench did`,
    );
}

/**
 * (l) Cairn's snapshot engine (in process, a data folder of its own) on a project of 10,000 files with
 * a skipped `node_modules`, against `git status --porcelain` of the same committed tree, warm.
 */
export async function benchSnapshots(
  options: SnapshotBenchOptions,
  log: (what: string) => void,
): Promise<Row[]> {
  const root = tempDir('snapshots-project');
  log(
    `(l) writing ${options.files.toLocaleString('en-US')} files and a ${options.nodeModules}-file node_modules`,
  );
  const project = await makeBenchProject(root, options);

  log('(l) git status, warm');
  gitStatus(root);
  gitStatus(root);
  const gitTimes: number[] = [];
  for (let i = 0; i < options.runs; i++) {
    const started = performance.now();
    const out = gitStatus(root);
    gitTimes.push(performance.now() - started);
    check('git status of the committed tree', out === '', () => out.slice(0, 200));
  }
  const git = median(gitTimes);

  const snapshots = new ProjectSnapshots(tempDir('snapshots-data'));
  log('(l) first recording (cold)');
  let started = performance.now();
  const first = await snapshots.record(root);
  const coldMs = performance.now() - started;
  const recorded = [...(await snapshots.trees.files(first.tree)).keys()].sort();
  check('the files of the first recording', recorded.join('\n') === project.paths.join('\n'), () => {
    const missing = project.paths.filter((p) => !recorded.includes(p)).slice(0, 5);
    const extra = recorded.filter((p) => !project.paths.includes(p)).slice(0, 5);
    return `${recorded.length} files, missing ${missing.join(', ') || 'none'}, extra ${extra.join(', ') || 'none'}`;
  });

  log('(l) recordings with nothing changed');
  const idleTimes: number[] = [];
  for (let i = 0; i < options.warmup + options.runs; i++) {
    started = performance.now();
    const again = await snapshots.record(root);
    if (i >= options.warmup) idleTimes.push(performance.now() - started);
    check('a recording of the unchanged tree', again.tree === first.tree, () => `tree ${again.tree}`);
  }

  log('(l) turns: record, change 13 files, record, diff');
  const next = prng(7);
  const unused = project.paths.filter((p) => p !== '.gitignore').sort(() => next() - 0.5);
  const parts = {
    before: [] as number[],
    after: [] as number[],
    diff: [] as number[],
    total: [] as number[],
  };
  for (let turn = 0; turn < options.warmup + options.runs; turn++) {
    let t = performance.now();
    const before = await snapshots.record(root);
    const beforeMs = performance.now() - t;
    const expected = turnEdits(root, unused, turn, next);
    t = performance.now();
    const after = await snapshots.record(root);
    const afterMs = performance.now() - t;
    t = performance.now();
    const changes = await snapshots.fileChanges(await snapshots.changes(before.tree, after.tree));
    const diffMs = performance.now() - t;
    const found = changes.map((c) => `${c.path} ${c.status}`).join('\n');
    const wanted = [...expected]
      .map(([p, s]) => `${p} ${s}`)
      .sort()
      .join('\n');
    check(`turn ${turn}'s changes`, found === wanted, () => `found\n${found}\nexpected\n${wanted}`);
    check(
      `turn ${turn}'s diffs`,
      changes.every((c) => c.diff !== null && (c.status === 'deleted' ? c.deletions : c.additions) > 0),
      () => found,
    );
    if (turn >= options.warmup) {
      parts.before.push(beforeMs);
      parts.after.push(afterMs);
      parts.diff.push(diffMs);
      parts.total.push(beforeMs + afterMs + diffMs);
    }
  }

  const section = `${SECTION_PREFIX}, ${options.files.toLocaleString('en-US')} files + ${options.nodeModules.toLocaleString('en-US')} in node_modules`;
  const vsGit = 'reference: git status --porcelain of the committed tree, warm';
  const idle = median(idleTimes);
  const total = median(parts.total);
  return [
    {
      section,
      what: 'a turn: record before, 10 edited + 2 added + 1 deleted, record after, diffs',
      value: ms(total, 1),
      reference: ms(git, 1),
      ratio: ratio(total, git),
      note: `median of ${options.runs}; ${vsGit}`,
    },
    {
      section,
      what: '  of which: the recording before',
      value: ms(median(parts.before), 1),
      note: 're-reads the previous turn’s files (written < 2 s ago: racy, as in git)',
    },
    {
      section,
      what: '  of which: the recording after',
      value: ms(median(parts.after), 1),
    },
    {
      section,
      what: '  of which: the 13 changes with their diffs',
      value: ms(median(parts.diff), 1),
    },
    {
      section,
      what: 'a recording with nothing changed',
      value: ms(idle, 1),
      reference: ms(git, 1),
      ratio: ratio(idle, git),
      note: `median of ${options.runs}; ${vsGit}`,
    },
    {
      section,
      what: `the first recording (every file read and stored, ${first.files} files)`,
      value: ms(coldMs, 0),
      reference: ms(project.gitAddMs, 0),
      ratio: ratio(coldMs, project.gitAddMs),
      note: 'once; reference: git add -A of the same files into a fresh repository',
    },
  ];
}
