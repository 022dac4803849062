import fs from 'node:fs';
import path from 'node:path';
import { redact } from './redact';

export { redact } from './redact';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

export interface FileLoggerOptions {
  dir: string;
  fileName?: string;
  maxBytes?: number;
  maxFiles?: number;
  level?: LogLevel;
  alsoStderr?: boolean;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const RESERVED = new Set(['time', 'level', 'msg']);
const MAX_DEPTH = 8;
// Owner-only, like everything in the data directory (config/owner-only-files.ts; log/ imports no config).
const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

const noop = (): void => {};
export const silentLogger: Logger = {
  debug: noop,
  info: noop,
  warn: noop,
  error: noop,
  child: () => silentLogger,
};

/**
 * JSON-lines logger appending synchronously to `<dir>/<fileName>` and rotating by size
 * (cairn.log -> cairn.1.log -> ... ; `maxFiles` counts the live file). Lines are redacted as a whole
 * after serialization, so secrets are caught wherever they sit. Never throws into the caller.
 */
export function createFileLogger(opts: FileLoggerOptions): Logger {
  const fileName = opts.fileName ?? 'cairn.log';
  const file = path.join(opts.dir, fileName);
  const maxBytes = Math.max(1, opts.maxBytes ?? 5 * 1024 * 1024);
  const maxFiles = Math.max(1, Math.floor(opts.maxFiles ?? 3));
  const minRank = RANK[opts.level ?? 'info'];
  const ext = path.extname(fileName);
  const stem = path.join(opts.dir, fileName.slice(0, fileName.length - ext.length));
  const rotated = (n: number): string => `${stem}.${n}${ext}`;

  try {
    fs.mkdirSync(opts.dir, { recursive: true, mode: DIR_MODE });
  } catch {
    // Reported nowhere on purpose: logging must not take the app down.
  }

  const rotate = (): void => {
    try {
      fs.rmSync(rotated(maxFiles - 1), { force: true });
      for (let n = maxFiles - 2; n >= 1; n--) {
        if (fs.existsSync(rotated(n))) fs.renameSync(rotated(n), rotated(n + 1));
      }
      if (maxFiles > 1) fs.renameSync(file, rotated(1));
      else fs.rmSync(file, { force: true });
    } catch {
      // A failed rotation leaves the file growing; better than losing the line.
    }
  };

  const append = (line: string): void => {
    // Size comes from the file itself (not a counter) so several loggers on one file stay consistent.
    let size = 0;
    try {
      size = fs.statSync(file).size;
    } catch {
      size = 0;
    }
    if (size > 0 && size + Buffer.byteLength(line) > maxBytes) rotate();
    try {
      fs.appendFileSync(file, line, { mode: FILE_MODE });
    } catch {
      try {
        // The folder may have been removed under us; recreate it once.
        fs.mkdirSync(opts.dir, { recursive: true, mode: DIR_MODE });
        fs.appendFileSync(file, line, { mode: FILE_MODE });
      } catch {
        // Swallowed: see above.
      }
    }
  };

  const write = (level: LogLevel, msg: string, bound: LogFields, fields: LogFields | undefined): void => {
    if (RANK[level] < minRank) return;
    try {
      const line = `${redact(formatLine(level, msg, bound, fields))}\n`;
      append(line);
      if (opts.alsoStderr) {
        try {
          process.stderr.write(line);
        } catch {
          // stderr may be closed when running detached.
        }
      }
    } catch {
      // Serialization or redaction failure: drop the line rather than throw.
    }
  };

  const make = (bound: LogFields): Logger => ({
    debug: (msg, fields) => write('debug', msg, bound, fields),
    info: (msg, fields) => write('info', msg, bound, fields),
    warn: (msg, fields) => write('warn', msg, bound, fields),
    error: (msg, fields) => write('error', msg, bound, fields),
    child: (fields) => make({ ...bound, ...fields }),
  });
  return make({});
}

function formatLine(level: LogLevel, msg: string, bound: LogFields, fields: LogFields | undefined): string {
  const record: Record<string, unknown> = { time: new Date().toISOString(), level, msg };
  const seen = new WeakSet<object>();
  for (const source of [bound, fields ?? {}]) {
    for (const [key, value] of Object.entries(source)) {
      // A field must not overwrite the line's own time/level/msg.
      record[RESERVED.has(key) ? `${key}_` : key] = toLoggable(value, seen, 0);
    }
  }
  return JSON.stringify(record);
}

/** Turns a value into something JSON.stringify renders faithfully (Errors, bigints, cycles, Maps). */
function toLoggable(value: unknown, seen: WeakSet<object>, depth: number): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Truncated]';
  seen.add(value);
  try {
    if (value instanceof Error) return serializeError(value, seen, depth);
    if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
    if (Buffer.isBuffer(value)) return `[Buffer ${value.length} bytes]`;
    if (Array.isArray(value)) return value.map((v) => toLoggable(v, seen, depth + 1) ?? null);
    if (value instanceof Map) {
      return toLoggable(Object.fromEntries([...value].map(([k, v]) => [String(k), v])), seen, depth);
    }
    if (value instanceof Set) return toLoggable([...value], seen, depth);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toLoggable(v, seen, depth + 1);
    return out;
  } finally {
    // Only ancestors count as cycles; the same object twice in siblings is fine.
    seen.delete(value);
  }
}

function serializeError(err: Error, seen: WeakSet<object>, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = { name: err.name, message: err.message };
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') out.code = code;
  if (err.stack) out.stack = err.stack;
  if (err.cause !== undefined) out.cause = toLoggable(err.cause, seen, depth + 1);
  return out;
}
