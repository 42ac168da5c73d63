/**
 * The smaller honesty of adr/0013: a favicon (no 404 on every load); "Loading
 * stopped." after the visitor's own Stop reads as a notice, not an error; a failed sign-out
 * in the idle dialog is as loud as the security message it is; and during an outage a page
 * says what it cannot show instead of bare headings over empty space.
 */
import { database, expect, expectNoSeriousA11yViolations, noteTiming, saveScreenshot, secondsSince, test, waitUntilServing } from './fixtures.ts';
import { scriptedProblem } from './scripted.ts';

const OUTAGE = 'The service is temporarily unavailable. Please try again later.';
/** --danger in styles.css: the colour of errors. */
const DANGER = 'rgb(164, 22, 26)';

test.afterEach(async ({ page }) => {
  await database('resume').catch(() => undefined);
  await database('start').catch(() => undefined);
  await waitUntilServing(page);
});

test('the app has a favicon, and loading a page asks for nothing that is missing', async ({ page }) => {
  const missing: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 404) missing.push(response.url());
  });
  await page.goto('/sign-in');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
  const link = page.locator('link[rel="icon"]');
  await expect(link).toHaveAttribute('href', /\S/);
  const href = await link.getAttribute('href');
  const icon = await page.request.get(href!);
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toMatch(/^image\//);
  await page.waitForLoadState('networkidle');
  expect(missing).toEqual([]);
});

test('"Loading stopped." after the visitor\'s own Stop is a notice, not an error, and focus lands on Retry', async ({ page, signUpViaBff }) => {
  test.setTimeout(120_000);
  await signUpViaBff();
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Everyday', exact: true })).toBeVisible();
  await database('pause');
  const startedAt = Date.now();
  await page.reload();
  const stop = page.getByRole('button', { name: 'Stop' });
  await expect(stop).toBeVisible({ timeout: 30_000 });
  noteTiming('database hung: Stop offered', secondsSince(startedAt));
  await stop.click();
  const bar = page.getByRole('alert');
  await expect(bar).toContainText('Loading stopped.');
  noteTiming('"Loading stopped." (from the hang)', secondsSince(startedAt));
  const looks = await bar.evaluate((element) => {
    const style = getComputedStyle(element);
    return { border: style.borderTopColor, background: style.backgroundColor };
  });
  expect(looks.border).not.toBe(DANGER);
  expect(looks.background).not.toBe('rgb(253, 236, 236)');
  await expect(bar.getByRole('button', { name: 'Retry' })).toBeFocused();
  await expect(page.getByText("Your accounts can't be shown right now.")).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'loading stopped');
  await saveScreenshot(page, 'loading-stopped');
});

test('a failed sign-out in the idle dialog reads as loudly as the security message it is', async ({ page, signUpViaBff }) => {
  await page.clock.install();
  await signUpViaBff();
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Everyday', exact: true })).toBeVisible();
  const failed = scriptedProblem('signOut', 503, { errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 10 }, 'bff');
  await page.route('**/bff/logout', (route) => route.fulfill(failed));
  await page.clock.fastForward('14:10');
  const dialog = page.getByRole('dialog', { name: "You're about to be signed out" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Sign out' }).click();
  const said = dialog.getByText("We couldn't sign you out. You're still signed in.");
  await expect(said).toBeVisible();
  const looks = await said.evaluate((element) => {
    const style = getComputedStyle(element);
    return { fontStyle: style.fontStyle, color: style.color, weight: Number(style.fontWeight) };
  });
  expect(looks).toEqual({ fontStyle: 'normal', color: DANGER, weight: expect.any(Number) });
  expect(looks.weight).toBeGreaterThanOrEqual(600);
  await expectNoSeriousA11yViolations(page, 'idle dialog, sign-out failed');
  await saveScreenshot(page, 'idle-sign-out-failed');
});

test('during an outage the dashboard, an account page and the transfer page say what they cannot show', async ({ page, signUpViaBff }) => {
  test.setTimeout(150_000);
  await signUpViaBff();
  const accounts = (await (await page.request.get('/api/accounts')).json()) as { items: Array<{ id: string }> };
  const accountId = accounts.items[0]!.id;

  await database('stop');
  const startedAt = Date.now();
  await page.goto('/');
  await expect(page.getByRole('status').filter({ hasText: 'Taking longer than usual…' })).toBeVisible({ timeout: 10_000 });
  noteTiming('dashboard "Taking longer than usual…"', secondsSince(startedAt));
  await saveScreenshot(page, 'dashboard-waiting');
  await expect(page.getByRole('alert')).toContainText(OUTAGE, { timeout: 40_000 });
  noteTiming('dashboard outage sentence', secondsSince(startedAt));
  await expect(page.getByText("Your accounts can't be shown right now.")).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'dashboard, failed');
  await saveScreenshot(page, 'dashboard-failed');

  await page.goto(`/accounts/${accountId}`);
  await expect(page.getByRole('alert')).toContainText(OUTAGE, { timeout: 40_000 });
  await expect(page.getByText("This account can't be shown right now.")).toBeVisible();
  await expect(page.getByText("Its movements can't be shown right now.")).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'account page, failed');
  await saveScreenshot(page, 'account-failed');

  await page.goto('/transfer');
  await expect(page.getByRole('alert')).toContainText(OUTAGE, { timeout: 40_000 });
  await expect(page.getByText("The transfer form needs your accounts, which can't be shown right now.")).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'transfer page, failed');
});
