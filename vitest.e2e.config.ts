import { defineConfig } from 'vitest/config';

// Browser tests: one started server (see packages/web/e2e/global-setup.ts), Debian's chromium.
export default defineConfig({
  test: {
    include: ['packages/web/e2e/**/*.e2e.ts'],
    globalSetup: ['packages/web/e2e/global-setup.ts'],
    testTimeout: 60000,
    hookTimeout: 120000,
    fileParallelism: false,
  },
});
