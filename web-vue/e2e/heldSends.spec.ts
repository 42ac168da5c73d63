/**
 * A send whose answer is unknown outlives its page (adr/0051). Each test stages what the
 * issue found paying twice: a deposit of €12.34 whose request reached the real API and
 * committed, with only its answer held back in the browser (page.route sends the request on
 * with route.fetch and keeps the answer), so the page shows it pending. Then the visitor
 * reloads, opens a tab, closes the tab, restarts the browser, signs out and in, or two tabs
 * press "Send it again safely" at once. In every one the visitor is told about the send by
 * name, its outcome is said, and the ledger holds the deposit once.
 */
import type { BrowserContext, Page, Route } from '@playwright/test';
import { type Customer, expect, expectNoSeriousA11yViolations, newCustomer, reviewThenSend, saveScreenshot, test } from './fixtures.ts';
import { depositsOf } from './sql.ts';

const LABEL = 'Deposit of €12.34 into Everyday';
const WENT_THROUGH = `${LABEL}: it went through.`;

interface Staged {
  accountId: string;
  key: string;
  /** Lets the held-back answer reach the page at last. */
  release: () => Promise<void>;
}

/** A deposit of €12.34 that committed on the real API while its answer is held back: the page shows it pending. */
async function depositWithAnswerHeldBack(page: Page): Promise<Staged> {
  await page.goto('/');
  const accountId = (await page.getByRole('link', { name: 'Everyday', exact: true }).getAttribute('href'))!.split('/').at(-1)!;
  await page.getByRole('link', { name: 'Deposit into Everyday' }).click();
  await page.getByLabel('Amount in euros').fill('12.34');
  const reached = new Promise<{ route: Route; answer: Awaited<ReturnType<Route['fetch']>> }>((resolve) =>
    void page.route(
      (url) => url.pathname.endsWith('/deposits'),
      async (route) => resolve({ route, answer: await route.fetch() }),
      { times: 1 },
    ),
  );
  await reviewThenSend(page, /^Deposit €/);
  const { route, answer } = await reached;
  expect(answer.status()).toBe(201);
  await expect(page.getByRole('button', { name: 'Sending €12.34…' })).toHaveAttribute('aria-disabled', 'true');
  expect((await depositsOf(accountId, 1234)).length).toBe(1);
  return { accountId, key: route.request().headers()['idempotency-key']!, release: () => route.fulfill({ response: answer }) };
}

/**
 * Holds every look-up of a key from now on (never answered): the held send then waits for
 * the visitor's own button, not for the look-ups that settle it by themselves
 * (useHeldSendResolver, adr/0067; heldSendResolves.spec.ts walks those).
 */
async function holdKeyLookUps(target: Page | BrowserContext): Promise<void> {
  await target.route((url) => /\/api\/idempotency-keys\/[^/]+$/.test(url.pathname), () => undefined);
}

/** Counts the deposits the browser sends from now on, in every tab of `context`. */
function countDeposits(context: BrowserContext): () => number {
  let sent = 0;
  context.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/deposits')) sent += 1;
  });
  return () => sent;
}

/** The held send's notice, as a screen reader meets it. */
async function expectNotice(page: Page): Promise<void> {
  await expect(page.locator('.held-sends')).toMatchAriaSnapshot(`
    - status: "You have 1 send we couldn't confirm."
    - region "A send we couldn't confirm":
      - heading "A send we couldn't confirm" [level=2]
      - article "${LABEL}":
        - heading "${LABEL}" [level=3]
        - button "Check whether it went through"
        - button "Send it again safely"
  `);
}

/** The outcome is said, and the notice is gone. */
async function expectWentThrough(page: Page): Promise<void> {
  await expect(page.locator('.held-sends')).toMatchAriaSnapshot(`
    - status: "${WENT_THROUGH}"
  `);
  await expect(page.getByRole('region', { name: "A send we couldn't confirm" })).toHaveCount(0);
}

/** At most one movement: the ledger holds the deposit once, under the first key. */
async function expectMovedOnce(staged: Staged): Promise<void> {
  expect(await depositsOf(staged.accountId, 1234)).toEqual([{ idempotency_key: staged.key }]);
}

async function signIn(page: Page, customer: Customer): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('Email address').fill(customer.email);
  await page.getByLabel('Password').fill(customer.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/$/);
}

test('reload while pending: the deposit page names the send, and sending it again moves the money once', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  const staged = await depositWithAnswerHeldBack(page);
  page.on('dialog', (dialog) => void dialog.accept()); // the visitor accepts the browser's question
  await holdKeyLookUps(page);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Deposit money into Everyday');
  await expectNotice(page);
  await expect(page.getByLabel('Amount in euros')).toBeVisible(); // other amounts go; the same one points at the notice (heldSendResolves.spec.ts)
  await expectNoSeriousA11yViolations(page, 'deposit page with a held send');
  await saveScreenshot(page, 'held-send-on-its-page');
  const sent = countDeposits(page.context());
  await page.getByRole('button', { name: 'Send it again safely' }).click();
  await expectWentThrough(page);
  expect(sent()).toBe(1);
  await expectMovedOnce(staged);
  await expect(page.getByLabel('Amount in euros')).toBeVisible();
});

test('a new tab while the first is pending: told there, cannot send the key meanwhile, and learns the outcome at once', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  const staged = await depositWithAnswerHeldBack(page);
  await holdKeyLookUps(page.context()); // the outcome must come from the first tab's answer
  const sent = countDeposits(page.context());
  const second = await page.context().newPage();
  await second.goto('/');
  await expectNotice(second);
  await saveScreenshot(second, 'held-send-second-tab-dashboard');
  await second.getByRole('link', { name: 'Deposit into Everyday' }).click();
  await expectNotice(second);
  await second.getByRole('button', { name: 'Send it again safely' }).click();
  await expect(second.getByRole('article', { name: LABEL }).getByRole('status')).toHaveText('It is already being sent, here or in another tab. Its answer will show here too.');
  await saveScreenshot(second, 'held-send-second-tab');
  expect(sent()).toBe(0);

  await staged.release();
  await expect(page.getByRole('heading', { name: 'Deposit received' })).toBeVisible();
  await expectWentThrough(second);
  expect(sent()).toBe(0);
  await expectMovedOnce(staged);
});

test('the tab closed while pending, the app opened again: every page names the send, and the look-up by key settles it by itself', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  const staged = await depositWithAnswerHeldBack(page);
  const context = page.context();
  await page.close();
  const again = await context.newPage();
  await holdKeyLookUps(again);
  const sent = countDeposits(context);
  await again.goto('/');
  await expect(again.getByRole('heading', { level: 1 })).toHaveText('Hello, Ada');
  await expectNotice(again);
  await expectNoSeriousA11yViolations(again, 'dashboard with a held send');
  await saveScreenshot(again, 'held-send-on-the-dashboard');
  // Every other page says it too, with the way back to it.
  await again.getByRole('link', { name: 'Everyday', exact: true }).click();
  await expect(again.getByRole('heading', { level: 1 })).toHaveText('Everyday');
  await expect(again.getByText("You have 1 send we couldn't confirm.")).toBeVisible();
  await again.getByRole('link', { name: 'See it on your accounts page' }).click();
  await expectNotice(again);
  await again.unrouteAll({ behavior: 'ignoreErrors' }); // the bank answers look-ups again: no visitor action needed
  await expectWentThrough(again);
  expect(sent()).toBe(0);
  await expectMovedOnce(staged);
});

test('the browser restarted (a new context from the same storage): the send is named, and sent again once', async ({ page, browser, baseURL, signUpViaBff }) => {
  await signUpViaBff();
  const staged = await depositWithAnswerHeldBack(page);
  const storageState = await page.context().storageState();
  await page.context().close();
  const restarted = await browser.newContext({ baseURL, storageState, locale: 'en-IE' });
  try {
    await holdKeyLookUps(restarted);
    const next = await restarted.newPage();
    const sent = countDeposits(restarted);
    await next.goto('/');
    await expectNotice(next);
    await next.getByRole('button', { name: 'Send it again safely' }).click();
    await expectWentThrough(next);
    expect(sent()).toBe(1);
    await expectMovedOnce(staged);
  } finally {
    await restarted.close();
  }
});

test('two tabs press "Send it again safely" together: one request reaches the bank, both learn the outcome', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  const staged = await depositWithAnswerHeldBack(page);
  const context = page.context();
  await page.close();
  await holdKeyLookUps(context);
  const tabs = [await context.newPage(), await context.newPage()];
  for (const tab of tabs) {
    await tab.goto(`/accounts/${staged.accountId}/deposit`);
    await expectNotice(tab);
  }
  const sent = countDeposits(context);
  // The first tab's request takes a moment on the way, so the second press meets it in flight.
  await context.route('**/deposits', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
  });
  await Promise.all(tabs.map((tab) => tab.getByRole('button', { name: 'Send it again safely' }).click()));
  for (const tab of tabs) await expectWentThrough(tab);
  expect(sent()).toBe(1);
  await expectMovedOnce(staged);
});

test('signed out while pending: the send comes back when the same customer signs in, and another customer never sees it', async ({ page, signUpViaBff }) => {
  const customer = await signUpViaBff();
  const staged = await depositWithAnswerHeldBack(page);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);

  const other = newCustomer();
  await signUpViaBff(other);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hello, Ada');
  await expect(page.getByRole('link', { name: 'Everyday', exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: "A send we couldn't confirm" })).toHaveCount(0);
  await expect(page.getByText(LABEL)).toHaveCount(0);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);

  await holdKeyLookUps(page);
  await signIn(page, customer);
  await expectNotice(page);
  const sent = countDeposits(page.context());
  await page.getByRole('button', { name: 'Send it again safely' }).click();
  await expectWentThrough(page);
  expect(sent()).toBe(1);
  await expectMovedOnce(staged);
});

test('the browser lost everything (cleared storage), or another device: the bank lists the recent send, and the dashboard says it went through', async ({ page, browser, baseURL, signUpViaBff }) => {
  const customer = await signUpViaBff();
  const staged = await depositWithAnswerHeldBack(page);
  await page.evaluate(() => localStorage.clear());
  const context = page.context();
  await page.close();
  const again = await context.newPage();
  const sent = countDeposits(context);
  await again.goto('/');
  await expect(again.getByRole('link', { name: 'Everyday', exact: true })).toBeVisible();
  await expect(again.getByRole('region', { name: "A send we couldn't confirm" })).toHaveCount(0);
  await expect(again.locator('.recent-sends')).toMatchAriaSnapshot(`
    - status: "The bank has 1 recent send this browser has no record of."
    - region "Sent in the last few minutes":
      - heading "Sent in the last few minutes" [level=2]
      - list:
        - listitem: /Deposit of €12\\.34 into Everyday went through \\(started at \\d\\d:\\d\\d\\)\\./
  `);
  await expectNoSeriousA11yViolations(again, 'dashboard with the bank\'s recent send');
  await saveScreenshot(again, 'recent-send-from-the-bank');
  expect(sent()).toBe(0);

  // Another device: a browser that never saw the send, signed in as the same customer.
  const device = await browser.newContext({ baseURL, locale: 'en-IE' });
  try {
    const other = await device.newPage();
    await signIn(other, customer);
    await expect(other.getByRole('region', { name: 'Sent in the last few minutes' })).toContainText(/Deposit of €12\.34 into Everyday went through/);
  } finally {
    await device.close();
  }
  await expectMovedOnce(staged);
});
