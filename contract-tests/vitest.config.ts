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
    // Cases of a `describe.concurrent` at once (Vitest's default is 5): the sandbox table's 79
    // cases each send from accounts of their own and spend their time in the waits the answers
    // name (1–2 s), so 16 at a time take its file from ~16 s to ~7 s and add little CPU.
    maxConcurrency: 16,
  },
});
