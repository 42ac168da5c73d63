import { expect, expectNoSeriousA11yViolations, newCustomer, saveScreenshot, test } from './fixtures.ts';

test('sign up, and the dashboard shows the Everyday account', async ({ page }) => {
  const customer = newCustomer();
  await page.goto('/sign-up');
  await expect(page.getByRole('heading', { level: 1, name: 'Open your Tidewater account' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'sign-up');

  // Errors are tied to their fields and focus goes to the first one.
  await page.getByRole('button', { name: 'Open my account' }).click();
  await expect(page.getByLabel('Your name')).toBeFocused();
  await expect(page.getByLabel('Your name')).toHaveAccessibleDescription(/Enter your name/);
  await saveScreenshot(page, 'sign-up-errors');

  await page.getByLabel('Your name').fill(customer.displayName);
  await page.getByLabel('Email address').fill(customer.email);
  await page.getByLabel('Handle', { exact: true }).fill(customer.handle);
  await page.getByLabel('Password').fill(customer.password);
  await page.getByLabel('PIN').fill(customer.pin);
  await saveScreenshot(page, 'sign-up');
  await page.getByRole('button', { name: 'Open my account' }).click();

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hello, Ada');
  const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Everyday', exact: true }) });
  await expect(card).toBeVisible();
  await expect(card).toContainText('€0.00');
  await expect(card).toContainText('Primary');
  await expect(page.getByTestId('total-balance')).toHaveText('€0.00');
  await expect(page.getByRole('alert')).toHaveText('');
  await expectNoSeriousA11yViolations(page, 'dashboard');
  await saveScreenshot(page, 'dashboard');
});
