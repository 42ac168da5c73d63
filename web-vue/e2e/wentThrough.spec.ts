/**
 * When a send went through but its answer did not (adr/0013).
 *
 * - A lost answer found by "Check again": the receipt the listing by key returns (amount,
 *   account, the movement), its sentence kept and focused; focus never falls to <body>.
 *   The first answer is lost in the browser (page.route aborts the request), then the same
 *   request (same key, cookie, CSRF token) lands on the real API, as a late network would
 *   bring it, and the check asks the real listing by key.
 * - 409 IDEMPOTENCY_RESULT_UNKNOWN with applied: true, on each of the four sends: the
 *   send's own words, focused, and no send offered. Scripted (checked against the spec);
 *   realOutcomes.spec.ts gets the same answer from the real stack.
 */
import type { Page } from '@playwright/test';
import { depositViaBff, expect, expectNoSeriousA11yViolations, noteTiming, reviewThenSend, saveScreenshot, secondsSince, test } from './fixtures.ts';
import { scriptPayee, scriptedProblem } from './scripted.ts';

async function openDeposit(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByRole('link', { name: 'Deposit into Everyday' }).click();
  await page.getByLabel('Amount in euros').fill('12.34');
}

test('a lost answer found by "Check again": its receipt, its sentence kept, focus on it', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  await openDeposit(page);
  let lost: { url: string; headers: Record<string, string>; body: string } | undefined;
  await page.route(
    (url) => url.pathname.endsWith('/deposits'),
    async (route) => {
      const request = route.request();
      lost = { url: request.url(), headers: request.headers(), body: request.postData() ?? '' };
      await route.abort('connectionreset');
    },
    { times: 1 },
  );
  await reviewThenSend(page, /^Deposit €/);
  const checkHeading = page.getByRole('heading', { name: 'Did it go through?' });
  await expect(checkHeading).toBeVisible();
  await expect(page.getByText("We can't find it yet.")).toBeVisible();
  await expect(checkHeading).toBeFocused();

  // The same request lands after all.
  const { 'content-type': contentType, 'idempotency-key': key, 'x-csrf-token': csrf } = lost!.headers;
  const landed = await page.request.post(lost!.url, { headers: { 'Content-Type': contentType!, 'Idempotency-Key': key!, 'X-CSRF-Token': csrf! }, data: lost!.body });
  expect(landed.status()).toBe(201);

  const checkedAt = Date.now();
  await page.getByRole('button', { name: 'Check again' }).click();
  const sentence = page.getByText('Your deposit went through.', { exact: true });
  await expect(sentence).toBeVisible();
  noteTiming('"Check again" to its receipt', secondsSince(checkedAt));
  await expect(sentence).toBeFocused();
  const receipt = page.getByRole('region', { name: 'It went through' });
  await expect(receipt).toContainText('€12.34 is in Everyday.');
  await expect(receipt.getByRole('table')).toContainText('Deposit');
  await expect(receipt.getByRole('table')).toContainText('€12.34');
  await page.waitForTimeout(2_000);
  await expect(sentence).toBeVisible();
  await expect(page.getByRole('button', { name: /^(Deposit €|Try again)/ })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'went through, found by key');
  await saveScreenshot(page, 'went-through-found');
});

interface SendCase {
  operationId: string;
  path: RegExp;
  words: string;
  start: (page: Page) => Promise<void>;
}

async function confirmPin(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Confirm with your PIN' });
  await dialog.getByLabel('PIN').fill('4821');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
}

const sends: SendCase[] = [
  {
    operationId: 'deposit',
    path: /\/deposits$/,
    words: "Your deposit went through, but we couldn't show its receipt.",
    start: async (page) => {
      await openDeposit(page);
      await reviewThenSend(page, /^Deposit €/);
    },
  },
  {
    operationId: 'withdraw',
    path: /\/withdrawals$/,
    words: "Your withdrawal went through, but we couldn't show its receipt.",
    start: async (page) => {
      await page.goto('/');
      await page.getByRole('link', { name: 'Everyday', exact: true }).click();
      await page.getByRole('link', { name: 'Withdraw' }).click();
      await page.getByLabel('Amount in euros').fill('5.00');
      await reviewThenSend(page, 'Continue to your PIN');
      await confirmPin(page);
    },
  },
  {
    operationId: 'createInternalTransfer',
    path: /\/api\/transfers\/internal$/,
    words: "Your transfer went through, but we couldn't show its receipt.",
    start: async (page) => {
      await scriptPayee(page, 'grace_h', 'Grace Hopper');
      await page.goto('/transfer');
      await page.getByLabel('Another Tidewater customer').check();
      await page.getByLabel('Their handle').fill('grace_h');
      await page.getByLabel('Their name').fill('Grace Hopper');
      await page.getByLabel('Amount in euros').fill('5.00');
      await reviewThenSend(page, 'Continue to your PIN');
      await confirmPin(page);
    },
  },
  {
    operationId: 'createExternalTransfer',
    path: /\/api\/transfers\/external$/,
    words: "Your transfer went through, but we couldn't show its receipt.",
    start: async (page) => {
      await page.goto('/transfer');
      await page.getByLabel('A bank account (IBAN)').check();
      await page.getByLabel('IBAN', { exact: true }).fill('DE89 3704 0044 0532 0130 00');
      await page.getByLabel("Account holder's name").fill('Grace Hopper');
      await page.getByLabel('Amount in euros').fill('5.00');
      await reviewThenSend(page, 'Continue to your PIN');
      await confirmPin(page);
    },
  },
];

for (const send of sends) {
  test(`409 RESULT_UNKNOWN with applied: true on ${send.operationId}: its own words, focused, and no send offered`, async ({ page, signUpViaBff }) => {
    await signUpViaBff();
    await depositViaBff(page, 5_000); // the money the withdrawal and the transfers would move
    const answer = scriptedProblem(send.operationId, 409, { errorCode: 'IDEMPOTENCY_RESULT_UNKNOWN', applied: true });
    await page.route(
      (url) => send.path.test(url.pathname),
      (route) => (route.request().method() === 'POST' ? route.fulfill(answer) : route.fallback()),
    );
    await send.start(page);
    const sentence = page.getByText(send.words, { exact: true });
    await expect(sentence).toBeVisible();
    await expect(sentence).toBeFocused();
    await expect(page.getByRole('button', { name: /^(Deposit €|Continue|Send €|Try again)|^Make another/ })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, `went through on ${send.operationId}`);
    await saveScreenshot(page, `went-through-${send.operationId}`);
  });
}
