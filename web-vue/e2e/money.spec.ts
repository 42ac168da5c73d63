import { expect, expectNoSeriousA11yViolations, reviewThenSend, saveScreenshot, test } from './fixtures.ts';

test('deposit → transfer → movements', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  await page.goto('/');
  await page.getByRole('link', { name: 'Deposit into Everyday' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Deposit money into Everyday');

  // Amounts are checked before anything is sent.
  await page.getByLabel('Amount in euros').fill('12.345');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel('Amount in euros')).toBeFocused();
  await expect(page.getByLabel('Amount in euros')).toHaveAccessibleDescription(/Enter an amount in euros, like 12\.34\./);

  await page.getByLabel('Amount in euros').fill('12.34');
  await page.getByLabel('Note (optional)').fill('Birthday money');
  const answered = page.waitForResponse((response) => response.url().includes('/deposits'));
  await reviewThenSend(page, /^Deposit €/);
  const response = await answered;
  expect(response.request().headers()['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  expect(response.request().headers()['x-csrf-token']).toBeTruthy();

  expect(response.status()).toBe(201);
  await expect(page.getByRole('heading', { name: 'Deposit received' })).toBeVisible();
  await expect(page.getByText('New balance')).toContainText('€12.34');
  await expectNoSeriousA11yViolations(page, 'deposit receipt');
  await saveScreenshot(page, 'deposit-receipt');

  // A second account, then a transfer between the two.
  await page.goto('/');
  await page.getByRole('button', { name: 'New account' }).click();
  await page.getByLabel('Account name').fill('Holidays');
  await page.getByRole('button', { name: 'Open account' }).click();
  await expect(page.getByRole('link', { name: 'Holidays', exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Transfer from Everyday' }).click();
  await page.getByLabel('To account').selectOption({ label: 'Holidays' });
  await page.getByLabel('Amount in euros').fill('2.34');
  await reviewThenSend(page, /^Send €/);
  await expect(page.getByRole('heading', { name: 'Transfer sent' })).toBeVisible();

  await page.goto('/');
  await page.getByRole('link', { name: 'Everyday', exact: true }).click();
  await expect(page.getByRole('table')).toContainText('€10.00');
  await saveScreenshot(page, 'account-movements');
});
