import { realDir } from '../config/real-dir';
import type { SandboxSpec } from './sandbox';

/**
 * The sandbox-exec profile (SBPL) of a spec, with bubblewrap's intent as far as macOS allows: writes only to
 * the project, the spec's writable folders and the temporary folders; Cairn's data directory unreadable but
 * for what must be reachable; no signals to or inspection of processes outside the sandbox; no network when
 * it is off, but for the tool endpoint's socket. macOS has no private /tmp or process namespace: /tmp is
 * shared and other processes still exist. In SBPL the last matching rule wins, so exceptions come after.
 */
export function macosSandboxProfile(spec: SandboxSpec): string {
  const lines = ['(version 1)', '(allow default)'];
  lines.push('(deny file-write*)');
  const writable = [spec.projectRoot, ...spec.writable].map(realDir);
  lines.push(
    `(allow file-write* ${[...writable, '/private/tmp', '/private/var/folders'].map(subpath).join(' ')}` +
      ' (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (literal "/dev/dtracehelper")' +
      ' (regex #"^/dev/fd/"))',
  );
  if (spec.hidden.length > 0) {
    lines.push(`(deny file-read* file-write* ${spec.hidden.map(realDir).map(subpath).join(' ')})`);
    const readable = [...spec.readable, ...spec.sockets].map(realDir);
    if (readable.length > 0) lines.push(`(allow file-read* ${readable.map(subpath).join(' ')})`);
    // A writable folder inside a hidden one (the session's results) is readable and writable again.
    lines.push(`(allow file-read* file-write* ${writable.map(subpath).join(' ')})`);
  }
  lines.push('(deny process-info*)', '(allow process-info* (target same-sandbox))');
  lines.push('(deny signal)', '(allow signal (target same-sandbox))');
  if (!spec.network) {
    lines.push('(deny network*)');
    for (const dir of spec.sockets.map(realDir)) {
      lines.push(`(allow network-outbound (remote unix-socket ${subpath(dir)}))`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** A path in SBPL's string syntax: a quoted string with `"` and `\` escaped. */
export function sbplString(text: string): string {
  return `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

function subpath(dir: string): string {
  return `(subpath ${sbplString(dir)})`;
}
