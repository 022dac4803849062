import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface SidecarDiagnostics {
  /** Where the files go (the app's logs folder). */
  dir: string;
  /** What happened, in a sentence a person can act on. */
  reason: string;
  /** The sidecar's exit code; null when a signal ended it or it was still running when killed. */
  exitCode: number | null;
  /** The last output of the sidecar (stdout and stderr), already free of secrets. */
  outputTail: string;
  appVersion: string;
  /** process.versions of the host: electron, node, chrome and the rest. */
  versions: Record<string, string | undefined>;
  entry: string;
  dataDir: string;
  /** Strings that must never reach the file (tokens), removed again as a last line of defence. */
  secrets?: readonly string[];
  time?: Date;
}

/**
 * Writes a plain-text report of a sidecar failure, for the person to read or attach to a bug
 * report, and returns its path. The name is unique even when two failures share a millisecond.
 */
export function writeSidecarDiagnostics(input: SidecarDiagnostics): string {
  const time = input.time ?? new Date();
  fs.mkdirSync(input.dir, { recursive: true });
  const text = redact(render(input, time), input.secrets ?? []);
  const stamp = time.toISOString().replace(/[:.]/g, '-');
  for (let n = 1; ; n += 1) {
    const file = path.join(input.dir, `sidecar-failure-${stamp}${n === 1 ? '' : `-${n}`}.txt`);
    try {
      fs.writeFileSync(file, text, { flag: 'wx' });
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n >= 100) throw error;
    }
  }
}

function render(input: SidecarDiagnostics, time: Date): string {
  const { electron, node, chrome, ...others } = input.versions;
  const rows: [string, string][] = [
    ['Reason', input.reason],
    ['Exit code', input.exitCode === null ? 'none (ended by a signal or killed)' : String(input.exitCode)],
    ['Time', time.toISOString()],
    ['Cairn', input.appVersion],
    ['Electron', electron ?? 'not running in Electron'],
    ['Node', node ?? 'unknown'],
    ['Chrome', chrome ?? 'not running in Electron'],
    ['OS', `${os.type()} ${os.release()} (${process.platform} ${os.arch()})`],
    ['Sidecar entry', input.entry],
    ['Data directory', input.dataDir],
  ];
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  const otherVersions = Object.entries(others)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, version]) => `${name} ${version}`)
    .join(', ');
  const tail = input.outputTail.trimEnd();
  return [
    'Cairn could not start or keep running its background service (the sidecar).',
    '',
    ...rows.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`),
    '',
    'What to do: restart Cairn. If this keeps happening, check that the data directory is writable',
    'and not used by another Cairn, and send this file with a bug report.',
    '',
    '--- Last output of the sidecar (stdout and stderr) ---',
    tail === '' ? '(no output)' : tail,
    '',
    '--- Other component versions ---',
    otherVersions,
    '',
  ].join('\n');
}

function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length > 0) out = out.split(secret).join('[redacted]');
  return out;
}
