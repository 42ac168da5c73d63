/**
 * A held send resolves when the bank is back (issue 52 item 3, adr/0067). A deposit of
 * €12.34 commits on the real API while its answer is held back in the browser; the
 * database is paused and the page reloaded: the deposit page names the held send above a
 * form that still takes any other amount, and a review of the same €12.34 sends nothing.
 * The database returns: with no visitor action the send is looked up and its receipt
 * stands within 10 s. The ledger holds the deposit once.
 */
import type { Route } from '@playwright/test';
import { database, expect, noteTiming, secondsSince, test } from './fixtures.ts';
import { depositsOf } from './sql.ts';

/** Its name; while the account's own read hangs the page does not know "Everyday" yet. */
const LABEL = /^Deposit of €12\.34 into (Everyday|your account)$/;

test('held through a paused database: other amounts stay open, the same one points at the notice, and it resolves within 10 s of the return', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  await page.goto('/');
  const accountId = (await page.getByRole('link', { name: 'Everyday', exact: true }).getAttribute('href'))!.split('/').at(-1)!;
  await page.getByRole('link', { name: 'Deposit into Everyday' }).click();
  await page.getByLabel('Amount in euros').fill('12.34');
  const reached = new Promise<Route>((resolve) =>
    void page.route(
      (url) => url.pathname.endsWith('/deposits'),
      async (route) => {
        await route.fetch(); // it commits; its answer never reaches the page
        resolve(route);
      },
      { times: 1 },
    ),
  );
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.getByTestId('send-review').getByRole('button', { name: 'Deposit €12.34' }).click();
  await reached;
  expect(await depositsOf(accountId, 1234)).toHaveLength(1);

  page.on('dialog', (dialog) => void dialog.accept());
  await database('pause');
  let resumedAt = 0;
  try {
    await page.reload();
    const notice = page.getByRole('region', { name: "A send we couldn't confirm" }).getByRole('article', { name: LABEL });
    await expect(notice).toBeVisible();
    // Another amount is not blocked by it…
    await page.getByLabel('Amount in euros').fill('5.00');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(page.getByTestId('send-review').getByRole('button', { name: 'Deposit €5.00' })).not.toHaveAttribute('aria-disabled', 'true');
    await expect(page.getByTestId('send-again')).toHaveCount(0);
    // …the same one is, and says where its safe re-send is.
    await page.getByRole('button', { name: 'Change the details' }).click();
    await page.getByLabel('Amount in euros').fill('12.34');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(page.getByTestId('send-again')).toHaveText(/^Deposit of €12\.34 into (Everyday|your account) \(started at \d\d:\d\d\) isn't confirmed yet\. Check it or send it again safely above/);
    await expect(page.getByTestId('send-review').getByRole('button', { name: 'Deposit €12.34' })).toHaveAttribute('aria-disabled', 'true');
    await page.getByTestId('send-review').getByRole('button', { name: 'Deposit €12.34' }).click({ force: true });
    await expect(page.getByText(/isn't confirmed yet/)).toBeFocused();
    await new Promise((resolve) => setTimeout(resolve, 3000)); // the outage lasts a while: the look-ups meet it
  } finally {
    await database('resume');
    resumedAt = Date.now();
  }
  await expect(page.getByRole('region', { name: 'It went through' }).getByRole('article', { name: LABEL })).toBeVisible({ timeout: 10_000 });
  noteTiming('held send resolved after the database returned', secondsSince(resumedAt));
  await expect(page.getByRole('region', { name: "A send we couldn't confirm" })).toHaveCount(0);
  expect(await depositsOf(accountId, 1234)).toHaveLength(1);
});
