/**
 * Leaving a money send by an in-app link keeps its key with the page's state (adr/0013):
 * after a deposit met a real busy account (a separate connection holds the
 * account's row lock, so every attempt of the send loses its lock wait), "← Everyday" and
 * back shows the same amount and "Try again", and Try again sends the SAME key.
 */
import { expect, expectNoSeriousA11yViolations, noteTiming, reviewThenSend, saveScreenshot, secondsSince, test } from './fixtures.ts';
import { whatTheKeyWrote, whileAccountIsLocked } from './sql.ts';

const NOTHING_CHANGED = 'The service is temporarily unavailable, and nothing was changed.';

test('a deposit that met a busy account keeps its key across "← Everyday" and back; Try again re-sends it', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  await page.goto('/');
  const accountLink = page.getByRole('link', { name: 'Everyday', exact: true });
  const accountId = (await accountLink.getAttribute('href'))!.split('/').at(-1)!;
  await page.getByRole('link', { name: 'Deposit into Everyday' }).click();
  await page.getByLabel('Amount in euros').fill('12.34');
  const keys: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/deposits')) keys.push(request.headers()['idempotency-key'] ?? '');
  });

  await whileAccountIsLocked(accountId, async () => {
    const startedAt = Date.now();
    await reviewThenSend(page, /^Deposit €/);
    await expect(page.getByRole('alert')).toHaveText(NOTHING_CHANGED, { timeout: 30_000 });
    noteTiming('busy account: "nothing was changed"', secondsSince(startedAt));
  });
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  await saveScreenshot(page, 'send-holding-key');

  // Away by the breadcrumb, and back by the account page's own link.
  await page.locator('.breadcrumb').getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Everyday');
  // Elsewhere in the app, the held key still makes the browser ask before the tab goes.
  const asked = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const dialog = await asked;
  expect(dialog.type()).toBe('beforeunload');
  await dialog.dismiss();
  expect(page.isClosed()).toBe(false);
  await page.getByRole('navigation', { name: 'Account actions' }).getByRole('link', { name: 'Deposit' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Deposit money into Everyday');
  await expect(page.getByTestId('send-review')).toContainText('€12.34');
  await expect(page.getByRole('alert')).toHaveText(NOTHING_CHANGED);
  await expectNoSeriousA11yViolations(page, 'deposit page holding its key, after coming back');
  await saveScreenshot(page, 'send-holding-key-after-coming-back');

  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { name: 'Deposit received' })).toBeVisible();
  expect(keys).toHaveLength(2);
  expect(keys[1]).toBe(keys[0]);
  expect((await whatTheKeyWrote(keys[0]!)).ledger).toEqual([{ account_id: accountId, amount_minor: '1234' }]);
});
