import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.{ts,tsx}', 'packages/*/src/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'packages/web/e2e/**'],
    testTimeout: 30000,
    hookTimeout: 60000,
    pool: 'forks',
    // Vitest's default on a 2-core machine is one worker, and most files spend their time waiting
    // on timers, servers and the database: three run side by side.
    maxWorkers: 3,
    setupFiles: ['packages/web/test/setup.ts'],
  },
});
