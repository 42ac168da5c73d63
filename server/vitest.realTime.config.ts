import { defineConfig } from 'vitest/config';

/**
 * The server's files that must have the machine to themselves, so `npm test` leaves them out
 * (server/vitest.config.ts) and CI runs them in their own step, one file at a time
 * (`npm run test:real-time -w server`, .ci/run). Each waits out the real default limits or
 * measures how sign-ins fare while passwords hash, so its verdict depends on the CPU it gets:
 * beside other suites' servers a victim's sign-in share or an attacker's count of tries
 * drifts with the load, not with the code.
 */
export const realTimeFiles = [
  // adr/0045: a 60 s attack against the default limits, waiting each real Retry-After.
  'test/strangerLockout.test.ts',
  // adr/0043: a 30 s attack on the default limits; the attacker's count of tries is asserted.
  'test/knownDevice.test.ts',
  // adr/0045: 15 sign-ups a second for 20 s on the default limits.
  'test/signUpFlood.test.ts',
  // 48 sign-ins hashing at once must not make a real one wait more than 1 s.
  'test/signInLimits.test.ts',
  // Every network fault at every statement (about 70 cases, each waiting its partition of
  // 1.5 × the 1.5 s deadline) on budgets of 300 ms that a CPU shared with other suites breaks.
  'test/money/networkFaultSweep.test.ts',
];

export default defineConfig({
  test: {
    name: 'server-real-time',
    include: realTimeFiles,
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
