/**
 * A page loaded while the bank is down names the outage from the first read that fails
 * (issue 52 item 2, adr/0074): the database stopped, the account page is opened; the API
 * answers the read 503 at its deadline, and the SPA's one retry waits the Retry-After it
 * named. From that first 503 the page says the service is unavailable (and that it is
 * trying again), never a bare "Taking longer than usual…" or "Still trying…" after it. A
 * browser that is offline says it is offline. Every screen `main` showed is recorded with
 * its time and read.
 */
import type { Page } from '@playwright/test';
import { database, expect, expectNoSeriousA11yViolations, noteTiming, saveScreenshot, test, waitUntilServing } from './fixtures.ts';
import { viewports } from './viewports.ts';

const OUTAGE_RETRYING = 'The service is temporarily unavailable. Trying again…';
const OUTAGE = 'The service is temporarily unavailable. Please try again later.';
const OFFLINE = "You're offline. We'll load this once you're back online.";
const WAIT_HINTS = ['Taking longer than usual…', 'Still trying…'];

interface Screen {
  at: number;
  lines: string[];
}

/** Records, before the page loads, every distinct set of lines `main` shows, with when (ms since it loaded). */
async function recordScreens(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const screens: Array<{ at: number; lines: string[] }> = [];
    (window as unknown as { __screens: typeof screens }).__screens = screens;
    const take = () => {
      const main = document.querySelector('main');
      if (!main) return;
      const lines = (main as HTMLElement).innerText
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      if (lines.join('\n') !== screens.at(-1)?.lines.join('\n')) screens.push({ at: Math.round(performance.now()), lines });
    };
    new MutationObserver(take).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

const screensOf = (page: Page) => page.evaluate(() => (window as unknown as { __screens: Screen[] }).__screens);

test('the account page loaded while the database is stopped: the outage is named from the first 503, and no wait hint follows it', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  await page.goto('/');
  const href = (await page.getByRole('link', { name: 'Everyday', exact: true }).getAttribute('href'))!;
  const firstAnswer: { at: number | null } = { at: null };
  await recordScreens(page);
  await database('stop');
  try {
    const loadedAt = Date.now();
    page.on('response', (response) => {
      if (firstAnswer.at === null && /^\/api\/accounts\/[^/]+$/.test(new URL(response.url()).pathname)) firstAnswer.at = Date.now() - loadedAt;
    });
    await page.goto(href);
    await expect(page.getByText(OUTAGE_RETRYING)).toBeVisible({ timeout: 30_000 });
    const namedAt = Date.now() - loadedAt;
    noteTiming('first 503 of the account read', firstAnswer.at! / 1000);
    noteTiming('outage named', namedAt / 1000);
    expect(namedAt - firstAnswer.at!, 'named within a second of the first 503').toBeLessThan(1_000);
    for (const viewport of viewports) {
      await page.setViewportSize(viewport);
      await expectNoSeriousA11yViolations(page, `the account page while the bank is down (${viewport.name})`);
      await saveScreenshot(page, `outage-named-first-read-${viewport.name}`);
    }
    await page.setViewportSize(viewports[0]);
    await expect(page.getByRole('alert')).toContainText(OUTAGE, { timeout: 30_000 });
  } finally {
    await database('start');
  }
  const screens = await screensOf(page);
  const from = screens.findIndex((screen) => screen.lines.includes(OUTAGE_RETRYING));
  expect(from, 'the outage was named').toBeGreaterThanOrEqual(0);
  for (const screen of screens.slice(from)) {
    expect(screen.lines.filter((line) => WAIT_HINTS.includes(line)), `after the outage was named, at ${screen.at} ms: ${screen.lines.join(' | ')}`).toEqual([]);
  }
  await waitUntilServing(page);
  await page.getByRole('alert').getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Everyday');
  await expect(page.getByText(OUTAGE_RETRYING)).toHaveCount(0);
});

test('a page opened offline: offline is named as offline, not as a slow bank, and it loads by itself once back', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  await page.goto('/');
  const href = (await page.getByRole('link', { name: 'Everyday', exact: true }).getAttribute('href'))!;
  await recordScreens(page);
  await page.goto(href);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Everyday');
  await page.context().setOffline(true);
  try {
    await page.getByRole('link', { name: 'Accounts', exact: true }).click();
    await expect(page.getByText(OFFLINE)).toBeVisible({ timeout: 5_000 });
    await expectNoSeriousA11yViolations(page, 'the dashboard offline');
    await saveScreenshot(page, 'offline-named-desktop');
    const screens = await screensOf(page);
    for (const screen of screens.slice(screens.findIndex((s) => s.lines.includes(OFFLINE)))) {
      expect(screen.lines.filter((line) => WAIT_HINTS.includes(line) || line === OUTAGE), screen.lines.join(' | ')).toEqual([]);
    }
  } finally {
    await page.context().setOffline(false);
  }
  // Back online, with no Retry pressed: what failed loads, and the offline sentence is gone.
  await expect(page.getByText(OFFLINE)).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByRole('alert')).toHaveText('');
  await expect(page.getByRole('region', { name: 'Recent activity' })).toBeVisible();
});
