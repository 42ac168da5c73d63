/**
 * A send's words at every instant (issue 52 item 2, adr/0066), read off the page on the
 * real stack: every set of lines the main region showed is recorded as it changes, from the
 * review to the outcome, for a send through a hung database (paused), a stopped one, and a
 * browser that goes offline mid-send. From the instant the button says "Sending €22.22…"
 * no line says "Nothing has been sent yet", and no two wait hints stand at once.
 */
import type { Page } from '@playwright/test';
import { database, expect, test } from './fixtures.ts';
import { depositsOf } from './sql.ts';

const NOT_SENT = 'Nothing has been sent yet. Check the details, then confirm.';
const ON_ITS_WAY = "It's on its way, and may already have gone through. Keep this page open until we know.";
const IN_DOUBT = "The service is temporarily unavailable, and we can't tell yet whether it went through.";

/** Records, before the page loads, every distinct set of lines `main` shows (each change of its text). */
async function recordScreens(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const screens: string[][] = [];
    (window as unknown as { __screens: string[][] }).__screens = screens;
    const take = () => {
      const main = document.querySelector('main');
      if (!main) return;
      const lines = (main as HTMLElement).innerText
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      if (lines.join('\n') !== screens.at(-1)?.join('\n')) screens.push(lines);
    };
    new MutationObserver(take).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

/** The screens shown from the first one whose button said "Sending …" on. */
async function screensSinceSending(page: Page, amount: string): Promise<string[][]> {
  const screens = await page.evaluate(() => (window as unknown as { __screens: string[][] }).__screens);
  const from = screens.findIndex((lines) => lines.includes(`Sending ${amount}…`));
  expect(from, 'the send was seen leaving').toBeGreaterThanOrEqual(0);
  return screens.slice(from);
}

/** What the issue saw and adr/0066 forbids, on every screen since the send left. */
function expectTrueAtEveryInstant(screens: string[][]): void {
  for (const lines of screens) {
    expect(lines, 'a screen after the send left').not.toContain(NOT_SENT);
    expect(lines.filter((line) => line === 'Taking longer than usual…' || line.startsWith('Still trying')).length, `one wait hint: ${lines.join(' | ')}`).toBeLessThanOrEqual(1);
    expect(lines.filter((line) => line === ON_ITS_WAY || line === IN_DOUBT).length, `one sentence of doubt: ${lines.join(' | ')}`).toBeLessThanOrEqual(1);
  }
}

async function reviewDeposit(page: Page, amount: string): Promise<string> {
  await recordScreens(page);
  await page.goto('/');
  const accountId = (await page.getByRole('link', { name: 'Everyday', exact: true }).getAttribute('href'))!.split('/').at(-1)!;
  await page.getByRole('link', { name: 'Deposit into Everyday' }).click();
  await page.getByLabel('Amount in euros').fill(amount);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page.getByText(NOT_SENT)).toBeVisible();
  return accountId;
}

test('a hung send: on its way from the first instant, one hint, then one sentence of doubt and Try again', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  const accountId = await reviewDeposit(page, '22.22');
  await database('pause');
  try {
    await page.getByTestId('send-review').getByRole('button', { name: 'Deposit €22.22' }).click();
    await expect(page.getByText(ON_ITS_WAY)).toBeVisible();
    await expect(page.getByText('Taking longer than usual…')).toHaveCount(1);
    await expect(page.getByRole('alert')).toHaveText(IN_DOUBT, { timeout: 30_000 });
    await expect(page.getByText(ON_ITS_WAY)).toHaveCount(0);
    await expect(page.getByText(NOT_SENT)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  } finally {
    await database('resume');
  }
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { name: 'Deposit received' })).toBeVisible({ timeout: 30_000 });
  expectTrueAtEveryInstant(await screensSinceSending(page, '€22.22'));
  expect(await depositsOf(accountId, 2222)).toHaveLength(1);
});

test('a stopped database: the words after the send left never say it was not sent', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  const accountId = await reviewDeposit(page, '33.33');
  await database('stop');
  try {
    await page.getByTestId('send-review').getByRole('button', { name: 'Deposit €33.33' }).click();
    await expect(page.getByRole('alert')).toHaveText(/^The service is temporarily unavailable/, { timeout: 30_000 });
  } finally {
    await database('start');
  }
  expectTrueAtEveryInstant(await screensSinceSending(page, '€33.33'));
  expect((await depositsOf(accountId, 3333)).length).toBeLessThanOrEqual(1);
});

test('offline mid-send: the cause named at once (offline, or the connection lost), and it settles once back', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  const accountId = await reviewDeposit(page, '44.44');
  await database('pause');
  try {
    await page.getByTestId('send-review').getByRole('button', { name: 'Deposit €44.44' }).click();
    await expect(page.getByText(ON_ITS_WAY)).toBeVisible();
    await page.context().setOffline(true);
    // Chromium's offline emulation either holds the request, and the page names the browser
    // offline while it waits, or drops it at once, and the page says the connection was lost
    // so the outcome is not known yet (2 of 4 runs of this spec alone, on the same code): both
    // name the cause at once and say nothing went through; neither is the slow bank's wording.
    const offlineWhileWaiting = page.getByText("You're offline. We'll know whether it went through once you're back online.");
    const connectionLost = page.getByRole('alert').filter({ hasText: "We lost the connection, so we can't tell yet whether it went through. Check before sending it again." });
    await expect(offlineWhileWaiting.or(connectionLost)).toBeVisible();
    await expect(page.getByText('Taking longer than usual…')).toHaveCount(0);
    await page.context().setOffline(false);
  } finally {
    await database('resume');
  }
  await expect(page.getByRole('heading', { name: 'Deposit received' }).or(page.getByRole('alert').filter({ hasText: /./ }))).toBeVisible({ timeout: 30_000 });
  expectTrueAtEveryInstant(await screensSinceSending(page, '€44.44'));
  expect((await depositsOf(accountId, 4444)).length).toBeLessThanOrEqual(1);
});
