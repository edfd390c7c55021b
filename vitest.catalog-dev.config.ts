import { defineConfig } from 'vitest/config';
export default defineConfig({
  test: {
    include: ['packages/web/e2e/catalog.e2e.ts'],
    globalSetup: ['/tmp/catalog-e2e/setup.ts'],
    testTimeout: 60000,
    hookTimeout: 120000,
  },
});
