import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CLIENT_ERROR_CODES,
  ErrorCode,
  ErrorInfo,
  KernelErrorEvent,
  SERVER_ERROR_CODES,
} from '../../src/protocol';

const ROOT = path.resolve(import.meta.dirname, '../../..');
/** Where codes are made: the sidecar, the UI and the desktop host (their tests make up codes on purpose). */
const SOURCE_TREES = ['sidecar/src', 'renderer/src', 'electron/src'];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(rel);
    return /\.tsx?$/.test(entry.name) ? [rel] : [];
  });
}

// The places a string literal is an error code: a `code` field or comparison, and the error classes'
// code argument (CairnError(code, …), ApiError(status, code, …), SidecarFailure(code, …)).
const CODE_LITERALS = [
  /(?<!typeof\s+[\w.?]*)\bcode\??\s*(?::|===|!==)\s*(['"])([^'"\n]*)\1/g,
  /\bnew (?:CairnError|SidecarFailure)\(\s*(['"])([^'"\n]*)\1/g,
  /\bnew ApiError\(\s*[^,()]+,\s*(['"])([^'"\n]*)\1/g,
];
// Node's errno codes (`ENOENT`), Python source and `typeof x.code` tests are codes of another kind.
const looksLikeErrorCode = (literal: string) => /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/.test(literal);

function codeLiterals(): { code: string; where: string }[] {
  return SOURCE_TREES.flatMap(sourceFiles).flatMap((rel) => {
    const text = fs.readFileSync(path.join(ROOT, rel), 'utf8');
    return CODE_LITERALS.flatMap((pattern) =>
      [...text.matchAll(pattern)]
        .map((m) => ({ code: m[2]!, where: `${rel}:${text.slice(0, m.index).split('\n').length}` }))
        .filter((found) => looksLikeErrorCode(found.code)),
    );
  });
}

describe('the closed set of error codes', () => {
  it('is one enum holding the codes the server sends and the ones clients make', () => {
    expect(ErrorCode.options).toEqual([...SERVER_ERROR_CODES, ...CLIENT_ERROR_CODES]);
    for (const code of ['interrupted', 'sidecar_failed', 'network', 'not_cairn', 'internal']) {
      expect(ErrorCode.options).toContain(code);
    }
  });

  it('reads an unknown code as internal and keeps the message and details', () => {
    expect(
      ErrorInfo.parse({ code: 'from_a_newer_server', message: 'kept', details: { paths: ['x'] } }),
    ).toEqual({
      code: 'internal',
      message: 'kept',
      details: { paths: ['x'] },
    });
  });

  it('holds every code the sidecar, the UI and the desktop host write out', () => {
    const found = codeLiterals();
    // The scan sees what it should: codes of each tree, made and matched.
    expect(found.map((f) => f.code)).toEqual(
      expect.arrayContaining(['interrupted', 'not_cairn', 'sidecar_failed', 'kernel_died', 'internal']),
    );
    const outside = found.filter((f) => !(ErrorCode.options as readonly string[]).includes(f.code));
    expect(outside).toEqual([]);
  });

  it("is what a kernel.error's code is read with, not any string", () => {
    const event = {
      type: 'kernel.error',
      seq: 1,
      session_id: 'ses_1',
      turn_id: null,
      time: '2026-01-01T00:00:00.000Z',
      kernel: 'default',
      execution_id: 'exe_1',
      message: 'x',
    };
    for (const code of ['python_not_found', 'kernel_start_failed', 'cancelled', 'conflict']) {
      expect(KernelErrorEvent.parse({ ...event, code }).code).toBe(code);
    }
    // As ErrorInfo does: a code from a newer server, or an older journal's entry, reads as internal.
    expect(KernelErrorEvent.parse({ ...event, code: 'kernel_shutdown' }).code).toBe('internal');
  });
});
