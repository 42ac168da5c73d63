import { defineConfig } from 'vitest/config';

/**
 * One `npm test` runs every suite: each workspace is a Vitest project with its own
 * config (environment, timeouts, setup). Suites that need PostgreSQL start their own
 * throwaway clusters, from the machine's binaries or npm's (test-support/src/pgBinaries.ts).
 * The server's files that need the machine to themselves are left out here and run alone
 * in CI's next step (server/vitest.realTime.config.ts, adr/0068).
 */
export default defineConfig({
  test: {
    projects: ['spec', 'contract', 'server', 'bff', 'web-vue', 'contract-tests', 'client', 'test-support', 'bench'],
    // Two files at a time on 2 cores (Vitest's default here is one: cores − 1). A file that
    // waits on a deadline, a paused database or a restart leaves the CPU idle, so a second
    // one fills it; a third only slowed the files that hash passwords, and made a recovery
    // bound of the outage matrix miss once on a loaded machine (adr/0068).
    maxWorkers: 2,
  },
});
