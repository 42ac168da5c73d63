/**
 * Confirmation of payee says nothing while a handle is being typed (issue 52 item 4,
 * adr/0074, adr/0072): a pause mid-word (the 1.2 s) is no whole handle, so neither a
 * match, nor "checking", nor "no match" appears; once typing stops on a handle of the right
 * shape (a pause longer than a thinking pause, or leaving the field), the check answers in
 * neutral words. Every text the line beside the fields ever showed is recorded and read.
 */
import type { Page } from '@playwright/test';
import { depositViaBff, expect, expectNoSeriousA11yViolations, newCustomer, saveScreenshot, test } from './fixtures.ts';
import { viewports } from './viewports.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Records every text the payee line beside the handle field shows, and every look-up sent. */
async function recordPayeeLine(page: Page): Promise<{ lookUps: string[] }> {
  const seen = { lookUps: [] as string[] };
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/api/payees/')) seen.lookUps.push(decodeURIComponent(path.slice('/api/payees/'.length)));
  });
  await page.addInitScript(() => {
    const said: string[] = [];
    (window as unknown as { __payeeLine: string[] }).__payeeLine = said;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="payee-name"]')?.textContent?.trim() ?? '';
      if (text && said.at(-1) !== text) said.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  return seen;
}

const payeeLineSaid = (page: Page) => page.evaluate(() => (window as unknown as { __payeeLine: string[] }).__payeeLine);

test('a pause mid-word says nothing; a whole handle, once typing stops, is checked against the name in neutral words', async ({ page, signUpViaBff }) => {
  const grace = await signUpViaBff({ ...newCustomer(), displayName: 'Grace Hopper' });
  await page.context().clearCookies();
  await signUpViaBff();
  await depositViaBff(page, 500);
  const seen = await recordPayeeLine(page);
  await page.goto('/transfer');
  await page.getByLabel('Another Tidewater customer').check();
  await page.getByLabel('Their name').fill('Grace Hopper');
  const field = page.getByLabel('Their handle');

  // The walk: a handle typed in two bursts, with a 1.2 s pause mid-word.
  await field.pressSequentially(grace.handle.slice(0, 5), { delay: 60 });
  await sleep(1_200);
  expect(await payeeLineSaid(page), 'nothing said at a pause mid-word').toEqual([]);
  expect(seen.lookUps, 'nothing looked up mid-word').toEqual([]);
  await expect(page.locator('.field__error')).toHaveCount(0);

  await field.pressSequentially(grace.handle.slice(5), { delay: 60 });
  await expect(page.getByTestId('payee-name')).toHaveText('The name matches: Grace Hopper.');
  expect(seen.lookUps, 'one look-up, of the whole handle').toEqual([grace.handle]);

  // Leaving the field is as good as a pause: a handle nobody has is a no match, said neutrally, at once, and no error.
  await field.fill('nobody_has_th');
  await page.getByLabel('Amount in euros').focus();
  await expect(page.getByTestId('payee-name')).toHaveText("This name doesn't match the handle so far.", { timeout: 1_000 });
  await expect(field).not.toHaveAttribute('aria-invalid', 'true');

  // A pause on something that is not a handle's shape says nothing either.
  await field.fill('No');
  await sleep(2_000);
  await expect(page.getByTestId('payee-name')).toHaveText('');

  expect(await payeeLineSaid(page)).toEqual(['Checking the name and handle…', 'The name matches: Grace Hopper.', 'Checking the name and handle…', "This name doesn't match the handle so far."]);
  for (const viewport of viewports) {
    await page.setViewportSize(viewport);
    await field.fill(grace.handle);
    await expect(page.getByTestId('payee-name')).toHaveText('The name matches: Grace Hopper.');
    await expectNoSeriousA11yViolations(page, `the handle look-up (${viewport.name})`);
    await saveScreenshot(page, `handle-look-up-${viewport.name}`);
  }
});
