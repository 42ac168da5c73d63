import { defineConfig } from '@playwright/test';

/**
 * End-to-end against the real stack (globalSetup starts a throwaway PostgreSQL, the API
 * with its timeout chain scaled down, and the BFF serving a fresh build of this SPA) in
 * Debian's Chromium: `npx playwright install` cannot download browsers here. One worker:
 * the outage specs stop and pause the one database every spec shares.
 */
export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/globalSetup.ts',
  outputDir: './test-results/playwright',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  workers: 1,
  fullyParallel: false,
  retries: 0,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 860 },
    locale: 'en-IE',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
