import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from '../../src/components/changes/unified-diff';

describe('parseUnifiedDiff', () => {
  it('reads hunks into kept, removed and added lines, leaving out the file header', () => {
    const diff = [
      '--- a/keep.txt',
      '+++ b/keep.txt',
      '@@ -1,3 +1,3 @@',
      ' one',
      '-two',
      '+TWO',
      ' three',
      '@@ -10,2 +10,1 @@ function f()',
      '-gone',
      ' last',
      '',
    ].join('\n');
    expect(parseUnifiedDiff(diff)).toEqual([
      { kind: 'hunk', text: '@@ -1,3 +1,3 @@' },
      { kind: 'same', text: 'one' },
      { kind: 'removed', text: 'two' },
      { kind: 'added', text: 'TWO' },
      { kind: 'same', text: 'three' },
      { kind: 'hunk', text: '@@ -10,2 +10,1 @@ function f()' },
      { kind: 'removed', text: 'gone' },
      { kind: 'same', text: 'last' },
    ]);
  });

  it('keeps lines that look like headers inside a hunk, and the "no newline" note', () => {
    const diff = [
      '--- /dev/null',
      '+++ b/schema.sql',
      '@@ -0,0 +1,2 @@',
      '+++ counter',
      '+-- a comment',
      '\\ No newline at end of file',
    ].join('\n');
    expect(parseUnifiedDiff(diff)).toEqual([
      { kind: 'hunk', text: '@@ -0,0 +1,2 @@' },
      { kind: 'added', text: '++ counter' },
      { kind: 'added', text: '-- a comment' },
      { kind: 'note', text: '\\ No newline at end of file' },
    ]);
  });

  it('reads an empty context line whose space was trimmed as a kept empty line', () => {
    expect(parseUnifiedDiff('--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n\n-a\n+b\n')).toEqual([
      { kind: 'hunk', text: '@@ -1,2 +1,2 @@' },
      { kind: 'same', text: '' },
      { kind: 'removed', text: 'a' },
      { kind: 'added', text: 'b' },
    ]);
  });

  it('has no lines for a diff without hunks (an empty file added)', () => {
    expect(parseUnifiedDiff('--- /dev/null\n+++ b/empty.txt\n')).toEqual([]);
    expect(parseUnifiedDiff('')).toEqual([]);
  });
});
