/**
 * Signed out while a send hangs, then in again (issue 52, Why item 4): a deposit of €44.44
 * leaves while the database is paused; the visitor signs out; the database comes back and
 * the deposit lands; the same customer signs in. The home page names the deposit ("Deposit
 * of €44.44 into Everyday", never a bare ": it went through."), keeps it as a receipt, and
 * "Recent activity" lists the €44.44 the ledger holds, once.
 */
import type { Page } from '@playwright/test';
import { database, expect, expectNoSeriousA11yViolations, saveScreenshot, test, type Customer, waitUntilServing } from './fixtures.ts';
import { depositsOf } from './sql.ts';
import { viewports } from './viewports.ts';

const LABEL = 'Deposit of €44.44 into Everyday';

async function signIn(page: Page, customer: Customer): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('Email address').fill(customer.email);
  await page.getByLabel('Password').fill(customer.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/$/);
}

/** Every text a status region of the held sends ever said (installed before the page loads). */
async function recordHeldSendsSaid(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const said: string[] = [];
    (window as unknown as { __heldSaid: string[] }).__heldSaid = said;
    new MutationObserver(() => {
      const text = document.querySelector('.held-sends__said')?.textContent?.trim() ?? '';
      if (text && said.at(-1) !== text) said.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

test('signed out during a hung deposit, then in again: the deposit is named, kept as a receipt, and in recent activity', async ({ page, signUpViaBff }) => {
  const customer = await signUpViaBff();
  await recordHeldSendsSaid(page);
  await page.goto('/');
  const accountId = (await page.getByRole('link', { name: 'Everyday', exact: true }).getAttribute('href'))!.split('/').at(-1)!;
  await page.getByRole('link', { name: 'Deposit into Everyday' }).click();
  await page.getByLabel('Amount in euros').fill('44.44');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  page.on('dialog', (dialog) => void dialog.accept());
  await database('pause');
  try {
    await page.getByTestId('send-review').getByRole('button', { name: 'Deposit €44.44' }).click();
    await expect(page.getByRole('button', { name: 'Sending €44.44…' })).toBeVisible();
    await page.getByRole('button', { name: 'Sign out' }).click();
  } finally {
    await database('resume');
  }
  await expect(page).toHaveURL(/\/sign-in$/, { timeout: 30_000 });
  await waitUntilServing(page);
  await expect.poll(() => depositsOf(accountId, 4444), { timeout: 30_000 }).toHaveLength(1);

  await signIn(page, customer);
  const receipt = page.getByRole('region', { name: 'It went through' }).getByRole('article', { name: LABEL });
  await expect(receipt).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('region', { name: 'Recent activity' })).toContainText('€44.44');
  const said = await page.evaluate(() => (window as unknown as { __heldSaid: string[] }).__heldSaid);
  expect(said.filter((text) => /^\W*: /.test(text) || text.startsWith(': ')), `held sends said: ${said.join(' | ')}`).toEqual([]);
  expect(await depositsOf(accountId, 4444)).toHaveLength(1);

  for (const viewport of viewports) {
    await page.setViewportSize(viewport);
    await expectNoSeriousA11yViolations(page, `the dashboard after signing in again (${viewport.name})`);
    await saveScreenshot(page, `signed-in-again-receipt-${viewport.name}`);
  }
});
