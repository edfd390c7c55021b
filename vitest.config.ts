import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.{ts,tsx}', 'packages/*/src/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'packages/web/e2e/**'],
    testTimeout: 30000,
    hookTimeout: 60000,
    pool: 'forks',
  },
});
