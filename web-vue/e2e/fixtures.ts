/**
 * The suite's `test`: baseURL is the BFF globalSetup started (read when the worker runs),
 * plus helpers to sign up a fresh customer through the BFF and to drive the database.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { uniqueHandle } from '@tidewater/test-support/handles';
import { stackEnv } from './stackTimings.ts';

/** Where the key screens are saved. */
export const screenshotDir = fileURLToPath(new URL('../test-results/screenshots/', import.meta.url));

/** A customer made for one spec. */
export interface Customer {
  email: string;
  password: string;
  displayName: string;
  handle: string;
  pin: string;
}

/** A unique customer (its handle, and the email named after it: `uniqueHandle`). */
export function newCustomer(): Customer {
  const handle = uniqueHandle('spa');
  return { email: `${handle}@example.com`, password: 'correct horse battery', displayName: 'Ada Lovelace', handle, pin: '4821' };
}

export const test = base.extend<{ signUpViaBff: (customer?: Customer) => Promise<Customer>; noUncaughtErrors: void }>({
  /** Every spec fails on an uncaught exception or a Vue warning in the page. */
  noUncaughtErrors: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
      page.on('console', (message) => {
        if (message.text().includes('[Vue warn]')) problems.push(message.text());
      });
      await use();
      expect(problems, 'errors in the page').toEqual([]);
    },
    { auto: true },
  ],
  baseURL: async ({}, use) => {
    const url = process.env[stackEnv.baseUrl];
    if (!url) throw new Error(`${stackEnv.baseUrl} is not set: run through playwright.config.ts (its globalSetup starts the stack)`);
    await use(url);
  },
  signUpViaBff: async ({ page }, use) => {
    await use(async (customer = newCustomer()) => {
      // The page may be taking its own first look at /bff/session (a sign-in page just shown),
      // which sets the CSRF cookie too; a token that lost to the page's is refused with 403
      // before anything is written, and the page's is then the one to send.
      let answer;
      for (let look = 1; look <= 2; look++) {
        const session = await page.request.get('/bff/session');
        expect(session.status()).toBe(200);
        const { csrfToken } = (await session.json()) as { csrfToken: string };
        answer = await page.request.post('/bff/register', { data: customer, headers: { 'X-CSRF-Token': csrfToken } });
        if (answer.status() !== 403) break;
      }
      expect(answer!.status(), await answer!.text()).toBe(201);
      return customer;
    });
  },
});

export { expect };

/** Asks the control server to stop, start, pause or resume the database. */
export async function database(action: 'stop' | 'start' | 'pause' | 'resume'): Promise<void> {
  const answer = await fetch(`${process.env[stackEnv.controlUrl]}/db/${action}`, { method: 'POST' });
  if (answer.status !== 204) throw new Error(`database ${action} failed: ${answer.status} ${await answer.text()}`);
}

/** Runs one of the control server's actions (faultControls.ts), e.g. `/bff/freeze`. */
export async function control(action: string): Promise<void> {
  const answer = await fetch(`${process.env[stackEnv.controlUrl]}${action}`, { method: 'POST' });
  if (answer.status !== 204) throw new Error(`${action} failed: ${answer.status} ${await answer.text()}`);
}

/** Freezes (SIGSTOP), thaws (SIGCONT), stops or starts the BFF. */
export const bffProcess = (action: 'freeze' | 'thaw' | 'stop' | 'start') => control(`/bff/${action}`);

/** Seconds since `startedAt` (Date.now()), one decimal: what the closing notes report. */
export const secondsSince = (startedAt: number) => Math.round((Date.now() - startedAt) / 100) / 10;

/** Records a measured time on the test (and the log), so a run says how long each message took. */
export function noteTiming(label: string, seconds: number): void {
  test.info().annotations.push({ type: 'timing', description: `${label}: ${seconds} s` });
  console.log(`timing ${test.info().title} | ${label}: ${seconds} s`);
}

/** Waits until the API answers a read through the BFF again (after a database came back). */
export async function waitUntilServing(page: Page, timeoutMs = 60_000): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  while (Date.now() < giveUpAt) {
    const answer = await page.request.get('/bff/ready').catch(() => null);
    if (answer?.ok()) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the stack did not serve again in time');
}

/** Records every text the page's role="alert" regions ever show (installed before the page loads). */
export async function recordAlerts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const said: string[] = [];
    (window as unknown as { __alerts: string[] }).__alerts = said;
    new MutationObserver(() => {
      for (const region of document.querySelectorAll('[role="alert"]')) {
        const text = region.textContent?.trim() ?? '';
        if (text && said.at(-1) !== text) said.push(text);
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

/** What recordAlerts saw. */
export function alertsSeen(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __alerts?: string[] }).__alerts ?? []);
}

/** Saves a full-page screenshot of a key screen. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: `${screenshotDir}${name}.png`, fullPage: true });
}

/** Runs axe (WCAG 2.0–2.2 A and AA) and fails on any serious or critical violation. */
export async function expectNoSeriousA11yViolations(page: Page, label: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(
    serious.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`),
    `axe on ${label}`,
  ).toEqual([]);
}

/**
 * A money send as the visitor makes it (adr/0050): the form's "Continue" only reviews; the
 * review's own button (`Deposit €12.34`, `Send €2.34`, `Continue to your PIN`) sends.
 */
export async function reviewThenSend(page: Page, send: string | RegExp): Promise<void> {
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.getByTestId('send-review').getByRole('button', { name: send }).click();
}

/** Deposits `amountMinor` into the signed-in customer's first account through the BFF (a set-up step, not the walk under test). */
export async function depositViaBff(page: Page, amountMinor: number): Promise<void> {
  const { csrfToken } = (await (await page.request.get('/bff/session')).json()) as { csrfToken: string };
  const listed = (await (await page.request.get('/api/accounts')).json()) as { items: Array<{ id: string }> };
  const answer = await page.request.post(`/api/accounts/${listed.items[0]!.id}/deposits`, {
    headers: { 'X-CSRF-Token': csrfToken, 'Idempotency-Key': crypto.randomUUID() },
    data: { amountMinor },
  });
  expect(answer.status(), await answer.text()).toBe(201);
}
