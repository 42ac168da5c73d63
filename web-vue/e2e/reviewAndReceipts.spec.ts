/**
 * Review, then approve; names, not handles; checks before the PIN; receipts and
 * confirmations (adr/0050), walked on the real stack at 1280×900 and on a phone at 390×844.
 * Money is read back from the database; axe runs on each new screen; the screenshots it
 * saves (`issue-45-after-*`) are the ones kept in docs/screenshots/issue-45/.
 */
import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, newCustomer, saveScreenshot, test, type Customer } from './fixtures.ts';
import { balanceInDatabase } from './sql.ts';

const devices = [
  ['desktop', { width: 1280, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;

/** Signs `customer` in through the BFF (a fresh session). */
async function signIn(page: Page, customer: Customer): Promise<void> {
  await page.context().clearCookies();
  const { csrfToken } = (await (await page.request.get('/bff/session')).json()) as { csrfToken: string };
  const answer = await page.request.post('/bff/login', { data: { email: customer.email, password: customer.password }, headers: { 'X-CSRF-Token': csrfToken } });
  expect(answer.status(), await answer.text()).toBe(200);
}

/** The id of the signed-in customer's account called `name`. */
async function accountId(page: Page, name: string): Promise<string> {
  const listed = (await (await page.request.get('/api/accounts')).json()) as { items: Array<{ id: string; name: string }> };
  const account = listed.items.find((item) => item.name === name);
  if (!account) throw new Error(`no account called ${name}`);
  return account.id;
}

/** The page fits its width: nothing scrolls sideways (on a phone, a long handle or IBAN wraps). */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

/** Every money send and PIN check the page makes. */
function recordSends(page: Page): string[] {
  const sent: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() === 'POST' && /\/(deposits|withdrawals|internal|external|step-up|close)$/.test(path)) sent.push(path);
  });
  return sent;
}

for (const [device, viewport] of devices) {
  test(`${device}: a payment by handle is reviewed, approved and receipted by name; both sides see names`, async ({ page, signUpViaBff }) => {
    await page.setViewportSize(viewport);
    const grace = await signUpViaBff({ ...newCustomer(), displayName: 'Grace Hopper' });
    await page.context().clearCookies();
    const ada = await signUpViaBff();
    const sent = recordSends(page);
    const everyday = await accountId(page, 'Everyday');

    // A deposit: Enter in the amount only reviews it; the review's button sends it, and says
    // "Sending €50.00…" from the first instant (its answer is held until that is seen).
    await page.goto(`/accounts/${everyday}/deposit`);
    await page.getByLabel('Amount in euros').fill('50.00');
    await page.getByLabel('Amount in euros').press('Enter');
    const review = page.getByTestId('send-review');
    await expect(review.getByRole('heading', { name: 'Check the details' })).toBeFocused();
    await expect(review).toContainText('€50.00');
    await expect(review).toContainText('Everyday');
    expect(sent, 'Enter sent nothing').toEqual([]);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/deposits', async (route) => {
      await held;
      await route.continue();
    });
    const deposited = page.waitForResponse((response) => response.url().endsWith('/deposits'));
    await review.getByRole('button', { name: 'Deposit €50.00' }).click();
    await expect(review.getByRole('button', { name: 'Sending €50.00…' })).toBeVisible();
    release();
    const deposit = (await (await deposited).json()) as { id: string };
    const receipt = page.getByRole('region', { name: /Deposit received/ });
    await expect(receipt).toContainText('It went through.');
    await expect(receipt.getByTestId('receipt-details')).toContainText(deposit.id.slice(0, 8));
    await expect.poll(() => balanceInDatabase(everyday)).toEqual({ balanceMinor: 5000, movements: 1 });

    // Confirmation of payee as the handle and name are typed; a handle nobody has is a no match at the field.
    await page.goto('/transfer');
    await page.getByLabel('Another Tidewater customer').check();
    await page.getByLabel('Their handle').fill('nobody_has_this');
    await page.getByLabel('Their name').fill('Grace Hopper');
    await expect(page.getByLabel('Their handle')).toHaveAccessibleDescription(/doesn't match the handle/);
    await page.getByLabel('Their handle').fill(grace.handle);
    await expect(page.getByTestId('payee-name')).toHaveText('The name matches: Grace Hopper.');
    await expect(page.getByLabel('Their handle')).toHaveAccessibleDescription(/Grace Hopper/);
    await expectNoSeriousA11yViolations(page, `payee named as typed (${device})`);

    // More than the shown balance is refused at the amount, focused, before any PIN.
    await page.getByLabel('Amount in euros').fill('60.00');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByLabel('Amount in euros')).toBeFocused();
    await expect(page.getByLabel('Amount in euros')).toHaveAccessibleDescription(/more than the €50\.00 in Everyday/);
    expect(sent.filter((path) => path !== `/api/accounts/${everyday}/deposits`)).toEqual([]);

    // Enter reviews: amount, from, and the payee by name and handle; nothing has gone.
    await page.getByLabel('Amount in euros').fill('12.50');
    await page.getByLabel('Note (optional)').fill('Dinner');
    await page.getByLabel('Note (optional)').press('Enter');
    await expect(review).toContainText('€12.50');
    await expect(review).toContainText('Everyday');
    await expect(review).toContainText('Grace Hopper');
    await expect(review).toContainText(`@${grace.handle}`);
    expect(sent.filter((path) => path !== `/api/accounts/${everyday}/deposits`)).toEqual([]);
    await expectNoSeriousA11yViolations(page, `transfer review (${device})`);
    await expectNoSidewaysScroll(page);
    await saveScreenshot(page, `issue-45-after-review-${device}`);

    // The PIN dialog repeats what it approves; then the receipt names the payee.
    await review.getByRole('button', { name: 'Continue to your PIN' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm with your PIN' });
    await expect(dialog.getByTestId('pin-payment')).toContainText('€12.50');
    await expect(dialog.getByTestId('pin-payment')).toContainText(`Grace Hopper (@${grace.handle})`);
    await dialog.getByLabel('PIN').fill(ada.pin);
    const transferred = page.waitForResponse((response) => response.url().endsWith('/api/transfers/internal'));
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const transfer = (await (await transferred).json()) as { id: string };
    const transferReceipt = page.getByRole('region', { name: /Transfer sent/ });
    await expect(transferReceipt).toContainText('It went through.');
    await expect(transferReceipt).toContainText('on its way to Grace Hopper');
    const details = transferReceipt.getByTestId('receipt-details');
    await expect(details).toContainText('€12.50');
    await expect(details).toContainText(`Grace Hopper (@${grace.handle})`);
    await expect(details).toContainText(transfer.id.slice(0, 8));
    await expectNoSeriousA11yViolations(page, `transfer receipt (${device})`);
    await expectNoSidewaysScroll(page);
    await saveScreenshot(page, `issue-45-after-receipt-${device}`);

    // The money, from the database: once out of Ada's account, once into Grace's.
    await expect.poll(() => balanceInDatabase(everyday)).toEqual({ balanceMinor: 3750, movements: 2 });
    await page.goto('/');
    await expect(page.getByTestId('total-balance')).toHaveText('€37.50');
    await saveScreenshot(page, `issue-45-after-dashboard-${device}`);
    await page.goto(`/accounts/${everyday}`);
    await expect(page.getByRole('table')).toContainText(`Grace Hopper (@${grace.handle})`);

    await signIn(page, grace);
    const gracesAccount = await accountId(page, 'Everyday');
    expect(await balanceInDatabase(gracesAccount)).toEqual({ balanceMinor: 1250, movements: 1 });
    await page.goto(`/accounts/${gracesAccount}`);
    await expect(page.getByRole('table')).toContainText(`Ada Lovelace (@${ada.handle})`);
  });

  test(`${device}: refusals land at their field before any PIN; open, rename and close are confirmed`, async ({ page, signUpViaBff }) => {
    await page.setViewportSize(viewport);
    await signUpViaBff();
    const sent = recordSends(page);
    await page.goto('/');
    await page.getByRole('button', { name: 'New account' }).click();
    await page.getByLabel('Account name').fill('Holidays');
    await page.getByRole('button', { name: 'Open account' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Opened Holidays.' })).toBeVisible();
    const everyday = await accountId(page, 'Everyday');
    const holidays = await accountId(page, 'Holidays');

    // An IBAN with a mistyped digit: its check digits (mod 97) refuse it at the field.
    await page.goto('/transfer');
    await page.getByLabel('A bank account (IBAN)').check();
    await page.getByLabel('IBAN', { exact: true }).fill('DE89 3704 0044 0532 0130 01');
    await page.getByLabel("Account holder's name").fill('Grace Hopper');
    await page.getByLabel('Amount in euros').fill('1.00');
    await page.getByLabel('Amount in euros').press('Enter');
    await expect(page.getByLabel('IBAN', { exact: true })).toBeFocused();
    await expect(page.getByLabel('IBAN', { exact: true })).toHaveAccessibleDescription(/check digits don't match/);

    // A withdrawal of more than the shown €0.00: at the amount, no PIN asked.
    await page.goto(`/accounts/${everyday}/withdraw`);
    await page.getByLabel('Amount in euros').fill('5.00');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByLabel('Amount in euros')).toBeFocused();
    await expect(page.getByLabel('Amount in euros')).toHaveAccessibleDescription(/more than the €0\.00 in Everyday/);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(sent, 'nothing sent, no PIN checked').toEqual([]);

    // The server's refusal lands at its field too: the shown balance is stale (money left
    // behind the page's back), the client's check passes, the API refuses the amount.
    await page.goto(`/accounts/${everyday}/deposit`);
    await page.getByLabel('Amount in euros').fill('20.00');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Deposit €20.00' }).click();
    await expect(page.getByRole('heading', { name: 'Deposit received' })).toBeVisible();
    await page.goto(`/transfer?from=${everyday}`);
    await page.getByLabel('To account').selectOption({ label: 'Holidays' });
    const { csrfToken } = (await (await page.request.get('/bff/session')).json()) as { csrfToken: string };
    const behindItsBack = await page.request.post('/api/transfers/internal', {
      headers: { 'X-CSRF-Token': csrfToken, 'Idempotency-Key': crypto.randomUUID() },
      data: { fromAccountId: everyday, toAccountId: holidays, amountMinor: 1500 },
    });
    expect(behindItsBack.status()).toBe(201);
    await page.getByLabel('Amount in euros').fill('20.00');
    await page.getByLabel('Amount in euros').press('Enter');
    const refused = page.waitForResponse((response) => response.url().endsWith('/api/transfers/internal'));
    await page.getByRole('button', { name: 'Send €20.00' }).click();
    expect((await refused).status()).toBe(422);
    await expect(page.getByLabel('Amount in euros')).toBeFocused();
    await expect(page.getByLabel('Amount in euros')).toHaveAccessibleDescription(/There isn't enough money in this account/);
    expect(await balanceInDatabase(everyday)).toEqual({ balanceMinor: 500, movements: 2 });

    // Closing an account that holds money is refused at its button, before "Yes, close".
    await page.goto(`/accounts/${holidays}/manage`);
    await page.getByRole('button', { name: 'Close this account' }).click();
    await expect(page.getByText('This account still holds €15.00')).toBeFocused();
    await expect(page.getByRole('button', { name: /Yes, close/ })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, `close refused (${device})`);

    // Rename is confirmed beside it; an empty account closes, and the dashboard says so.
    await page.getByLabel('Account name').fill('Trips');
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved: this account is now called Trips.' })).toBeVisible();
    await page.goto(`/transfer?from=${holidays}`);
    await page.getByLabel('To account').selectOption({ label: 'Everyday' });
    await page.getByLabel('Amount in euros').fill('15.00');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Send €15.00' }).click();
    await expect(page.getByRole('heading', { name: 'Transfer sent' })).toBeVisible();
    expect(await balanceInDatabase(holidays)).toEqual({ balanceMinor: 0, movements: 2 });
    await page.goto(`/accounts/${holidays}/manage`);
    await page.getByRole('button', { name: 'Close this account' }).click();
    await expect(page.getByRole('button', { name: 'Yes, close Trips' })).toBeFocused();
    await page.getByRole('button', { name: 'Yes, close Trips' }).click();
    await expect(page.getByTestId('confirmation')).toHaveText('Closed Trips. You will find it under Closed accounts.');
    await expectNoSeriousA11yViolations(page, `dashboard after closing (${device})`);
  });
}
