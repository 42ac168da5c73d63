/**
 * What a money send says and does with its key when its answer is unsure (adr/0009).
 * The stack is real; only the money send's answer is scripted with
 * page.route, so each case is one quick answer, and every scripted answer is checked
 * against the spec first (scripted.ts). realOutcomes.spec.ts gets the same answers from
 * the real stack.
 */
import type { Page, Route } from '@playwright/test';
import { depositViaBff, expect, reviewThenSend, saveScreenshot, test } from './fixtures.ts';
import { scriptPayee, scriptedJson, scriptedProblem } from './scripted.ts';

/** Answers every request to `path` from the script in turn, recording the keys it was sent with. */
async function scriptSends(page: Page, pathPart: string, script: Array<(route: Route) => Promise<void>>): Promise<string[]> {
  const keys: string[] = [];
  await page.route(
    (url) => url.pathname.includes(pathPart),
    async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      const next = script.shift();
      return next ? next(route) : route.abort('failed');
    },
  );
  return keys;
}

async function openDeposit(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByRole('link', { name: 'Deposit into Everyday' }).click();
  await page.getByLabel('Amount in euros').fill('12.34');
}

test('503 applied: false on a transfer: nothing changed, and Try again re-sends the same key', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  await depositViaBff(page, 5_000); // more than the transfer: its amount passes the check before the PIN
  const keys = await scriptSends(page, '/api/transfers/internal', [
    (route) => route.fulfill(scriptedProblem('createInternalTransfer', 503, { errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 10, applied: false })),
    (route) =>
      route.fulfill(
        scriptedJson('createInternalTransfer', 201, {
          id: '9b2f3c1e-0000-4000-8000-000000000001',
          fromAccountId: '9b2f3c1e-0000-4000-8000-000000000002',
          toAccountId: null,
          toHandle: 'grace_h',
          iban: null,
          beneficiaryName: null,
          amountMinor: 500,
          createdAt: new Date().toISOString(),
          movements: [],
        }),
      ),
  ]);
  await scriptPayee(page, 'grace_h', 'Grace Hopper');
  await page.goto('/transfer');
  await page.getByLabel('Another Tidewater customer').check();
  await page.getByLabel('Their handle').fill('grace_h');
  await page.getByLabel('Their name').fill('Grace Hopper');
  await page.getByLabel('Amount in euros').fill('5.00');
  await reviewThenSend(page, 'Continue to your PIN');
  // The PIN dialog shows what the PIN approves: the amount and the payee.
  const dialog = page.getByRole('dialog', { name: 'Confirm with your PIN' });
  await expect(dialog.getByTestId('pin-payment')).toContainText('€5.00');
  // Confirmation of payee: the name the bank knows for the handle.
  await expect(dialog.getByTestId('pin-payment')).toContainText('Grace Hopper (@grace_h)');
  await dialog.getByLabel('PIN').fill('4821');
  await dialog.getByRole('button', { name: 'Confirm' }).click();

  await expect(page.getByRole('alert')).toHaveText('The service is temporarily unavailable, and nothing was changed.');
  const tryAgain = page.getByRole('button', { name: 'Try again' });
  await expect(tryAgain).toBeVisible();
  await expect(tryAgain).toHaveAccessibleDescription("Retrying won't charge you twice.");
  await saveScreenshot(page, 'transfer-unsettled');
  await tryAgain.click();
  await expect(page.getByRole('heading', { name: 'Transfer sent' })).toBeVisible();
  expect(keys).toHaveLength(2);
  expect(keys[1]).toBe(keys[0]);
});

test('409 RESULT_UNKNOWN with applied: true: it went through, and no send is offered', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  await scriptSends(page, '/deposits', [(route) => route.fulfill(scriptedProblem('deposit', 409, { errorCode: 'IDEMPOTENCY_RESULT_UNKNOWN', applied: true }))]);
  await openDeposit(page);
  await reviewThenSend(page, /^Deposit €/);
  await expect(page.getByText("Your deposit went through, but we couldn't show its receipt.")).toBeFocused();
  await expect(page.getByRole('heading', { name: 'It went through' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^(Deposit €|Try again)/ })).toHaveCount(0);
  await saveScreenshot(page, 'went-through');
});

test('no answer at all: the key is dropped and the page checks by key before any new send', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  const keys = await scriptSends(page, '/deposits', [(route) => route.abort('connectionreset')]);
  await openDeposit(page);
  const lookUp = page.waitForRequest((request) => new URL(request.url()).searchParams.has('idempotencyKey'));
  await reviewThenSend(page, /^Deposit €/);
  await expect(page.getByRole('alert')).toContainText("we can't tell yet whether it went through");
  const checked = new URL((await lookUp).url()).searchParams;
  expect(checked.get('idempotencyKey')).toBe(keys[0]);
  await expect(page.getByRole('heading', { name: 'Did it go through?' })).toBeVisible();
  await expect(page.getByText("We can't find it yet.")).toBeVisible();
  await expect(page.getByRole('button', { name: /^(Deposit €|Try again)/ })).toHaveCount(0);
  await saveScreenshot(page, 'check-by-key-inline');
});

test('an edit while a key is held drops it and asks for a check first', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  await scriptSends(page, '/deposits', [(route) => route.fulfill(scriptedProblem('deposit', 503, { errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 10 }))]);
  await openDeposit(page);
  await reviewThenSend(page, /^Deposit €/);
  await expect(page.getByRole('alert')).toHaveText("The service is temporarily unavailable, and we can't tell yet whether it went through.");
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  await expect(page.getByText("Retrying won't charge you twice.")).toHaveCount(0); // never on a deposit
  await page.getByRole('button', { name: 'Change the details' }).click();
  await page.getByLabel('Amount in euros').fill('99.00');
  await expect(page.getByRole('alert')).toContainText('Check whether it went through before sending it again.');
  await expect(page.getByRole('heading', { name: 'Did it go through?' })).toBeVisible();
});
