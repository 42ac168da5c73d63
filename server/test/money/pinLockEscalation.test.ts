/**
 * The escalating PIN lock (adr/0047, adr/0064), over real HTTP. On PGlite and on PostgreSQL,
 * with the first lock shrunk to 3 s (PIN_LOCK_SECONDS=3, long enough for a sign-in under a
 * loaded CI to land inside it): five wrong PINs lock for 3 s, five more for 6 s, five more
 * block step-up, and a password sign-in lifts none of them. On
 * PostgreSQL at the real numbers, time is simulated by moving each lock's end into the past
 * by its Retry-After: a guesser holding a session is told 15 verdicts, not the ~480 a fixed
 * 15-minute lock allowed; a thief who also holds the password and signs in between every
 * guess is told the same 15 (issue 54: a sign-in used to lift the lock, 30 guesses in 1.6 s),
 * and only `npm run pin:unblock` (the bank's out-of-band procedure) lifts the block.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiProcess } from '@tidewater/test-support/apiProcess';
import { call, type Reply } from '@tidewater/test-support/httpClient';
import { uniqueHandle } from '@tidewater/test-support/handles';
import { startPrimary, type PgCluster } from '@tidewater/test-support/pgCluster';
import { query } from '@tidewater/test-support/bankDatabase';

const serverDir = fileURLToPath(new URL('../../', import.meta.url));

/** Runs `npm run pin:unblock -- email` as an operator would, against `databaseUrl`. */
const unblock = (databaseUrl: string, email: string) =>
  promisify(execFile)(process.execPath, ['src/cli/pinUnblock.ts', email], { cwd: serverDir, env: { ...process.env, DATABASE_URL: databaseUrl } });

const password = 'correct horse battery';
const pin = '2468';

interface Holder {
  email: string;
  userId: string;
  accountId: string;
  token: string;
}

async function signUp(url: string): Promise<Holder> {
  const handle = uniqueHandle('lock');
  const registered = await call(url, 'POST', '/api/auth/register', { body: { email: `${handle}@example.com`, password, displayName: 'Lock', handle, pin } });
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  const holder = { email: `${handle}@example.com`, userId: registered.body.user.id, accountId: registered.body.account.id, token: '' };
  return signIn(url, holder);
}

async function signIn(url: string, holder: Holder): Promise<Holder> {
  const token = await call(url, 'POST', '/api/auth/token', { body: { email: holder.email, password } });
  expect(token.status, JSON.stringify(token.body)).toBe(200);
  return { ...holder, token: token.body.accessToken };
}

const stepUp = (url: string, holder: Holder, guess: string): Promise<Reply> =>
  call(url, 'POST', '/api/step-up', { token: holder.token, body: { pin: guess, payment: { operation: 'withdraw', fromAccountId: holder.accountId, amountMinor: 1 } } });

const outcome = (reply: Reply) => [reply.status, reply.body?.errorCode ?? null];

/** Guesses until a 423: the verdicts told before it, and the 423. */
async function guessUntilLocked(url: string, holder: Holder): Promise<{ incorrect: number; locked: Reply }> {
  for (let incorrect = 0; incorrect < 20; incorrect++) {
    const reply = await stepUp(url, holder, '0000');
    if (reply.status === 423) return { incorrect, locked: reply };
    expect(outcome(reply)).toEqual([403, 'PIN_INCORRECT']);
  }
  throw new Error('no lock after 20 wrong PINs');
}

const retryAfter = (reply: Reply) => Number(reply.headers.get('retry-after'));

/** The first lock's length here: a sign-in and a step-up must land inside it, on a loaded machine too. */
const lockSeconds = 3;

const backends = [
  {
    name: 'PGlite',
    async start() {
      const dir = mkdtempSync(join(tmpdir(), 'tidewater-pin-lock-'));
      return { env: { DATA_DIR: dir }, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'PostgreSQL',
    async start() {
      const cluster: PgCluster = await startPrimary();
      return { env: { DATABASE_URL: cluster.urlFor('tidewater') }, cleanup: () => cluster.destroy() };
    },
  },
];

describe.each(backends)('the escalating PIN lock on $name', (backend) => {
  let api: ApiProcess;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const started = await backend.start();
    cleanup = started.cleanup;
    api = await startApi({ ...started.env, VALIDATE_RESPONSES: '1', PIN_LOCK_SECONDS: String(lockSeconds) });
  });
  afterAll(async () => {
    await api?.stop();
    await cleanup?.();
  });

  it(`locks for ${lockSeconds} s, then ${2 * lockSeconds} s, then blocks; a password sign-in lifts neither a lock nor the block`, async () => {
    let holder = await signUp(api.url);
    const first = await guessUntilLocked(api.url, holder);
    expect([first.incorrect, ...outcome(first.locked), retryAfter(first.locked), first.locked.body.retryAfterSeconds]).toEqual([4, 423, 'PIN_LOCKED', lockSeconds, lockSeconds]);
    holder = await signIn(api.url, holder);
    expect(outcome(await stepUp(api.url, holder, pin))).toEqual([423, 'PIN_LOCKED']);
    await sleep(lockSeconds * 1000 + 100);
    const second = await guessUntilLocked(api.url, holder);
    expect([second.incorrect, ...outcome(second.locked), retryAfter(second.locked)]).toEqual([4, 423, 'PIN_LOCKED', 2 * lockSeconds]);
    expect(second.locked.body.detail).toMatch(/blocked until Tidewater support unblocks it/);
    await sleep(2 * lockSeconds * 1000 + 100);
    const third = await guessUntilLocked(api.url, holder);
    expect([third.incorrect, ...outcome(third.locked)]).toEqual([4, 423, 'PIN_BLOCKED']);
    expect(third.locked.headers.get('retry-after')).toBeNull();
    // Neither waiting nor the password lifts a block, and the right PIN is not compared.
    await sleep(1_100);
    holder = await signIn(api.url, holder);
    expect(outcome(await stepUp(api.url, holder, pin))).toEqual([423, 'PIN_BLOCKED']);
  });

  it('ends a streak on a right PIN: the next lock is a first one again', async () => {
    const holder = await signUp(api.url);
    await guessUntilLocked(api.url, holder);
    await sleep(lockSeconds * 1000 + 100);
    expect((await stepUp(api.url, holder, pin)).status).toBe(201);
    const next = await guessUntilLocked(api.url, holder);
    expect([next.incorrect, ...outcome(next.locked), retryAfter(next.locked)]).toEqual([4, 423, 'PIN_LOCKED', lockSeconds]);
  });
});

describe('a day of PIN guesses with a session, on PostgreSQL at the real numbers', () => {
  let cluster: PgCluster;
  let api: ApiProcess;
  let url: string;

  beforeAll(async () => {
    cluster = await startPrimary();
    url = cluster.urlFor('tidewater');
    api = await startApi({ DATABASE_URL: url, VALIDATE_RESPONSES: '1' });
  });
  afterAll(async () => {
    await api?.stop();
    await cluster?.destroy();
  });

  /** Lets `seconds` pass for `holder`'s PIN lock: its end moves that far into the past. */
  const pass = (holder: Holder, seconds: number) =>
    query(url, `UPDATE users SET pin_locked_until = pin_locked_until - $1 * interval '1 second' WHERE id = $2`, [seconds, holder.userId]);

  it('tells a guesser 15 verdicts in a day (the locks last 15 and 30 min, then a block), not about 480', async () => {
    const holder = await signUp(api.url);
    let simulated = 0;
    let compared = 0;
    const waits: number[] = [];
    let last: Reply | undefined;
    while (simulated < 86_400 && compared < 1_000) {
      last = await stepUp(api.url, holder, '0000');
      if (last.status === 423 && last.body.errorCode === 'PIN_BLOCKED') {
        compared += 1;
        break;
      }
      compared += 1;
      if (last.status === 423) {
        // Each 423 here came from the guess that locked: the clock then moves past the lock.
        expect(retryAfter(last)).toBe(last.body.retryAfterSeconds);
        waits.push(retryAfter(last));
        simulated += retryAfter(last);
        await pass(holder, retryAfter(last));
      } else expect(outcome(last)).toEqual([403, 'PIN_INCORRECT']);
    }
    expect(compared).toBe(15);
    expect(waits).toEqual([900, 1_800]);
    expect(outcome(last!)).toEqual([423, 'PIN_BLOCKED']);
    // A day later the block holds: only the bank's unblock lifts it.
    await pass(holder, 2 * 86_400);
    expect(outcome(await stepUp(api.url, holder, pin))).toEqual([423, 'PIN_BLOCKED']);
    const rows = await query<{ locks: number }>(url, 'SELECT pin_locks AS locks FROM users WHERE id = $1', [holder.userId]);
    expect(rows[0]!.locks).toBe(3);
  });

  it('tells a thief with the password 15 verdicts however often they sign in: 15 min, then 30, then the block', async () => {
    let holder = await signUp(api.url);
    const verdicts: string[] = [];
    const waits: number[] = [];
    let simulated = 0;
    let signIns = 0;
    // Up to 30 guesses or an hour of simulated time, signing in with the password before every guess.
    while (verdicts.length < 30 && simulated <= 3_600) {
      holder = await signIn(api.url, holder);
      signIns += 1;
      const reply = await stepUp(api.url, holder, '0000');
      if (reply.body?.errorCode === 'PIN_BLOCKED' && verdicts.at(-1) === 'PIN_BLOCKED') break;
      if (reply.status === 423 && reply.body.errorCode === 'PIN_LOCKED' && verdicts.at(-1) === 'PIN_LOCKED') {
        // Still locked after the sign-in: the thief waits the lock out.
        waits.push(retryAfter(reply));
        simulated += retryAfter(reply);
        await pass(holder, retryAfter(reply));
        continue;
      }
      verdicts.push(reply.body.errorCode);
    }
    // Each verdict is a compared guess (a 403, or the 423 that locked): a 423 right after a lock's 423 compared nothing.
    expect([verdicts.length, waits, verdicts.at(-1)]).toEqual([15, [900, 1_800], 'PIN_BLOCKED']);
    expect(simulated).toBeLessThanOrEqual(3_600);
    expect(signIns).toBeGreaterThan(15);
    // Only the bank's out-of-band unblock gives the PIN back; then the right PIN works and a new streak starts at 15 min.
    holder = await signIn(api.url, holder);
    expect(outcome(await stepUp(api.url, holder, pin))).toEqual([423, 'PIN_BLOCKED']);
    const { stdout } = await unblock(url, holder.email);
    expect(stdout).toMatch(/usable again/);
    expect((await stepUp(api.url, holder, pin)).status).toBe(201);
    const again = await guessUntilLocked(api.url, holder);
    expect([again.incorrect, retryAfter(again.locked)]).toEqual([4, 900]);
  });

  it('forgets a streak a day after its last lock ended: the next lock is a first one', async () => {
    const holder = await signUp(api.url);
    const first = await guessUntilLocked(api.url, holder);
    expect(retryAfter(first.locked)).toBe(900);
    await pass(holder, 900 + 86_400 + 1);
    const next = await guessUntilLocked(api.url, holder);
    expect([next.incorrect, retryAfter(next.locked)]).toEqual([4, 900]);
  });
});
