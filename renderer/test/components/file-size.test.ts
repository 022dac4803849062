import { expect, it } from 'vitest';
import { formatBytes } from '../../src/i18n/file-size';

it('writes sizes in the locale’s words and units', () => {
  expect(formatBytes('en', 512)).toBe('512 bytes');
  expect(formatBytes('en', 1_234_567)).toBe('1.2 MB');
  expect(formatBytes('en', 3_400_000_000_000)).toBe('3,400 GB');
  expect(formatBytes('zh-CN', 512)).toBe('512字节');
  expect(formatBytes('zh-CN', 2048)).toBe('2 kB');
});
