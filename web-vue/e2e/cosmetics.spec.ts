/**
 * The small untruths of issue 52 (item 5): an IBAN typed in lowercase reads uppercase and
 * grouped on the review, the PIN dialog and the receipt; the own-transfer "To" list never
 * offers the "From" account; a transfer between own accounts says it arrived (it is
 * instant), not that it is on its way.
 */
import { depositViaBff, expect, expectNoSeriousA11yViolations, saveScreenshot, test } from './fixtures.ts';

test('an IBAN reads uppercase and grouped wherever it is shown', async ({ page, signUpViaBff }) => {
  const ada = await signUpViaBff();
  await depositViaBff(page, 5000);
  await page.goto('/transfer');
  await page.getByLabel('A bank account (IBAN)').check();
  await page.getByLabel('IBAN', { exact: true }).fill('de89370400440532013000');
  await page.getByLabel("Account holder's name").fill('Max Mustermann');
  await page.getByLabel('Amount in euros').fill('3.00');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  const review = page.getByTestId('send-review');
  await expect(review).toContainText('DE89 3704 0044 0532 0130 00');
  await expect(review).not.toContainText('de89');
  await review.getByRole('button', { name: 'Continue to your PIN' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm with your PIN' });
  await expect(dialog).toContainText('Max Mustermann (DE89 3704 0044 0532 0130 00)');
  await expectNoSeriousA11yViolations(page, 'the PIN dialog of an external transfer');
  await dialog.getByLabel('PIN').fill(ada.pin);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  const receipt = page.getByRole('region', { name: /Transfer sent/ });
  await expect(receipt.getByTestId('receipt-details')).toContainText('Max Mustermann (DE89 3704 0044 0532 0130 00)');
  await expectNoSeriousA11yViolations(page, 'an external transfer receipt');
  await saveScreenshot(page, 'iban-receipt-desktop');
});

test('between own accounts: "To" never offers "From", and the receipt says it is there now', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  await depositViaBff(page, 5000);
  await page.goto('/');
  await page.getByRole('button', { name: 'New account' }).click();
  await page.getByLabel('Account name').fill('Savings');
  await page.getByRole('button', { name: 'Open account' }).click();
  await expect(page.getByRole('link', { name: 'Savings', exact: true })).toBeVisible();

  await page.goto('/transfer');
  await page.getByLabel('Another of my accounts').check();
  await page.getByLabel('To account').selectOption({ label: 'Savings' });
  await page.getByLabel('From').selectOption({ label: 'Savings (€0.00)' });
  await expect(page.getByLabel('To account').locator('option:not([disabled])')).toHaveText(['Everyday']);
  await expect(page.getByLabel('To account')).toHaveValue('');
  await page.getByLabel('From').selectOption({ label: 'Everyday (€50.00)' });
  await expect(page.getByLabel('To account').locator('option:not([disabled])')).toHaveText(['Savings']);
  await page.getByLabel('To account').selectOption({ label: 'Savings' });
  await page.getByLabel('Amount in euros').fill('7.00');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.getByTestId('send-review').getByRole('button', { name: 'Send €7.00' }).click();
  const receipt = page.getByRole('region', { name: /Transfer sent/ });
  await expect(receipt).toContainText("€7.00 moved from Everyday to Savings. It's there now.");
  await expect(receipt).not.toContainText('on its way');
});
