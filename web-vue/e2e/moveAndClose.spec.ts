/**
 * "Move the balance and close" (issue 52 item 5, adr/0074): an account that still holds
 * money is never closed with it. Its "Close account" section offers to move the balance to
 * another of the customer's accounts first: the transfer page, filled in, with its review,
 * its key and its held-send rules; its receipt leads back to close the account, now empty.
 * The database shows the money moved once and none lost: Savings closed at €0.00, Everyday
 * holding every cent.
 */
import type { Page } from '@playwright/test';
import { depositViaBff, expect, expectNoSeriousA11yViolations, saveScreenshot, test } from './fixtures.ts';
import { accountStatus, balanceInDatabase } from './sql.ts';
import { expectNoHorizontalOverflow, viewports } from './viewports.ts';

const accountIdOf = async (page: Page, name: string) => (await page.getByRole('link', { name, exact: true }).getAttribute('href'))!.split('/').at(-1)!;

/** Moves `amountMinor` between two of the signed-in customer's accounts through the BFF (a set-up step). */
async function transferViaBff(page: Page, fromAccountId: string, toAccountId: string, amountMinor: number): Promise<void> {
  const { csrfToken } = (await (await page.request.get('/bff/session')).json()) as { csrfToken: string };
  const answer = await page.request.post('/api/transfers/internal', {
    headers: { 'X-CSRF-Token': csrfToken, 'Idempotency-Key': crypto.randomUUID() },
    data: { fromAccountId, toAccountId, amountMinor },
  });
  expect(answer.status(), await answer.text()).toBe(201);
}

test('an account with money: its balance is moved to another account first, then it closes, with every cent accounted for', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  await depositViaBff(page, 5000);
  await page.goto('/');
  await page.getByRole('button', { name: 'New account' }).click();
  await page.getByLabel('Account name').fill('Savings');
  await page.getByRole('button', { name: 'Open account' }).click();
  await expect(page.getByRole('link', { name: 'Savings', exact: true })).toBeVisible();
  const everyday = await accountIdOf(page, 'Everyday');
  const savings = await accountIdOf(page, 'Savings');
  await transferViaBff(page, everyday, savings, 1234);

  await page.goto(`/accounts/${savings}/manage`);
  const closing = page.getByRole('region', { name: 'Close account' });
  await expect(closing).toContainText('Balance now: €12.34.');
  const offer = closing.getByRole('link', { name: 'Move €12.34 to Everyday, then close' });
  await expect(offer).toBeVisible();
  for (const viewport of viewports) {
    await page.setViewportSize(viewport);
    await expectNoHorizontalOverflow(page, `the close section with money in it at ${viewport.width} px`);
    await expectNoSeriousA11yViolations(page, `the close section with money in it (${viewport.name})`);
    await saveScreenshot(page, `move-and-close-offer-${viewport.name}`);
  }
  await page.setViewportSize(viewports[0]);
  // Closing it as it is is still refused, and says where the offer is.
  await closing.getByRole('button', { name: 'Close this account' }).click();
  await expect(closing.getByText('This account still holds €12.34.')).toBeFocused();
  expect(await accountStatus(savings)).toBe('open');

  await offer.click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Transfer money');
  await expect(page.getByLabel('From')).toHaveValue(savings);
  await expect(page.getByLabel('Another of my accounts')).toBeChecked();
  await expect(page.getByLabel('To account')).toHaveValue(everyday);
  await expect(page.getByLabel('Amount in euros')).toHaveValue('12.34');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  const review = page.getByTestId('send-review');
  await expect(review).toContainText('Savings');
  await review.getByRole('button', { name: 'Send €12.34' }).click();
  const receipt = page.getByRole('region', { name: /Transfer sent/ });
  await expect(receipt).toContainText("€12.34 moved from Savings to Everyday. It's there now.");
  await expect.poll(() => balanceInDatabase(savings)).toEqual({ balanceMinor: 0, movements: 2 });
  await saveScreenshot(page, 'move-and-close-receipt-desktop');
  await expectNoSeriousA11yViolations(page, 'the receipt that leads back to closing');

  await receipt.getByRole('link', { name: 'Close Savings now' }).click();
  await expect(page.getByRole('button', { name: 'Yes, close Savings' })).toBeFocused();
  await page.getByRole('button', { name: 'Yes, close Savings' }).click();
  await expect(page.getByText('Closed Savings. You will find it under Closed accounts.')).toBeVisible();

  expect(await accountStatus(savings)).toBe('closed');
  expect(await balanceInDatabase(savings)).toEqual({ balanceMinor: 0, movements: 2 });
  expect(await balanceInDatabase(everyday)).toEqual({ balanceMinor: 5000, movements: 3 });
});

test('the primary account, or the only account, is offered no move: the reason stands instead', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  await depositViaBff(page, 700);
  await page.goto('/');
  const everyday = await accountIdOf(page, 'Everyday');
  await page.goto(`/accounts/${everyday}/manage`);
  const closing = page.getByRole('region', { name: 'Close account' });
  await expect(closing).toContainText('Balance now: €7.00.');
  await expect(closing.getByRole('link', { name: /then close/ })).toHaveCount(0);
});
