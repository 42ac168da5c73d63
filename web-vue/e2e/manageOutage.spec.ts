/**
 * A change with no key during an outage (adr/0013): the rename meets a paused
 * database (the API's deadline answers 503), the page reads the account again, and once
 * that read answers it says what it found instead of "we can't tell yet".
 */
import { alertsSeen, database, expect, expectNoSeriousA11yViolations, noteTiming, recordAlerts, saveScreenshot, secondsSince, test, waitUntilServing } from './fixtures.ts';

test.afterEach(async ({ page }) => {
  await database('resume').catch(() => undefined);
  await waitUntilServing(page);
});

test('a rename during an outage: once the account is read again, the bar says the change was not saved', async ({ page, signUpViaBff }) => {
  test.setTimeout(150_000);
  await signUpViaBff();
  await recordAlerts(page);
  await page.goto('/');
  await page.getByRole('link', { name: 'Everyday', exact: true }).click();
  await page.getByRole('link', { name: 'Manage' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Manage Everyday');
  await page.getByLabel('Account name').fill('Rainy day');

  await database('pause');
  const startedAt = Date.now();
  const renamed = page.waitForResponse((response) => response.request().method() === 'PATCH');
  await page.getByRole('button', { name: 'Save name' }).click();
  expect((await renamed).status()).toBe(503);
  const unsureAt = secondsSince(startedAt);
  await database('resume');

  const notSaved = "Your change wasn't saved: this account is still called Everyday. You can try again.";
  await expect(page.getByRole('alert')).toHaveText(notSaved, { timeout: 60_000 });
  noteTiming("\"we can't tell yet whether your change was saved\"", unsureAt);
  noteTiming('"Your change wasn\'t saved"', secondsSince(startedAt));
  expect(await alertsSeen(page)).toEqual(["The service is temporarily unavailable, and we can't tell yet whether your change was saved.", notSaved]);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Manage Everyday');
  await expectNoSeriousA11yViolations(page, 'rename not saved');
  await saveScreenshot(page, 'rename-not-saved');

  // Saved for real this time: the bar says so.
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Manage Rainy day');
  await expect(page.getByRole('alert')).toHaveText('');
});
