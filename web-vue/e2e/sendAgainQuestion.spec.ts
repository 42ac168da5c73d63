/**
 * One truth about a send across tabs and reloads (issue 52 item 1, adr/0065). Two ways the
 * issue paid twice, each at desktop and phone sizes on the real stack:
 *
 * - two tabs review the same deposit; the database pauses while tab 1 sends it and comes
 *   back 2 s later: tab 2's review, shown again once the send landed, asks "You sent €55.55
 *   to Everyday at 14:03 — send it again?" and its button sends nothing until the visitor
 *   says yes;
 * - a deposit commits but its answer never reaches the page; the visitor reloads, goes
 *   home and the look-up by key finds it landed: a receipt stays on the dashboard and the
 *   deposit page until dismissed, and a review of the same deposit asks first.
 *
 * The ledger is read from the database: the money moves once unless the visitor says yes.
 */
import type { BrowserContext, Page, Route } from '@playwright/test';
import { database, expect, expectNoSeriousA11yViolations, reviewThenSend, saveScreenshot, test } from './fixtures.ts';
import { depositsOf } from './sql.ts';

const sizes = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** Counts the deposits `context`'s tabs send from now on. */
function countDeposits(context: BrowserContext): () => number {
  let sent = 0;
  context.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/deposits')) sent += 1;
  });
  return () => sent;
}

/** Opens the deposit page of Everyday and reviews `amount`; returns the account's id. */
async function reviewDeposit(page: Page, amount: string): Promise<string> {
  await page.goto('/');
  const accountId = (await page.getByRole('link', { name: 'Everyday', exact: true }).getAttribute('href'))!.split('/').at(-1)!;
  await page.getByRole('link', { name: 'Deposit into Everyday' }).click();
  await page.getByLabel('Amount in euros').fill(amount);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page.getByTestId('send-review')).toBeVisible();
  return accountId;
}

/** The review asks before it sends: the question stands, the button is marked unusable, and pressing it sends nothing (focus goes to the answer). */
async function expectAskedFirst(page: Page, question: RegExp, button: string, sent: () => number): Promise<void> {
  const review = page.getByTestId('send-review');
  await expect(review.getByTestId('send-again')).toHaveText(question);
  const send = review.getByRole('button', { name: button });
  await expect(send).toHaveAttribute('aria-disabled', 'true');
  const before = sent();
  await send.click({ force: true }); // a visitor can press it: aria-disabled only says it will not send
  await expect(review.getByRole('button', { name: 'Yes, send it again' })).toBeFocused();
  expect(sent()).toBe(before);
}

for (const size of sizes) {
  test.describe(`at ${size.name} size`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('two tabs review one deposit; tab 1 sends it through a 2 s pause: tab 2 asks before sending it again', async ({ page, signUpViaBff }) => {
      await signUpViaBff();
      const accountId = await reviewDeposit(page, '55.55');
      const second = await page.context().newPage();
      await reviewDeposit(second, '55.55');
      const sent = countDeposits(page.context());

      await database('pause');
      try {
        await page.getByTestId('send-review').getByRole('button', { name: 'Deposit €55.55' }).click();
        await expect(page.getByRole('button', { name: 'Sending €55.55…' })).toBeVisible();
        // Tab 2 is blocked meanwhile: the held send stands in place of its review.
        await expect(second.getByRole('region', { name: "A send we couldn't confirm" })).toBeVisible();
        await new Promise((resolve) => setTimeout(resolve, 2000));
      } finally {
        await database('resume');
      }
      await expect(page.getByRole('heading', { name: 'Deposit received' })).toBeVisible();
      expect(sent()).toBe(1);

      // Tab 2: the outcome stands as a receipt, and its review asks first.
      await expect(second.getByRole('region', { name: 'It went through' }).getByRole('article', { name: 'Deposit of €55.55 into Everyday' })).toBeVisible();
      await expectAskedFirst(second, /^You sent €55\.55 to Everyday at \d\d:\d\d — send it again\?/, 'Deposit €55.55', sent);
      await expectNoSeriousA11yViolations(second, 'a review asking "send it again?"');
      await saveScreenshot(second, `send-again-question-${size.name}`);
      expect(await depositsOf(accountId, 5555)).toHaveLength(1);

      // Only a yes sends it again.
      await second.getByRole('button', { name: 'Yes, send it again' }).click();
      await expect(second.getByTestId('send-again')).toHaveCount(0);
      await second.getByTestId('send-review').getByRole('button', { name: 'Deposit €55.55' }).click();
      await expect(second.getByRole('heading', { name: 'Deposit received' })).toBeVisible();
      expect(await depositsOf(accountId, 5555)).toHaveLength(2);
    });

    test('a deposit lands with its answer lost; after a reload the look-up finds it: a receipt stays until dismissed, and the same deposit asks first', async ({ page, signUpViaBff }) => {
      await signUpViaBff();
      const accountId = await reviewDeposit(page, '12.34');
      const reached = new Promise<Route>((resolve) =>
        void page.route(
          (url) => url.pathname.endsWith('/deposits'),
          async (route) => {
            await route.fetch(); // the deposit reaches the API and commits; its answer never reaches the page
            resolve(route);
          },
          { times: 1 },
        ),
      );
      await page.getByTestId('send-review').getByRole('button', { name: 'Deposit €12.34' }).click();
      await reached;
      expect(await depositsOf(accountId, 1234)).toHaveLength(1);
      page.on('dialog', (dialog) => void dialog.accept());
      await page.reload();
      await page.goto('/'); // the look-up by key finds it landed, with no visitor action (useHeldSendResolver)

      const receipt = page.getByRole('region', { name: 'It went through' }).getByRole('article', { name: 'Deposit of €12.34 into Everyday' });
      await expect(receipt.getByText(/^It went through at/)).toHaveText(/^It went through at \d\d:\d\d\. Reference: [0-9a-f]{8}$/);
      await expect(page.getByRole('table').or(page.getByRole('list')).filter({ hasText: '€12.34' }).first()).toBeVisible();
      await expectNoSeriousA11yViolations(page, 'a receipt learnt after a reload');
      await saveScreenshot(page, `landed-receipt-${size.name}`);

      // It stays across pages (the status line the issue saw was wiped by the next navigation).
      await page.getByRole('link', { name: 'Everyday', exact: true }).click();
      await page.getByRole('link', { name: 'Deposit', exact: true }).click();
      await expect(receipt).toBeVisible();
      const sent = countDeposits(page.context());
      await page.getByLabel('Amount in euros').fill('12.34');
      await page.getByRole('button', { name: 'Continue', exact: true }).click();
      await expectAskedFirst(page, /^You sent €12\.34 to Everyday at \d\d:\d\d — send it again\?/, 'Deposit €12.34', sent);
      expect(await depositsOf(accountId, 1234)).toHaveLength(1);

      // Another amount goes at once.
      await page.getByRole('button', { name: 'Change the details' }).click();
      await page.getByLabel('Amount in euros').fill('12.35');
      await reviewThenSend(page, 'Deposit €12.35');
      await expect(page.getByRole('heading', { name: 'Deposit received' })).toBeVisible();

      // Dismissed, it is gone, also after a reload.
      await page.goto('/');
      await receipt.getByRole('button', { name: 'Dismiss' }).click();
      await expect(page.getByRole('region', { name: 'It went through' })).toHaveCount(0);
      await page.reload();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hello, Ada');
      await expect(page.getByRole('region', { name: 'It went through' })).toHaveCount(0);
      expect(await depositsOf(accountId, 1234)).toHaveLength(1);
    });
  });
}
