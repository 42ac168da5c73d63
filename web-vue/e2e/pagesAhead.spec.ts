/**
 * A page the visitor has not opened yet is already in the app (adr/0013): with the
 * BFF frozen or down, clicking "Transfer" opens the page at once, and the page's own read
 * waits, hints, gives up and words its failure like any read. On the real stack: the BFF
 * process is frozen with SIGSTOP, or stopped.
 */
import { bffProcess, expect, expectNoSeriousA11yViolations, noteTiming, saveScreenshot, secondsSince, test, waitUntilServing } from './fixtures.ts';

const OUTAGE = 'The service is temporarily unavailable. Please try again later.';

test.afterEach(async ({ page }) => {
  await bffProcess('thaw').catch(() => undefined);
  await bffProcess('start');
  await waitUntilServing(page);
});

test('the BFF frozen: "Transfer" opens at once, hints at 5 s and 20 s, and says the outage at the 65 s abort', async ({ page, signUpViaBff }) => {
  test.setTimeout(180_000);
  await signUpViaBff();
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Everyday', exact: true })).toBeVisible();

  await bffProcess('freeze');
  const startedAt = Date.now();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Transfer' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Transfer money', { timeout: 5_000 });
  noteTiming('page shown', secondsSince(startedAt));
  await expect(page).toHaveTitle('Transfer money · Tidewater');

  const status = page.getByRole('status').filter({ hasText: /Taking longer than usual…|Still trying…/ });
  await expect(status).toHaveText('Taking longer than usual…', { timeout: 10_000 });
  const slowAt = secondsSince(startedAt);
  await expect(status).toHaveText('Still trying…', { timeout: 25_000 });
  const stillAt = secondsSince(startedAt);
  await saveScreenshot(page, 'page-opened-bff-frozen');
  await expect(page.getByRole('alert')).toContainText(OUTAGE, { timeout: 60_000 });
  const outageAt = secondsSince(startedAt);
  noteTiming('"Taking longer than usual…"', slowAt);
  noteTiming('"Still trying…"', stillAt);
  noteTiming('outage sentence', outageAt);
  expect(slowAt).toBeGreaterThanOrEqual(4.5);
  expect(stillAt).toBeGreaterThanOrEqual(19.5);
  expect(outageAt).toBeGreaterThanOrEqual(60);
  // The accounts the dashboard read stand in: the form is there, with the outage above it.
  await expect(page.getByLabel('From')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'transfer page, BFF frozen');
  await saveScreenshot(page, 'page-opened-bff-frozen-failed');

  await bffProcess('thaw');
  await page.getByRole('alert').getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('alert')).toHaveText('', { timeout: 30_000 });
});

test('the BFF down: "Transfer" opens, and its read says Tidewater cannot be reached', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Everyday', exact: true })).toBeVisible();

  await bffProcess('stop');
  const startedAt = Date.now();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Transfer' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Transfer money', { timeout: 5_000 });
  await expect(page.getByRole('alert')).toContainText("We couldn't reach Tidewater. Check your connection and try again.", { timeout: 15_000 });
  noteTiming('"We couldn\'t reach Tidewater."', secondsSince(startedAt));
  await expect(page.getByRole('alert').getByRole('button', { name: 'Retry' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'transfer page, BFF down');
  await saveScreenshot(page, 'page-opened-bff-down');
});
