/**
 * Start-up while the BFF is frozen (adr/0013): the session check waits its 6 s,
 * then "Temporarily unavailable". Both pages have their own tab title (WCAG 2.4.2) and the
 * app's frame (header, footer). The BFF is really frozen (SIGSTOP) the moment the SPA asks
 * for its session: the page's own files have loaded by then.
 */
import { bffProcess, expect, expectNoSeriousA11yViolations, noteTiming, saveScreenshot, screenshotDir, secondsSince, test, waitUntilServing } from './fixtures.ts';

const OUTAGE = 'The service is temporarily unavailable. Please try again later.';

test.afterEach(async ({ page }) => {
  await bffProcess('thaw').catch(() => undefined);
  await waitUntilServing(page);
});

test('start-up with the BFF frozen: the start-up page, then "Temporarily unavailable", each titled and framed', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  let frozenAt = 0;
  await page.route(
    '**/bff/session',
    async (route) => {
      await bffProcess('freeze');
      frozenAt = Date.now();
      await route.continue();
    },
    { times: 1 },
  );
  await page.goto('/');
  await expect(page).toHaveTitle('Loading · Tidewater');
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('contentinfo')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Loading Tidewater');
  await expectNoSeriousA11yViolations(page, 'start-up page');
  await expect(page.getByRole('status').filter({ hasText: 'Taking longer than usual…' })).toBeVisible({ timeout: 10_000 });
  noteTiming('start-up "Taking longer than usual…"', secondsSince(frozenAt));
  // The hint comes at 5 s and the page gives way at 6 s: the screenshot first.
  await page.screenshot({ path: `${screenshotDir}start-up.png` });

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Temporarily unavailable', { timeout: 15_000 });
  await expect(page.getByRole('alert')).toHaveText(OUTAGE);
  noteTiming('"Temporarily unavailable"', secondsSince(frozenAt));
  await page.waitForTimeout(1_000);
  await expect(page).toHaveTitle('Temporarily unavailable · Tidewater');
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('contentinfo')).toBeVisible();
  await expect(page).not.toHaveURL(/sign-in/);
  await expectNoSeriousA11yViolations(page, 'temporarily unavailable (BFF frozen)');
  await saveScreenshot(page, 'temporarily-unavailable-bff-frozen');

  await bffProcess('thaw');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('link', { name: 'Everyday', exact: true })).toBeVisible();
  await expect(page).toHaveTitle('Your accounts · Tidewater');
});
