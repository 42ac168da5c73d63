/**
 * Confirmation of payee and saved payees (issue 54 item 2, issue 52 item 6, adr/0072), walked
 * on the real stack at desktop and phone size: the payer types the handle and the name they
 * expect and sees match / close match / no match before the PIN; a name that does not match
 * shows no name and goes no further; a close match names the holder, and the review, the PIN
 * dialog and the receipt use the bank's name. Next time the payee is picked from the people
 * paid before, and checked again. Money is read back from the database; axe and the sideways
 * check run on each new screen at 1280, 390 and 320 px.
 */
import type { Page } from '@playwright/test';
import { depositViaBff, expect, expectNoSeriousA11yViolations, newCustomer, saveScreenshot, test } from './fixtures.ts';
import { balanceInDatabase } from './sql.ts';
import { expectNoHorizontalOverflow, viewports } from './viewports.ts';

/** The signed-in customer's account ids by name. */
async function accountIds(page: Page): Promise<Map<string, string>> {
  const listed = (await (await page.request.get('/api/accounts')).json()) as { items: Array<{ id: string; name: string }> };
  return new Map(listed.items.map((item) => [item.name, item.id]));
}

/** axe and the sideways check at every screen size, then back to `size`. */
async function checkEverySize(page: Page, label: string, size: { width: number; height: number }): Promise<void> {
  for (const viewport of viewports) {
    await page.setViewportSize(viewport);
    await expectNoSeriousA11yViolations(page, `${label} (${viewport.name})`);
    await expectNoHorizontalOverflow(page, `${label} (${viewport.name})`);
  }
  await page.setViewportSize(size);
}

for (const viewport of viewports.filter((each) => each.name !== 'small-phone')) {
  test(`${viewport.name}: the payee's name is confirmed before the PIN, and a payee paid once is picked and confirmed again`, async ({ page, signUpViaBff }) => {
    await page.setViewportSize(viewport);
    const grace = await signUpViaBff({ ...newCustomer(), displayName: 'Grace Murray Hopper' });
    const graceAccount = (await accountIds(page)).get('Everyday')!;
    await page.context().clearCookies();
    const ada = await signUpViaBff();
    await depositViaBff(page, 5_000);
    const everyday = (await accountIds(page)).get('Everyday')!;
    const checks: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/payees/')) checks.push(`${url.pathname}${url.search}`);
    });

    await page.goto('/transfer');
    await page.getByLabel('Another Tidewater customer').check();
    await expect(page.getByLabel("Someone you've paid before")).toHaveCount(0);
    const status = page.getByTestId('payee-name');

    // No match: no name shown, and "Continue" stops at the name, nothing sent.
    await page.getByLabel('Their handle').fill(grace.handle);
    await page.getByLabel('Their name').fill('Ada Lovelace');
    await expect(status).toHaveText("This name doesn't match the handle so far.");
    await page.getByLabel('Amount in euros').fill('12.00');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(page.getByLabel('Their name')).toBeFocused();
    await expect(page.getByLabel('Their name')).toHaveAccessibleDescription(/doesn't match the handle\. Check both/);
    await expect(page.getByTestId('send-review')).toHaveCount(0);
    await expect(page.locator('body')).not.toContainText('Grace');
    await checkEverySize(page, 'payee no match', viewport);

    // Close match: an initial and the last name; the bank names the holder.
    await page.getByLabel('Their name').fill('G. Hopper');
    await expect(status).toHaveText("Close match: this handle's holder is Grace Murray Hopper. Check this is who you mean to pay.");
    await checkEverySize(page, 'payee close match', viewport);
    await saveScreenshot(page, `payees-close-match-${viewport.name}`);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    const review = page.getByTestId('send-review');
    await expect(review).toContainText(`Grace Murray Hopper`);
    await expect(review).toContainText(`@${grace.handle}`);
    await review.getByRole('button', { name: 'Continue to your PIN' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm with your PIN' });
    await expect(dialog.getByTestId('pin-payment')).toContainText(`Grace Murray Hopper (@${grace.handle})`);
    await dialog.getByLabel('PIN').fill(ada.pin);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByRole('region', { name: /Transfer sent/ })).toContainText('on its way to Grace Murray Hopper');
    await expect.poll(() => balanceInDatabase(everyday)).toEqual({ balanceMinor: 3_800, movements: 2 });
    await expect.poll(() => balanceInDatabase(graceAccount)).toEqual({ balanceMinor: 1_200, movements: 1 });

    // Next time: picked from the people paid before, and confirmed again by the bank.
    await page.getByRole('button', { name: 'Make another transfer' }).click();
    await page.getByLabel('Another Tidewater customer').check();
    const picker = page.getByLabel("Someone you've paid before");
    await expect(picker.locator('option')).toHaveText(['Choose to fill in their details', `Grace Murray Hopper (@${grace.handle})`]);
    const checksBefore = checks.length;
    await picker.selectOption({ label: `Grace Murray Hopper (@${grace.handle})` });
    await expect(page.getByLabel('Their handle')).toHaveValue(grace.handle);
    await expect(page.getByLabel('Their name')).toHaveValue('Grace Murray Hopper');
    await expect(status).toHaveText('The name matches: Grace Murray Hopper.');
    expect(checks.slice(checksBefore)).toEqual([`/api/payees/${grace.handle}?name=Grace%20Murray%20Hopper`]);
    await checkEverySize(page, 'saved payee picked', viewport);
    await saveScreenshot(page, `payees-saved-picked-${viewport.name}`);
    await page.getByLabel('Amount in euros').fill('3.00');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await review.getByRole('button', { name: 'Continue to your PIN' }).click();
    await dialog.getByLabel('PIN').fill(ada.pin);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByRole('region', { name: /Transfer sent/ })).toContainText('on its way to Grace Murray Hopper');
    await expect.poll(() => balanceInDatabase(everyday)).toEqual({ balanceMinor: 3_500, movements: 3 });
    await expect.poll(() => balanceInDatabase(graceAccount)).toEqual({ balanceMinor: 1_500, movements: 2 });
  });
}
