/** axe-core on every page (no serious or critical violation), and a screenshot of each key screen. */
import { depositViaBff, expect, expectNoSeriousA11yViolations, saveScreenshot, test } from './fixtures.ts';

test('every signed-in page passes axe', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  await page.goto('/');
  await page.getByRole('link', { name: 'Everyday', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Everyday');
  const accountUrl = new URL(page.url()).pathname;
  await expect(page.getByRole('heading', { name: 'Movements' })).toBeVisible();
  await expect(page.getByRole('status').first()).toBeAttached();
  await expectNoSeriousA11yViolations(page, 'account');
  await saveScreenshot(page, 'account');

  const pages: Array<[string, string, string]> = [
    ['deposit', `${accountUrl}/deposit`, 'Deposit money into Everyday'],
    ['withdraw', `${accountUrl}/withdraw`, 'Withdraw money from Everyday'],
    ['manage', `${accountUrl}/manage`, 'Manage Everyday'],
    ['check-by-key', `${accountUrl}/check/7c9e6679-7425-40de-944b-e07fc1f90ae7`, 'Check a send'],
    ['transfer', '/transfer', 'Transfer money'],
  ];
  for (const [name, path, heading] of pages) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    await expect(page.getByRole('alert')).toHaveCount(1);
    await page.waitForLoadState('networkidle');
    await expectNoSeriousA11yViolations(page, name);
    await saveScreenshot(page, name);
  }

  // The transfer page's other recipients, its review, the PIN dialog and the receipt (adr/0050).
  await depositViaBff(page, 30_000);
  await page.goto('/transfer');
  await page.getByLabel('A bank account (IBAN)').check();
  await page.getByLabel('IBAN', { exact: true }).fill('DE89 3704 0044 0532 0130 00');
  await page.getByLabel("Account holder's name").fill('Grace Hopper');
  await page.getByLabel('Amount in euros').fill('250.00');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  const review = page.getByTestId('send-review');
  await expect(review).toContainText('Grace Hopper');
  await expect(review).toContainText('DE89 3704 0044 0532 0130 00');
  await expectNoSeriousA11yViolations(page, 'transfer review');
  await saveScreenshot(page, 'transfer-review');
  await review.getByRole('button', { name: 'Continue to your PIN' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm with your PIN' });
  await expect(dialog).toBeVisible();
  // What the PIN approves is what the visitor sees: the amount and the payee.
  await expect(dialog.getByTestId('pin-payment')).toContainText('€250.00');
  await expect(dialog.getByTestId('pin-payment')).toContainText('Grace Hopper (DE89 3704 0044 0532 0130 00)');
  await expect(dialog.getByLabel('PIN')).toBeFocused();
  await expectNoSeriousA11yViolations(page, 'PIN dialog');
  await saveScreenshot(page, 'pin-dialog');
  await dialog.getByLabel('PIN').fill('4821');
  const stepUp = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/step-up');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  expect((await stepUp).status()).toBe(201);
  await expect(dialog).toBeHidden();
  const receipt = page.getByRole('region', { name: 'Transfer sent' });
  await expect(receipt.getByTestId('receipt-details')).toContainText('Grace Hopper (DE89 3704 0044 0532 0130 00)');
  await expect(page.getByText("Retrying won't charge you twice.")).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'transfer receipt');
  await saveScreenshot(page, 'transfer-receipt');
});

test('the signed-out pages and the not-found page pass axe', async ({ page }) => {
  for (const [name, path] of [
    ['sign-in', '/sign-in'],
    ['sign-up', '/sign-up'],
    ['not-found', '/no-such-page'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    await expectNoSeriousA11yViolations(page, name);
  }
  await saveScreenshot(page, 'not-found');
});

test('small screens: the dashboard reflows without horizontal scrolling', async ({ page, signUpViaBff }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signUpViaBff();
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Everyday', exact: true })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await saveScreenshot(page, 'dashboard-mobile');
});
