import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'test-support',
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
