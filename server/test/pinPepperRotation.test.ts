/**
 * Pepper rotation that cannot lock customers out (issue 54 item 7, adr/0064), on the real
 * API over HTTP and the embedded database kept in a folder between starts. A PIN_PEPPER
 * without the key id the stored verifiers name used to start and answer every step-up of
 * those customers 500, right PIN or wrong; now the API refuses to start and names the key id
 * and how many verifiers need it. Kept beside the new key, the old one lets each right PIN
 * move its verifier over, and once none names it the old entry can go.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { startApi, type ApiProcess } from '@tidewater/test-support/apiProcess';
import { call } from '@tidewater/test-support/httpClient';
import { uniqueHandle } from '@tidewater/test-support/handles';

const dir = mkdtempSync(join(tmpdir(), 'tidewater-pepper-'));
const first = `k1:${randomBytes(24).toString('hex')}`;
const second = `k2:${randomBytes(24).toString('hex')}`;
const password = 'correct horse battery';
const pin = '2468';
let api: ApiProcess | undefined;

afterEach(async () => {
  await api?.stop();
  api = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const start = (pepper: string) => startApi({ DATA_DIR: dir, PIN_PEPPER: pepper }, 60_000);

async function stepUpWithRightPin(url: string, email: string, accountId: string) {
  const token = await call(url, 'POST', '/api/auth/token', { body: { email, password } });
  expect(token.status).toBe(200);
  return call(url, 'POST', '/api/step-up', {
    token: token.body.accessToken,
    body: { pin, payment: { operation: 'withdraw', fromAccountId: accountId, amountMinor: 1 } },
  });
}

it('refuses to start without a key id the stored PIN verifiers name, saying which; rotates once both are given', async () => {
  api = await start(first);
  const handle = uniqueHandle('pepper');
  const email = `${handle}@example.com`;
  const registered = await call(api.url, 'POST', '/api/auth/register', { body: { email, password, displayName: 'Pepper', handle, pin } });
  expect(registered.status).toBe(201);
  const accountId: string = registered.body.account.id;
  await api.stop();
  api = undefined;

  // The old entry removed while a verifier still names it: no start, and the reason.
  const refusal = await start(second).then(
    async (started) => {
      const status = (await stepUpWithRightPin(started.url, email, accountId)).status;
      await started.stop();
      return `started; a step-up with the right PIN answered ${status}`;
    },
    (error: Error) => error.message,
  );
  expect(refusal).toMatch(/refusing to start: PIN_PEPPER lacks key id k1 \(1 verifier\)/);

  // Both keys, the new one first: the right PIN passes and remakes the verifier under k2.
  api = await start(`${second},${first}`);
  expect((await stepUpWithRightPin(api.url, email, accountId)).status).toBe(201);
  await api.stop();

  // No verifier names k1 any more: it can go.
  api = await start(second);
  expect((await stepUpWithRightPin(api.url, email, accountId)).status).toBe(201);
});
