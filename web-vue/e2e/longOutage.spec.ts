/**
 * A database outage of about a minute, on the REAL default timings (realTimingsStack.ts;
 * adr/0011, adr/0009's measured target): the API holds each read at its readiness gate
 * until the database is back or its 40 s deadline, and the SPA retries a read once after
 * the 10 s the 503 names.
 *
 * - Stopped for 60 s while the visitor reloads the dashboard: the first read answers 503
 *   at 40 s, the retry (at ~50 s) waits for the database and loads at ~61 s. No error.
 * - Stopped for 150 s: the retry answers 503 too (~90 s): one honest sentence; once the
 *   database is back, Retry loads the dashboard.
 */
import type { Page } from '@playwright/test';
import { alertsSeen, expect, recordAlerts, saveScreenshot, test } from './fixtures.ts';
import { realDatabase } from './realTimingsStack.ts';
import { stackEnv } from './stackTimings.ts';

const OUTAGE = 'The service is temporarily unavailable. Please try again later.';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const realTest = test.extend({
  baseURL: async ({}, use) => {
    const url = process.env[stackEnv.realBaseUrl];
    if (!url) throw new Error(`${stackEnv.realBaseUrl} is not set: run through playwright.config.ts (its globalSetup starts the stack)`);
    await use(url);
  },
});

realTest.afterEach(async () => {
  await realDatabase('start').catch(() => undefined);
});

/**
 * A signed-in visitor on a loaded dashboard; then the database stops and the visitor
 * reloads. Answers when it stopped and the account reads seen since (status and second).
 */
async function reloadWithDatabaseStopped(page: Page, signUp: () => Promise<unknown>): Promise<{ stoppedAt: number; reads: string[] }> {
  await signUp();
  await recordAlerts(page);
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Everyday', exact: true })).toBeVisible();
  const watch = { stoppedAt: 0, reads: [] as string[] };
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/api/accounts' && response.request().method() === 'GET') {
      watch.reads.push(`${response.status()} at ${((Date.now() - watch.stoppedAt) / 1000).toFixed(1)} s`);
    }
  });
  await realDatabase('stop');
  watch.stoppedAt = Date.now();
  await page.reload();
  return watch;
}

realTest('database stopped for 60 s during a dashboard reload: it loads when the database is back, with no error', async ({ page, signUpViaBff }) => {
  realTest.setTimeout(180_000);
  const { stoppedAt, reads } = await reloadWithDatabaseStopped(page, signUpViaBff);
  await sleep(60_000 - (Date.now() - stoppedAt));
  await realDatabase('start');
  const backAt = (Date.now() - stoppedAt) / 1000;

  await expect(page.getByRole('link', { name: 'Everyday', exact: true })).toBeVisible({ timeout: 60_000 });
  const loadedAt = (Date.now() - stoppedAt) / 1000;
  const timings = `database back at ${backAt.toFixed(1)} s, dashboard loaded at ${loadedAt.toFixed(1)} s; /api/accounts: ${reads.join(', ')}`;
  realTest.info().annotations.push({ type: 'timings', description: timings });
  console.log(`60 s outage: ${timings}`);
  await saveScreenshot(page, 'outage-60s-loaded');
  expect(reads.map((read) => read.split(' ')[0])).toEqual(['503', '200']);
  expect(loadedAt).toBeGreaterThanOrEqual(60);
  expect(loadedAt).toBeLessThan(70);
  await expect(page.getByRole('alert')).toHaveText('');
  expect(await alertsSeen(page)).toEqual([]);
});

realTest('database stopped for 150 s: one honest sentence, then Retry loads it once the database is back', async ({ page, signUpViaBff }) => {
  realTest.setTimeout(300_000);
  const { stoppedAt, reads } = await reloadWithDatabaseStopped(page, signUpViaBff);
  await expect(page.getByRole('alert')).toContainText(OUTAGE, { timeout: 130_000 });
  const errorAt = (Date.now() - stoppedAt) / 1000;
  await saveScreenshot(page, 'outage-150s-error');
  await sleep(150_000 - (Date.now() - stoppedAt));
  await realDatabase('start');
  const backAt = (Date.now() - stoppedAt) / 1000;
  await sleep(2_000); // one probe interval and a little: the API has found it

  await page.getByRole('alert').getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('link', { name: 'Everyday', exact: true })).toBeVisible({ timeout: 30_000 });
  const loadedAt = (Date.now() - stoppedAt) / 1000;
  const timings = `error at ${errorAt.toFixed(1)} s, database back at ${backAt.toFixed(1)} s, loaded after Retry at ${loadedAt.toFixed(1)} s; /api/accounts: ${reads.join(', ')}`;
  realTest.info().annotations.push({ type: 'timings', description: timings });
  console.log(`150 s outage: ${timings}`);
  expect(errorAt).toBeGreaterThan(80); // two reads of 40 s each and the 10 s between them
  const said = await alertsSeen(page);
  expect(said, 'one sentence, once (beside its Retry button)').toHaveLength(1);
  expect(said[0]).toContain(OUTAGE);
  await expect(page.getByRole('alert')).toHaveText('');
});
