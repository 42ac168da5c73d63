import { defineConfig } from 'vitest/config';

/**
 * One `npm test` runs every suite: each workspace is a Vitest project with its own
 * config (environment, timeouts, setup). Suites that need PostgreSQL start their own
 * throwaway clusters, from the machine's binaries or npm's (test-support/src/pgBinaries.ts).
 */
export default defineConfig({
  test: {
    projects: ['spec', 'contract', 'server', 'bff', 'web-vue', 'contract-tests', 'client', 'test-support', 'bench'],
  },
});
