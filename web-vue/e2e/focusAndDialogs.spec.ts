/**
 * Focus and what a page says (issue 52 item 4; focus rules of adr/0013 and adr/0054):
 * "New account" moves focus to its name field, Escape closes it and focus returns to the
 * button, and once opened focus is on the new account; an outcome said on one page does
 * not follow the visitor to the next (desktop and phone sizes). A handle being typed is
 * looked up quietly: nobody having it is no error until "Continue".
 */
import { depositViaBff, expect, expectNoSeriousA11yViolations, saveScreenshot, test } from './fixtures.ts';

const sizes = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

for (const size of sizes) {
  test(`"New account" by click and by keyboard: focus in, Escape out, focus on what was opened; its sentence stays on its page (${size.name})`, async ({ page, signUpViaBff }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await signUpViaBff();
    await page.goto('/');
    const newAccount = page.getByRole('button', { name: 'New account' });

    await newAccount.click();
    await expect(page.getByLabel('Account name')).toBeFocused();
    await expectNoSeriousA11yViolations(page, 'the new-account form');
    await saveScreenshot(page, `new-account-form-${size.name}`);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('form', { name: 'New account' })).toHaveCount(0);
    await expect(newAccount).toBeFocused();

    await page.keyboard.press('Enter');
    await expect(page.getByLabel('Account name')).toBeFocused();
    await page.keyboard.type('Holiday savings');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('link', { name: 'Holiday savings', exact: true })).toBeFocused();
    await expect(page.getByText('Opened Holiday savings.')).toBeVisible();
    // The dashboard says it once, not again as a held send's outcome.
    await expect(page.getByText('Opening the account Holiday savings: it went through.')).toHaveCount(0);

    await page.getByRole('link', { name: 'Deposit into Everyday' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Deposit money into Everyday');
    await expect(page.getByText(/Holiday savings/)).toHaveCount(0);
  });
}

test('a name and handle that do not match are said in neutral words as they are typed, and are an error only on Continue', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  await depositViaBff(page, 500);
  await page.goto('/transfer');
  await page.getByLabel('Another Tidewater customer').check();
  await page.getByLabel('Their handle').fill('nobody_has_th');
  await page.getByLabel('Their name').fill('Grace Hopper');
  await expect(page.getByTestId('payee-name')).toHaveText("This name doesn't match the handle so far.");
  await expect(page.locator('.field__error')).toHaveCount(0);
  await expect(page.getByLabel('Their name')).not.toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Amount in euros').fill('1.00');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page.getByLabel('Their name')).toBeFocused();
  await expect(page.getByLabel('Their name')).toHaveAccessibleDescription(/This name doesn't match the handle\. Check both/);
});
