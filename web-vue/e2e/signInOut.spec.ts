import { expect, expectNoSeriousA11yViolations, saveScreenshot, test } from './fixtures.ts';

test('sign out, then sign in again', async ({ page, signUpViaBff }) => {
  const customer = await signUpViaBff();
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Everyday', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByText("You're signed out.")).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'sign-in');
  await saveScreenshot(page, 'sign-in');

  // A signed-out visitor cannot see the dashboard.
  await page.goto('/');
  await expect(page).toHaveURL(/\/sign-in/);

  // A wrong password reads plainly and signs nobody in.
  await page.getByLabel('Email address').fill(customer.email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText("That email and password don't match an account.");

  await page.getByLabel('Password').fill(customer.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Everyday', exact: true })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('');
});

test('the skip link is the first stop and moves to the main content', async ({ page }) => {
  await page.goto('/sign-in');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#main$/);
});
