import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'contract-tests',
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    environment: 'node',
    testTimeout: 60_000,
    // The outage matrix starts a cluster and one API per fault in its hooks (each hook
    // also sets its own bound); a hook never needs more than this on a 2-core machine.
    hookTimeout: 300_000,
  },
});
