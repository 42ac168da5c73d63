/**
 * A 5xx, a lost connection or no answer never signs anyone out (adr/0009).
 * The BFF's answers are scripted with page.route for the one request under test, each
 * checked against spec/bff.yaml first (scripted.ts).
 */
import { expect, expectNoSeriousA11yViolations, saveScreenshot, test } from './fixtures.ts';
import { scriptedProblem } from './scripted.ts';

const OUTAGE = 'The service is temporarily unavailable. Please try again later.';

test('start-up: a 503 from /bff/session shows "Temporarily unavailable" with Try again, not sign-in', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  const unavailable = scriptedProblem('getSession', 503, { errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 30 }, 'bff');
  await page.route('**/bff/session', (route) => route.fulfill(unavailable));
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Temporarily unavailable');
  await expect(page.getByRole('alert')).toHaveText(OUTAGE);
  await expect(page).not.toHaveURL(/sign-in/);
  await expectNoSeriousA11yViolations(page, 'temporarily unavailable');
  await saveScreenshot(page, 'temporarily-unavailable');

  await page.unroute('**/bff/session');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('link', { name: 'Everyday', exact: true })).toBeVisible();
});

test('a sign-out that fails says so and keeps the visitor signed in', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Everyday', exact: true })).toBeVisible();
  const failed = scriptedProblem('signOut', 503, { errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 10 }, 'bff');
  await page.route('**/bff/logout', (route) => route.fulfill(failed));
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('alert')).toHaveText("We couldn't sign you out. You're still signed in.");
  await expect(page.getByRole('link', { name: 'Everyday', exact: true })).toBeVisible();
  await saveScreenshot(page, 'sign-out-failed');

  await page.unroute('**/bff/logout');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
});
