/**
 * A 5xx, a lost connection or no answer never signs anyone out (ADR-0059 decisions 10–11).
 * The BFF's answers are scripted with page.route for the one request under test.
 */
import { expect, expectNoSeriousA11yViolations, saveScreenshot, test } from './fixtures.ts';

const OUTAGE = 'The service is temporarily unavailable. Please try again later.';

test('start-up: a 503 from /bff/session shows "Temporarily unavailable" with Try again, not sign-in', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  await page.route('**/bff/session', (route) =>
    route.fulfill({ status: 503, contentType: 'application/problem+json', headers: { 'Retry-After': '30' }, body: JSON.stringify({ status: 503, errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 30, title: 'x', type: 'about:blank', traceId: 't' }) }),
  );
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
  await page.route('**/bff/logout', (route) =>
    route.fulfill({ status: 503, contentType: 'application/problem+json', body: JSON.stringify({ status: 503, errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 10, title: 'x', type: 'about:blank', traceId: 't' }) }),
  );
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('alert')).toHaveText("We couldn't sign you out. You're still signed in.");
  await expect(page.getByRole('link', { name: 'Everyday', exact: true })).toBeVisible();
  await saveScreenshot(page, 'sign-out-failed');

  await page.unroute('**/bff/logout');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
});
