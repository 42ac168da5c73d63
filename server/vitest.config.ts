import { defineConfig } from 'vitest/config';
import { realTimeFiles } from './vitest.realTime.config.ts';

export default defineConfig({
  test: {
    name: 'server',
    include: ['**/*.test.ts'],
    // The files that need the machine to themselves run in CI's own step (vitest.realTime.config.ts).
    exclude: ['**/node_modules/**', '**/dist/**', ...realTimeFiles],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
