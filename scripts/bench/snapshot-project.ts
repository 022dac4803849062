import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { prng } from './util';

export interface BenchProjectOptions {
  /** Files recorded (and tracked by git), besides `.gitignore`. */
  files: number;
  /** Leaf folders they are spread over (10 per top folder). */
  folders: number;
  /** Files in `node_modules`, which neither git nor Cairn may read. */
  nodeModules: number;
}

export interface BenchProject {
  root: string;
  /** The recorded files, `/`-separated, `.gitignore` included. */
  paths: string[];
  /** How long `git add -A` took on the fresh repository: git reading, hashing and storing every file. */
  gitAddMs: number;
}

const WORDS = (
  'const let return import export from function async await if else for while class interface type ' +
  'value result error data file path config options request response cache index table query build'
).split(' ');

/** Lines of words, about `bytes` long. */
export function text(next: () => number, bytes: number): string {
  const lines: string[] = [];
  let length = 0;
  while (length < bytes) {
    const words = Array.from(
      { length: 3 + Math.floor(next() * 9) },
      () => WORDS[Math.floor(next() * WORDS.length)]!,
    );
    const line = `${'  '.repeat(Math.floor(next() * 3))}${words.join(' ')};`;
    lines.push(line);
    length += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

const EXTENSIONS = ['ts', 'ts', 'ts', 'md', 'json', 'py', 'css'];

function git(root: string, ...args: string[]): string {
  // A user given on the command line: the machine's global config is neither needed nor changed.
  return execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', ...args], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
}

export function gitStatus(root: string): string {
  return git(root, 'status', '--porcelain');
}

/**
 * A project like a real one: `files` small text files (200 B to 4 KB) in `folders` folders, a `.gitignore`
 * excluding `dist/`, `*.log` and `node_modules/` (all present), committed to its own git repository.
 */
export async function makeBenchProject(root: string, options: BenchProjectOptions): Promise<BenchProject> {
  const next = prng(18);
  const write = (rel: string, content: string) => {
    const abs = path.join(root, ...rel.split('/'));
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  };
  const paths = ['.gitignore'];
  write('.gitignore', 'node_modules/\ndist/\n*.log\n');
  const perFolder = Math.ceil(options.files / options.folders);
  for (let i = 0; i < options.files; i++) {
    const folder = Math.floor(i / perFolder);
    const ext = EXTENSIONS[Math.floor(next() * EXTENSIONS.length)]!;
    const rel = `area-${String(Math.floor(folder / 10)).padStart(2, '0')}/mod-${folder % 10}/file-${String(i % perFolder).padStart(3, '0')}.${ext}`;
    write(rel, text(next, 200 + Math.floor(next() ** 2 * 3800)));
    paths.push(rel);
  }
  for (let i = 0; i < options.nodeModules; i++) {
    write(`node_modules/pkg-${Math.floor(i / 50)}/lib/file-${i % 50}.js`, text(next, 500));
  }
  for (let i = 0; i < 100; i++) write(`dist/chunk-${i}.js`, text(next, 1000));
  for (let i = 0; i < 20; i++) write(`server-${i}.log`, text(next, 300));
  const written = Date.now();

  git(root, 'init', '-q');
  const started = performance.now();
  git(root, 'add', '-A');
  const gitAddMs = performance.now() - started;
  git(root, 'commit', '-q', '-m', 'bench project');
  // Files written less than 2 s before they are read count as possibly changed again (racy, as in git),
  // so both git and Cairn would read them again on every run: wait until the tree has settled.
  const settle = written + 2100 - Date.now();
  if (settle > 0) await new Promise((resolve) => setTimeout(resolve, settle));
  return { root, paths: paths.sort(), gitAddMs };
}
