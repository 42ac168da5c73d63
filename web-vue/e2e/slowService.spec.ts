/**
 * The database misbehaves while a signed-in visitor loads the dashboard (adr/0009's
 * validation, scaled: the API's deadline is 10 s, its Retry-After 10 s).
 */
import { alertsSeen, database, expect, recordAlerts, saveScreenshot, test, waitUntilServing } from './fixtures.ts';

const OUTAGE = 'The service is temporarily unavailable. Please try again later.';
const OUTAGE_RETRYING = 'The service is temporarily unavailable. Trying again…';

test.afterEach(async ({ page }) => {
  await database('resume').catch(() => undefined);
  await database('start').catch(() => undefined);
  await waitUntilServing(page);
});

test('database stopped during a dashboard load: one retry, and it loads with no error', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  await recordAlerts(page);
  const accountReads: number[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/api/accounts' && response.request().method() === 'GET') accountReads.push(response.status());
  });

  await database('stop');
  const firstOutage = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/accounts' && response.status() === 503);
  await page.goto('/');
  await firstOutage;
  await database('start');

  await expect(page.getByRole('link', { name: 'Everyday', exact: true })).toBeVisible({ timeout: 30_000 });
  expect(accountReads).toEqual([503, 200]);
  await expect(page.getByRole('alert')).toHaveText('');
  expect(await alertsSeen(page)).toEqual([]);
});

test('database hung: "Taking longer than usual…", then from the first 503 the outage while the retry waits, then the outage sentence', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Everyday', exact: true })).toBeVisible();

  const reads: string[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/api/accounts') reads.push(`${response.status()} at ${Date.now() - startedAt} ms`);
  });
  page.on('requestfailed', (request) => reads.push(`failed ${request.url()} ${request.failure()?.errorText}`));
  await database('pause');
  const startedAt = Date.now();
  await page.reload();
  const status = page.getByRole('status').filter({ hasText: /Taking longer than usual…|Still trying…|Trying again…/ });

  await expect(status).toHaveText('Taking longer than usual…', { timeout: 10_000 });
  const slowAt = Date.now() - startedAt;
  await saveScreenshot(page, 'wait-taking-longer');
  // The first 503 (the API's 10 s deadline) names the outage at once; the one retry is still coming (adr/0074).
  await expect(status).toHaveText(OUTAGE_RETRYING, { timeout: 25_000 });
  const outageNamedAt = Date.now() - startedAt;
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible({ timeout: 25_000 });
  await expect(status).toHaveText(OUTAGE_RETRYING);
  await saveScreenshot(page, 'wait-still-trying');

  await expect(page.getByRole('alert')).toContainText(OUTAGE, { timeout: 40_000 });
  const outageAt = Date.now() - startedAt;
  await saveScreenshot(page, 'outage');
  const timings = `hint ${slowAt} ms, outage named ${outageNamedAt} ms, outage ${outageAt} ms; /api/accounts: ${reads.join(', ')}`;
  test.info().annotations.push({ type: 'timings', description: timings });
  console.log(`database hung: ${timings}`);
  expect(slowAt).toBeGreaterThanOrEqual(4_500);
  expect(outageNamedAt).toBeGreaterThanOrEqual(9_500);
  expect(outageAt).toBeGreaterThan(outageNamedAt);
  await expect(page.getByRole('alert').getByRole('button', { name: 'Retry' })).toBeVisible();

  // Back again: Retry loads it.
  await database('resume');
  await waitUntilServing(page);
  await page.getByRole('alert').getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('link', { name: 'Everyday', exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('alert')).toHaveText('');
});
