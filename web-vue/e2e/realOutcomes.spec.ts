/**
 * The unsure answers of a money send, from the real stack rather than page.route (issue
 * 13, item 8). Each answer is also checked against the spec.
 *
 * - Busy: a separate connection holds the account's row lock while the visitor's deposit
 *   and several more deposits (same account, other keys) contend for it; every attempt of
 *   each loses its lock wait, so each answers 503 busy (`retryAfterSeconds: 1`,
 *   `applied: false`) and nothing moves; Try again with the same key then lands once.
 * - a 503 with the database paused under a waiting deposit: the deposit waits for the held
 *   lock, the database is paused (SIGSTOP) meanwhile, and the API answers after its
 *   deadline. A deposit's statement is its own commit (adr/0027): once it was sent, only the
 *   database can say whether it committed, so the answer says nothing of `applied` and the
 *   page says it cannot tell yet; when the pause caught it between attempts, the answer is
 *   `applied: false` and the page says nothing changed. Either way its cancel rolls it back
 *   once the database is back, and nothing moves.
 * - a lost answer: a second API (lostAnswerStack.ts) is frozen the instant its commit
 *   passes, so the money lands and the answer is lost; the BFF gives up (503, the key is
 *   kept), the API crashes (SIGKILL) and restarts, and Try again replays the answer that
 *   committed with the money (adr/0016): the receipt, one movement. (409 RESULT_UNKNOWN
 *   with `applied: true` now comes only from a record without its answer; wentThrough.spec.ts
 *   scripts it.)
 */
import type { APIResponse, Page, Response } from '@playwright/test';
import { control, database, expect, expectNoSeriousA11yViolations, newCustomer, noteTiming, reviewThenSend, saveScreenshot, secondsSince, test, waitUntilServing } from './fixtures.ts';
import { lostAnswerEnv } from './lostAnswerStack.ts';
import { checkScripted } from './scripted.ts';
import { untilASendWaitsForTheLock, untilNoSendWaitsForTheLock, whatTheKeyWrote, whileAccountIsLocked } from './sql.ts';

const NOTHING_CHANGED = 'The service is temporarily unavailable, and nothing was changed.';
const MAY_HAVE_LANDED = "The service is temporarily unavailable, and we can't tell yet whether it went through.";

/** Checks a real answer against the spec, as the scripted ones are. */
async function expectContract(operationId: string, answer: Response | APIResponse): Promise<Record<string, unknown>> {
  const body = await answer.text();
  checkScripted(operationId, { status: answer.status(), contentType: answer.headers()['content-type'] ?? '', headers: answer.headers(), body });
  return JSON.parse(body) as Record<string, unknown>;
}

async function openDeposit(page: Page, base = ''): Promise<string> {
  await page.goto(`${base}/`);
  const accountId = (await page.getByRole('link', { name: 'Everyday', exact: true }).getAttribute('href'))!.split('/').at(-1)!;
  await page.getByRole('link', { name: 'Deposit into Everyday' }).click();
  await page.getByLabel('Amount in euros').fill('12.34');
  return accountId;
}

const isDeposit = (response: Response) => response.request().method() === 'POST' && response.url().endsWith('/deposits');

test.afterEach(async ({ page }) => {
  await database('resume').catch(() => undefined);
  await waitUntilServing(page);
});

test('a real busy account: deposits contend for one account, each is told nothing changed, and Try again lands once', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  const accountId = await openDeposit(page);
  const { csrfToken } = (await (await page.request.get('/bff/session')).json()) as { csrfToken: string };
  const otherKeys = Array.from({ length: 5 }, (_, index) => `e2e-busy-${index}-${Date.now()}`);

  const { spaAnswer, otherAnswers, startedAt } = await whileAccountIsLocked(accountId, async () => {
    const others = otherKeys.map((key, index) =>
      page.request.post(`/api/accounts/${accountId}/deposits`, { headers: { 'X-CSRF-Token': csrfToken, 'Idempotency-Key': key }, data: { amountMinor: 100 + index }, timeout: 60_000 }),
    );
    await untilASendWaitsForTheLock();
    const started = Date.now();
    const answered = page.waitForResponse(isDeposit, { timeout: 40_000 });
    await reviewThenSend(page, /^Deposit €/);
    const answer = await answered;
    await expect(page.getByRole('alert')).toHaveText(NOTHING_CHANGED);
    return { spaAnswer: answer, otherAnswers: await Promise.all(others), startedAt: started };
  });
  noteTiming('busy: "nothing was changed"', secondsSince(startedAt));
  expect(spaAnswer.status()).toBe(503);
  expect(await expectContract('deposit', spaAnswer)).toMatchObject({ errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 1, applied: false });
  for (const answer of otherAnswers) {
    expect(answer.status()).toBe(503);
    expect(await expectContract('deposit', answer)).toMatchObject({ retryAfterSeconds: 1, applied: false });
  }
  const key = spaAnswer.request().headers()['idempotency-key']!;
  await saveScreenshot(page, 'busy-account');

  const again = page.waitForResponse(isDeposit);
  await page.getByRole('button', { name: 'Try again' }).click();
  expect((await again).request().headers()['idempotency-key']).toBe(key);
  await expect(page.getByRole('heading', { name: 'Deposit received' })).toBeVisible();
  expect((await whatTheKeyWrote(key)).ledger).toHaveLength(1);
  for (const other of otherKeys) expect((await whatTheKeyWrote(other)).ledger).toEqual([]);
});

test('a real 503 with the database paused under a waiting deposit: the page says what the API knows, and nothing moved', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  const accountId = await openDeposit(page);
  const { answer, startedAt } = await whileAccountIsLocked(accountId, async () => {
    const answered = page.waitForResponse(isDeposit, { timeout: 40_000 });
    await reviewThenSend(page, /^Deposit €/);
    await untilASendWaitsForTheLock();
    await database('pause');
    const started = Date.now();
    const response = await answered;
    await database('resume');
    // Its cancel, sent at the deadline, reaches the database now: only then may the lock go.
    await untilNoSendWaitsForTheLock();
    return { answer: response, startedAt: started };
  });
  expect(answer.status()).toBe(503);
  const body = await expectContract('deposit', answer);
  expect(body).toMatchObject({ errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 10 });
  if (body.applied === false) {
    await expect(page.getByRole('alert')).toHaveText(NOTHING_CHANGED);
  } else {
    expect(body).not.toHaveProperty('applied');
    await expect(page.getByRole('alert')).toHaveText(MAY_HAVE_LANDED);
  }
  noteTiming(`paused under a waiting deposit: ${body.applied === false ? '"nothing was changed"' : '"we can\'t tell yet"'} (from the pause)`, secondsSince(startedAt));
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  await saveScreenshot(page, 'paused-under-a-deposit-real');
  // Nothing committed: not after the deadline, and not once the database was back.
  await page.waitForTimeout(1_000);
  expect((await whatTheKeyWrote(answer.request().headers()['idempotency-key']!)).ledger).toEqual([]);
});

test('an answer lost right after its commit: the answer committed with the money, so Try again with the same key shows the receipt', async ({ page }) => {
  test.setTimeout(240_000);
  await control('/lost-answer/start');
  const base = process.env[lostAnswerEnv]!;
  const customer = newCustomer();
  const { csrfToken } = (await (await page.request.get(`${base}/bff/session`)).json()) as { csrfToken: string };
  expect((await page.request.post(`${base}/bff/register`, { data: customer, headers: { 'X-CSRF-Token': csrfToken } })).status()).toBe(201);
  await openDeposit(page, base);
  const keys: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/deposits')) keys.push(request.headers()['idempotency-key'] ?? '');
  });

  await control('/lost-answer/arm');
  const startedAt = Date.now();
  const lostAnswer = page.waitForResponse(isDeposit, { timeout: 40_000 });
  await reviewThenSend(page, /^Deposit €/);
  expect((await lostAnswer).status()).toBe(503);
  await expect(page.getByRole('alert')).toHaveText("The service is temporarily unavailable, and we can't tell yet whether it went through.");
  noteTiming('lost answer: "we can\'t tell yet" (the BFF gave up)', secondsSince(startedAt));
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  await saveScreenshot(page, 'send-holding-key-after-commit');
  const key = keys[0]!;
  const landed = await whatTheKeyWrote(key);
  expect(landed.ledger).toHaveLength(1);
  // The answer commits with the money (adr/0016): no "landed but answer lost", no 409 until stale.
  expect(landed.records[0]).toMatchObject({ status: 'Executed', landed_at: expect.any(Date) });

  await control('/lost-answer/restart-api');
  const replay = page.waitForResponse(isDeposit);
  await page.getByRole('button', { name: 'Try again' }).click();
  expect((await replay).status()).toBe(201);
  await expect(page.getByRole('heading', { name: 'Deposit received' })).toBeVisible();
  noteTiming('lost answer: its receipt on Try again (from the first send)', secondsSince(startedAt));
  expect(keys).toEqual([key, key]);
  expect((await whatTheKeyWrote(key)).ledger).toHaveLength(1);
  await expectNoSeriousA11yViolations(page, 'receipt after a lost answer (real)');
  await saveScreenshot(page, 'receipt-after-lost-answer-real');
});
