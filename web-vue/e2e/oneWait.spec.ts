/**
 * One honest wait per page (adr/0054), with the database paused on the real stack, at a
 * desktop's and two phones' sizes: the account page's three reads show one hint (from their
 * first 503, the outage and that they are trying again) and one Stop; the balance on screen says when it is from and its Deposit, Withdraw and Transfer
 * are greyed; after Stop, Retry with the database back lands focus on Deposit and says
 * "Loaded."; the PIN dialog says why Escape and Cancel do not close it while its check is
 * with the bank (its answer held back in the browser, so the check is pending for as long
 * as the test needs).
 */
import { database, expect, expectNoSeriousA11yViolations, reviewThenSend, saveScreenshot, test, waitUntilServing } from './fixtures.ts';
import { seedMovements } from './seed.ts';
import { expectNoHorizontalOverflow, viewports } from './viewports.ts';

const OUTAGE_RETRYING = 'The service is temporarily unavailable. Trying again…';
const PIN_HELD_OPEN = 'Your PIN check is still with the bank, so this stays open until the bank answers.';

test.afterEach(async ({ page }) => {
  await database('resume').catch(() => undefined);
  await waitUntilServing(page);
});

for (const viewport of viewports) {
  test(`the account page waits once, greys what a stale balance would mislead, and lands after Retry (${viewport.name})`, async ({ page, signUpViaBff }) => {
    test.setTimeout(150_000);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await signUpViaBff();
    await page.goto('/');
    await page.getByRole('link', { name: 'Everyday', exact: true }).click();
    await expect(page.getByRole('link', { name: 'Deposit', exact: true })).toBeVisible();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Accounts' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hello, Ada');
    await expect(page.getByRole('region', { name: 'Recent activity' })).toContainText('No movements yet.');

    await database('pause');
    // The account is known from the dashboard: the page shows it at once and reads it again.
    await page.getByRole('link', { name: 'Everyday', exact: true }).click();
    const hints = page.getByRole('status').filter({ hasText: /Taking longer than usual…|Still trying…|Trying again…/ });
    await expect(hints).toHaveText(['Taking longer than usual…'], { timeout: 10_000 });
    await expect(page.getByText(/^This balance is from \d\d:\d\d and may have changed since\./)).toBeVisible();
    const actions = page.getByRole('navigation', { name: 'Account actions' });
    for (const action of ['Deposit', 'Withdraw', 'Transfer']) {
      await expect(actions.getByRole('link', { name: action, exact: true })).toHaveCount(0);
      await expect(actions.getByRole('button', { name: action, exact: true })).toHaveAttribute('aria-disabled', 'true');
    }
    await expect(actions.getByRole('link', { name: 'Manage' })).toBeVisible();
    await expect(actions.getByRole('button', { name: 'Deposit', exact: true })).toHaveAccessibleDescription(/This balance is from/);
    const accountUrl = page.url();
    // Playwright waits for an aria-disabled control to be enabled: force the visitor's click.
    await actions.getByRole('button', { name: 'Deposit', exact: true }).click({ force: true });
    expect(page.url()).toBe(accountUrl);

    // The reads' first 503 (the API's 10 s deadline) names the outage while their retry waits (adr/0074).
    await expect(hints).toHaveText([OUTAGE_RETRYING], { timeout: 15_000 });
    await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(1, { timeout: 25_000 });
    await expect(hints).toHaveText([OUTAGE_RETRYING]);
    await saveScreenshot(page, `wait-one-hint-${viewport.name}`);
    // Stop before the reads' own outage answer (about 32 s in on this stack).
    await page.getByRole('button', { name: 'Stop' }).click();
    const bar = page.getByRole('alert');
    await expect(bar).toContainText('Loading stopped.');
    await expect(bar.getByRole('button', { name: 'Retry' })).toBeFocused();
    await expect(page.getByText(/^This balance is from/)).toBeVisible();
    await expect(actions.getByRole('button', { name: 'Withdraw', exact: true })).toHaveAttribute('aria-disabled', 'true');
    await expectNoHorizontalOverflow(page, `stale account page at ${viewport.width} px`);
    await expectNoSeriousA11yViolations(page, `stale account page at ${viewport.width} px`);

    await database('resume');
    await waitUntilServing(page);
    await bar.getByRole('button', { name: 'Retry' }).click();
    await expect(bar).toHaveText('', { timeout: 30_000 });
    await expect(page.getByRole('link', { name: 'Deposit', exact: true })).toBeFocused();
    await expect(page.getByRole('status').filter({ hasText: 'Loaded.' })).toHaveCount(1);
    await expect(page.getByText(/^This balance is from/)).toHaveCount(0);
    await saveScreenshot(page, `wait-after-retry-${viewport.name}`);
  });
}

test('the PIN dialog says why Escape and Cancel wait while its check is with the bank', async ({ page, signUpViaBff }) => {
  await seedMovements(page.request, await signUpViaBff());
  await page.goto('/');
  await page.getByRole('link', { name: 'Everyday', exact: true }).click();
  await page.getByRole('link', { name: 'Withdraw', exact: true }).click();
  await page.getByLabel('Amount in euros').fill('5.00');
  await reviewThenSend(page, 'Continue to your PIN');
  const dialog = page.getByRole('dialog', { name: 'Confirm with your PIN' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('PIN').fill('4821');

  // The check reaches the bank; its answer is held in the browser until the test lets it go.
  let release: () => Promise<void> = async () => undefined;
  const reachedTheBank = new Promise<void>((resolve) =>
    void page.route('**/api/step-up', (route) => {
      release = () => route.continue();
      resolve();
    }),
  );
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await reachedTheBank;
  await expect(dialog.getByRole('status')).toHaveText('');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('status')).toHaveText(PIN_HELD_OPEN);
  await saveScreenshot(page, 'wait-pin-held-open');
  // Cancel is aria-disabled while the check is pending: force the visitor's click.
  await dialog.getByRole('button', { name: 'Cancel' }).click({ force: true });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('status')).toHaveText(PIN_HELD_OPEN);

  // Once the bank answers, the dialog closes by itself and the withdrawal goes on.
  await release();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Withdrawal done' })).toBeVisible();
});
