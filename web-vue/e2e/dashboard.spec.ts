/**
 * A home screen that guides (adr/0054), on the real stack at a desktop's and two phones'
 * sizes: a new customer's first steps, their own handle with Copy and Share, a compact
 * "New account", closed accounts tucked away, and recent activity once money has moved.
 */
import { expect, expectNoSeriousA11yViolations, saveScreenshot, test } from './fixtures.ts';
import { seedMovements } from './seed.ts';
import { expectNoHorizontalOverflow, viewports } from './viewports.ts';

for (const viewport of viewports) {
  test(`the dashboard guides a new customer, then shows what happened (${viewport.name})`, async ({ page, context, signUpViaBff }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    // Chromium on a desktop has no share sheet: a stand-in records what would be shared.
    await page.addInitScript(() => {
      const shared: ShareData[] = [];
      (window as unknown as { __shared: ShareData[] }).__shared = shared;
      Object.defineProperty(navigator, 'share', { value: async (data: ShareData) => void shared.push(data) });
    });
    const customer = await signUpViaBff();
    await page.goto('/');

    const firstSteps = page.getByRole('region', { name: 'Your first steps' });
    await expect(firstSteps.getByRole('link', { name: 'Deposit money into Everyday' })).toBeVisible();
    await expect(firstSteps.getByRole('link', { name: 'Share your handle' })).toBeVisible();
    const handleCard = page.getByRole('region', { name: 'Your handle' });
    await expect(handleCard.getByTestId('own-handle')).toHaveText(`@${customer.handle}`);
    await expect(page.getByRole('button', { name: 'New account' })).toBeVisible();
    await expect(page.getByLabel('Account name')).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Recent activity' })).toContainText('No movements yet.');
    await page.waitForLoadState('networkidle');
    await saveScreenshot(page, `dashboard-new-customer-${viewport.name}`);
    await expectNoHorizontalOverflow(page, `new customer's dashboard at ${viewport.width} px`);
    await expectNoSeriousA11yViolations(page, `new customer's dashboard at ${viewport.width} px`);

    await handleCard.getByRole('button', { name: 'Copy your handle' }).click();
    await expect(handleCard.getByRole('status')).toHaveText('Copied your handle.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`@${customer.handle}`);
    await handleCard.getByRole('button', { name: 'Share your handle' }).click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { __shared: ShareData[] }).__shared.map((data) => data.text))).toEqual([
      `Send money to Ada Lovelace on Tidewater: my handle is @${customer.handle}.`,
    ]);

    // "New account" opens a small form; the account opened, then closed, is tucked away.
    await page.getByRole('button', { name: 'New account' }).click();
    await page.getByLabel('Account name').fill('Old savings');
    await page.getByRole('button', { name: 'Open account' }).click();
    await expect(page.getByRole('link', { name: 'Old savings', exact: true })).toBeVisible();
    await expect(page.getByLabel('Account name')).toHaveCount(0);
    const oldSavings = (await page.getByRole('link', { name: 'Old savings', exact: true }).getAttribute('href'))!.split('/').at(-1)!;
    const { csrfToken } = (await (await page.request.get('/bff/session')).json()) as { csrfToken: string };
    expect((await page.request.post(`/api/accounts/${oldSavings}/close`, { headers: { 'X-CSRF-Token': csrfToken } })).status()).toBe(200);

    await seedMovements(page.request, customer);
    await page.reload();
    await expect(page.getByRole('region', { name: 'Recent activity' }).getByText('Grace Brewster Murray Hopper')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Your first steps' })).toHaveCount(0);
    const closed = page.getByText('Closed accounts (1)');
    await expect(closed).toBeVisible();
    await expect(page.getByRole('link', { name: 'Old savings', exact: true })).toBeHidden();
    await page.waitForLoadState('networkidle');
    await saveScreenshot(page, `dashboard-${viewport.name}`);
    await closed.click();
    await expect(page.getByRole('link', { name: 'Old savings', exact: true })).toBeVisible();
    await expectNoHorizontalOverflow(page, `dashboard at ${viewport.width} px`);
    await expectNoSeriousA11yViolations(page, `dashboard at ${viewport.width} px`);
  });
}
