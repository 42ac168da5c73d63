/**
 * Opening an account carries an Idempotency-Key (adr/0013). The real API opens the
 * account and its answer is lost on the way back (page.route fetches the real answer, then
 * aborts the browser's request); the SPA keeps the key, "Try again" sends the same one,
 * and the API replays the account it opened: one account, not two.
 */
import { expect, expectNoSeriousA11yViolations, noteTiming, secondsSince, test } from './fixtures.ts';

test('a lost answer to "Open account" and a second click open one account: the same key is sent again', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Everyday', exact: true })).toBeVisible();
  const keys: Array<string | undefined> = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/accounts') keys.push(request.headers()['idempotency-key']);
  });
  await page.route(
    (url) => url.pathname === '/api/accounts',
    async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      const real = await route.fetch();
      expect(real.status()).toBe(201);
      await route.abort('connectionreset');
    },
    { times: 1 },
  );

  await page.getByRole('button', { name: 'New account' }).click();
  await page.getByLabel('Account name').fill('Holidays');
  const startedAt = Date.now();
  await page.getByRole('button', { name: 'Open account' }).click();
  await expect(page.getByRole('alert')).toHaveText("We lost the connection, so we can't tell yet whether your account was opened.");
  noteTiming('open account, answer lost: "we can\'t tell yet"', secondsSince(startedAt));
  const tryAgain = page.getByRole('button', { name: 'Try again' });
  await expect(tryAgain).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'open account holding its key');
  await tryAgain.click();
  await expect(page.getByText('Opened Holidays.')).toBeVisible();

  expect(keys).toHaveLength(2);
  expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  expect(keys[1]).toBe(keys[0]);
  const listed = (await (await page.request.get('/api/accounts')).json()) as { items: Array<{ name: string }> };
  expect(listed.items.filter((account) => account.name === 'Holidays')).toHaveLength(1);
  await expect(page.getByRole('link', { name: 'Holidays', exact: true })).toHaveCount(1);
});
