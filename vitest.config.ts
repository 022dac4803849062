import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'sidecar/test/**/*.test.ts',
      'scripts/**/*.test.ts',
      'renderer/test/**/*.test.{ts,tsx}',
      'renderer/e2e/**/*.test.ts',
      'renderer/test-node/**/*.test.ts',
      'electron/test/**/*.test.ts',
    ],
    pool: 'forks',
    // Generous per-test ceilings guard against hangs; speed itself is measured by `npm run bench`.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
