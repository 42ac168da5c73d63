/**
 * Movements a visitor can find and keep (issue 52 item 6, adr/0071), on the real stack: on
 * the account page the visitor searches by text and by amount, filters by direction and by
 * days, and downloads the month's statement as CSV and as PDF. The CSV is read back (the
 * bank's and the account's names, every movement, a formula defused, the closing balance
 * the database holds); the PDF starts `%PDF` and names the account. axe finds nothing
 * serious at 1280, 390 and 320 px; the screenshots are kept in docs/screenshots/issue-52/.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, saveScreenshot, test } from './fixtures.ts';
import { ledgerOf } from './sql.ts';

const sizes = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
  { name: 'small-phone', width: 320, height: 640 },
] as const;

/** Sends through the BFF as the signed-in visitor's page would (set-up, not the walk under test). */
async function apiPost(page: Page, path: string, data: unknown, keyed = true) {
  const { csrfToken } = (await (await page.request.get('/bff/session')).json()) as { csrfToken: string };
  const answer = await page.request.post(path, { headers: { 'X-CSRF-Token': csrfToken, ...(keyed ? { 'Idempotency-Key': crypto.randomUUID() } : {}) }, data });
  expect(answer.status(), await answer.text()).toBe(201);
  return (await answer.json()) as { id: string };
}

/** The movements the search shows, as their amounts read. */
const amountsShown = (page: Page) => page.locator('.movements__amount').allTextContents();

for (const size of sizes) {
  test(`search, filter and both statements of a month (${size.name})`, async ({ page, signUpViaBff }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await signUpViaBff();
    const listed = (await (await page.request.get('/api/accounts')).json()) as { items: Array<{ id: string }> };
    const everyday = listed.items[0]!.id;
    const savings = (await apiPost(page, '/api/accounts', { name: 'Savings' }, false)).id;
    await apiPost(page, `/api/accounts/${everyday}/deposits`, { amountMinor: 250_000, description: 'Salary' });
    await apiPost(page, `/api/accounts/${everyday}/deposits`, { amountMinor: 1_250, description: '=HYPERLINK("http://evil.example")' });
    await apiPost(page, `/api/accounts/${everyday}/deposits`, { amountMinor: 320, description: 'Coffee refund' });
    await apiPost(page, '/api/transfers/internal', { fromAccountId: everyday, toAccountId: savings, amountMinor: 1_250, description: 'Rainy day' });

    await page.goto(`/accounts/${everyday}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Everyday');
    await expect(page.locator('.movements__row')).toHaveCount(4);

    await page.getByRole('button', { name: 'Search movements' }).click();
    await expect(page.getByLabel('Text', { exact: true })).toBeFocused();
    await page.getByLabel('Text', { exact: true }).fill('coffee');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'movement' })).toHaveText('1 movement matches this search.');
    expect(await amountsShown(page)).toEqual(['€3.20']);

    await page.getByLabel('Text', { exact: true }).fill('');
    await page.getByLabel('Amount (€)').fill('12.50');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByText('2 movements match this search.')).toBeVisible();
    expect(await amountsShown(page)).toEqual(['−€12.50', '€12.50']);

    await page.getByLabel('Money in or out').selectOption('out');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByText('1 movement matches this search.')).toBeVisible();
    expect(await amountsShown(page)).toEqual(['−€12.50']);

    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam' }).format(new Date());
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect(page.locator('.movements__row')).toHaveCount(4);
    await page.getByLabel('From', { exact: true }).fill(today);
    await page.getByLabel('To', { exact: true }).fill('2000-01-01');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByLabel('To', { exact: true })).toBeFocused();
    await expect(page.getByLabel('To', { exact: true })).toHaveAccessibleDescription(/Enter a "to" date on or after the "from" date\./);
    await page.getByLabel('To', { exact: true }).fill(today);
    await page.getByLabel('Money in or out').selectOption('in');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByText('3 movements match this search.')).toBeVisible();
    await expectNoSeriousA11yViolations(page, `the search of movements (${size.name})`);
    await saveScreenshot(page, `find-movements-${size.name}`);

    const month = today.slice(0, 7);
    await page.getByLabel('Month', { exact: true }).selectOption(month);
    const [csvFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(csvFile.suggestedFilename()).toBe(`tidewater-everyday-${month}.csv`);
    const csv = readFileSync((await csvFile.path())!, 'utf8');
    const { balance, sum } = await ledgerOf(everyday);
    expect(balance).toBe(sum);
    const lines = csv.split('\r\n');
    expect(lines.slice(0, 4)).toEqual(['Bank,Tidewater', `Account,Everyday,${everyday}`, `Month,${month},Europe/Amsterdam`, 'Opening balance,EUR,0']);
    expect(lines.filter((line) => /^\d{4}-/.test(line)).map((line) => line.split(',').slice(-2).join(','))).toEqual(['250000,250000', '1250,251250', '320,251570', '-1250,250320']);
    expect(csv).toContain(`,deposit,"'=HYPERLINK(""http://evil.example"")",,1250,251250\r\n`);
    expect(lines.at(-2)).toBe(`Closing balance,EUR,${balance}`);
    await expect(page.getByText(`Statement ready: tidewater-everyday-${month}.csv.`)).toBeVisible();

    const [pdfFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
    expect(pdfFile.suggestedFilename()).toBe(`tidewater-everyday-${month}.pdf`);
    const pdf = readFileSync((await pdfFile.path())!);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.toString('latin1')).toContain(`(Tidewater statement: Everyday, ${month})`);
    await expectNoSeriousA11yViolations(page, `the statements (${size.name})`);
    await page.getByRole('heading', { name: 'Statements' }).scrollIntoViewIfNeeded();
    await saveScreenshot(page, `statements-${size.name}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'nothing scrolls sideways').toBeLessThanOrEqual(0);
  });
}
