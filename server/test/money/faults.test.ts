/**
 * Faults between the API and PostgreSQL, injected by the TCP fault proxy (test-support's tcpProxy.ts), around a
 * money send's commit, its one statement that is its own commit (adr/0027, adr/0041), for a
 * transfer and a deposit, and before it:
 *
 * - a commit that landed but whose answer was lost is found through the request's own
 *   rows (verifyCommitted) and is not applied twice: the client gets its 201;
 * - a commit that never reached the database is found missing and the send runs again,
 *   once;
 * - an outage before any commit answers 503 with applied: false and frees the key;
 * - an outage after the commit started says nothing of applied; the answer committed
 *   with the money, so the key replays it (adr/0016).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { ApiProcess } from '@tidewater/test-support/apiProcess';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { call } from '@tidewater/test-support/httpClient';
import type { PgCluster } from '@tidewater/test-support/pgCluster';
import { newKey, outcome, type Bank, type Customer } from '@tidewater/test-support/bank';
import { keyState, query, runAuditVerify, untilKeyReleased } from '@tidewater/test-support/bankDatabase';
import type { TcpProxy } from '@tidewater/test-support/tcpProxy';

describe('a money send across a faulty network to PostgreSQL', () => {
  let setup: BankOnPostgres;
  let cluster: PgCluster;
  let proxy: TcpProxy;
  let url: string;
  let api: ApiProcess;
  let b: Bank;
  let ada: Customer;
  let grace: Customer;

  beforeAll(async () => {
    // One quick retry: enough to show what is and is not rerun, short enough for a test.
    setup = await bankOnPostgres({ env: { DB_MAX_RETRIES: '1', DB_RETRY_BASE_DELAY_MS: '50' }, proxy: true });
    ({ cluster, url, api, bank: b } = setup);
    proxy = setup.proxy!;
    [ada, grace] = await Promise.all([b.signUp(), b.signUp()]);
    await b.deposit(ada, ada.accountId, 100_000);
  });
  afterEach(() => proxy.disarm());
  afterAll(() => setup?.stop());

  const logged = (text: string) => api.logLines.filter((line) => line.includes(text)).length;

  /**
   * Runs `fn` with a deferred constraint trigger that runs `action` (PL/pgSQL) at the COMMIT
   * of any transaction inserting a ledger row of `amountMinor`: a slow or refused COMMIT on
   * demand, after the commit started. The trigger is dropped afterwards, whatever `fn` did.
   */
  async function atCommitOf<T>(amountMinor: number, action: string, fn: () => Promise<T>): Promise<T> {
    const name = `at_commit_of_${amountMinor}`;
    await query(url, `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.amount_minor = ${amountMinor} THEN ${action}; END IF; RETURN NULL; END $$`);
    await query(url, `CREATE CONSTRAINT TRIGGER ${name} AFTER INSERT ON ledger_entries
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ${name}()`);
    try {
      return await fn();
    } finally {
      await query(url, `DROP TRIGGER ${name} ON ledger_entries; DROP FUNCTION ${name}()`);
    }
  }

  /**
   * Two sends, each tested against the same faults: every money send is one statement that is
   * its own commit (adr/0041), found on the wire by its order, which carries its operation and
   * amount; its lost answer is settled by looking for its landed claim.
   */
  const lookText = 'SELECT response_body AS "responseBody" FROM idempotency_records';
  const commitForms = [
    {
      form: "a transfer's one statement",
      // By handle: the one statement finds the payee's account itself, so its order carries `"toAccountId":null` (adr/0079).
      commitText: (amountMinor: number) => `"operation":"createInternalTransfer","amountMinor":${amountMinor},"toAccountId":null`,
      lookText,
      // Its PIN check runs before a fault is armed: the faults are for the transfer's own statements.
      approve: (amountMinor: number, key: string) => b.approveAhead(ada, key, { operation: 'createInternalTransfer', fromAccountId: ada.accountId, amountMinor, toHandle: grace.handle }),
      send: (amountMinor: number, key: ReturnType<typeof newKey>) => b.transfer(ada, { fromAccountId: ada.accountId, toHandle: grace.handle, amountMinor, description: 'faults' }, key),
      rows: 1, // the sender's row carries the key
      moved: (amountMinor: number) => -amountMinor,
      answers: (amountMinor: number) => ({ amountMinor, fromAccountId: ada.accountId, toHandle: grace.handle }),
    },
    {
      form: "a deposit's one statement",
      commitText: (amountMinor: number) => `"operation":"deposit","amountMinor":${amountMinor},`,
      lookText,
      approve: async () => undefined,
      send: (amountMinor: number, key: ReturnType<typeof newKey>) => b.deposit(ada, ada.accountId, amountMinor, key),
      rows: 1,
      moved: (amountMinor: number) => amountMinor,
      answers: (amountMinor: number, key: string) => ({ amountMinor, idempotencyKey: key }),
    },
  ] as const;

  describe.each(commitForms)('$form', ({ commitText, lookText, approve, send, rows, moved, answers }) => {
    it('finds a commit whose answer was lost through its own rows, and does not apply it twice', async () => {
      const key = newKey();
      await approve(1_234, key);
      const balance = await b.balance(ada, ada.accountId);
      const before = logged('a commit whose answer was lost had landed');
      const fired = proxy.arm('dropAnswerTo', commitText(1_234));
      const reply = await send(1_234, key);
      expect(fired()).toBe(1);
      expect(reply.status).toBe(201);
      expect(reply.body).toMatchObject(answers(1_234, key));
      expect((await keyState(url, key)).ledger).toHaveLength(rows);
      expect(await b.balance(ada, ada.accountId)).toBe(balance + moved(1_234));
      expect(logged('a commit whose answer was lost had landed')).toBe(before + 1);
      expect(JSON.stringify((await send(1_234, key)).body)).toBe(JSON.stringify(reply.body));
    });

    it('runs a send again, once, when its commit never reached the database', async () => {
      const key = newKey();
      await approve(500, key);
      const balance = await b.balance(ada, ada.accountId);
      const fired = proxy.arm('cutBefore', commitText(500));
      const reply = await send(500, key);
      expect(fired()).toBe(1);
      expect(reply.status).toBe(201);
      expect((await keyState(url, key)).ledger).toHaveLength(rows);
      expect(await b.balance(ada, ada.accountId)).toBe(balance + moved(500));
    });

    it('answers an outage before any commit 503 with applied: false, and frees the key', async () => {
      const key = newKey();
      await approve(300, key);
      // The attempt and its one retry each lose their connection before anything could commit
      // (the statement was sent, and the look proves it never reached the database).
      const fired = proxy.arm('cutBefore', commitText(300), 2);
      const reply = await send(300, key);
      expect(fired()).toBe(2);
      expect(outcome(reply)).toEqual([503, 'SERVICE_UNAVAILABLE']);
      expect(reply.body).toMatchObject({ applied: false, retryAfterSeconds: 10 });
      expect(reply.headers.get('retry-after')).toBe('10');
      expect(await untilKeyReleased(url, key)).toEqual({ ledger: [], records: [] });
      expect((await send(300, key)).status).toBe(201);
    });

    it('says nothing of applied once a commit started and its outcome stays unknown; the answer landed with the money and the key replays it', async () => {
      const key = newKey();
      await approve(200, key);
      proxy.arm('dropAnswerTo', commitText(200));
      // Every look at the outcome is cut too: it cannot be learnt.
      proxy.arm('cutBefore', lookText, 10);
      const reply = await send(200, key);
      expect(outcome(reply)).toEqual([503, 'SERVICE_UNAVAILABLE']);
      expect(reply.body).not.toHaveProperty('applied');
      proxy.disarm();
      // It did land, and its answer with it (adr/0016): no "landed but answer lost", no 409 until stale.
      const state = await keyState(url, key);
      expect(state.ledger).toHaveLength(rows);
      expect(state.records[0]).toMatchObject({ status: 'Executed', landed_at: expect.any(Date) });
      const replay = await send(200, key);
      expect(replay.status).toBe(201);
      expect(replay.body).toMatchObject(answers(200, key));
    });

    it('calls a lost commit "not landed" only once the backend that had it has ended: a slow commit lands once, and the send answers its 201', async () => {
      // A deferred trigger holds the commit of 4,242 at the server for 1.5 s; the proxy cuts the
      // connection as soon as it forwarded the commit, so the API looks for its rows while the
      // database is still committing them. (CI's soak once met this under a reset: the send reran,
      // found its own claim landed, and answered 500.)
      const key = newKey();
      await approve(4_242, key);
      const balance = await b.balance(ada, ada.accountId);
      await atCommitOf(4_242, 'PERFORM pg_sleep(1.5)', async () => {
        const fired = proxy.arm('cutAfter', commitText(4_242));
        const reply = await send(4_242, key);
        expect(fired()).toBe(1);
        expect(outcome(reply)).toEqual([201, null]);
        expect(reply.body).toMatchObject(answers(4_242, key));
        expect((await keyState(url, key)).ledger).toHaveLength(rows);
        expect(await b.balance(ada, ada.accountId)).toBe(balance + moved(4_242));
        expect(JSON.stringify((await send(4_242, key)).body)).toBe(JSON.stringify(reply.body));
      });
    });
  });

  it('frees the key when a COMMIT is refused for good and its audit row proves nothing landed', async () => {
    // A deferred constraint trigger refuses the ledger row at COMMIT: a permanent error, after the commit started.
    const key = newKey();
    await atCommitOf(7_777, "RAISE EXCEPTION 'refused at commit'", async () => {
      const refused = await b.deposit(ada, ada.accountId, 7_777, key);
      expect(outcome(refused)).toEqual([500, 'INTERNAL']);
      expect(await keyState(url, key)).toEqual({ ledger: [], records: [] });
      // The key is free at once (not 409 IN_FLIGHT for the 120 s of stale-after): the same send runs again.
      expect(outcome(await b.deposit(ada, ada.accountId, 7_777, key))).toEqual([500, 'INTERNAL']);
    });
    expect((await b.deposit(ada, ada.accountId, 7_777, key)).status).toBe(201);
  });

  it('never counts a right PIN whose check met an outage: after five outages the right PIN still passes', async () => {
    const carol = await b.signUp('2468');
    for (let outage = 1; outage <= 5; outage++) {
      // The authorisation's transaction is cut on its attempt and its one retry: an outage after the PIN was compared.
      proxy.arm('cutBefore', 'INSERT INTO step_up_authorizations', 2);
      expect(outcome(await b.verifyPin(carol)), `outage ${outage}`).toEqual([503, 'SERVICE_UNAVAILABLE']);
      proxy.disarm();
    }
    expect((await b.verifyPin(carol)).status).toBe(201);
    expect(await query(url, 'SELECT pin_failed_attempts AS n FROM users WHERE id = $1', [carol.userId])).toEqual([{ n: 0 }]);
  });

  it('reveals no verdict on a wrong PIN whose count did not commit', async () => {
    const dan = await b.signUp('1928');
    // A right PIN first, so the API knows dan's verifier and a wrong one is ONE statement, the
    // count with its verdict (adr/0047), prepared already: cut it by dan's id, on its attempt and its one retry.
    expect((await b.verifyPin(dan)).status).toBe(201);
    proxy.arm('cutBefore', dan.userId, 2);
    expect(outcome(await b.verifyPin(dan, '9999'))).toEqual([503, 'SERVICE_UNAVAILABLE']);
    proxy.disarm();
    expect(await query(url, 'SELECT pin_failed_attempts AS n FROM users WHERE id = $1', [dan.userId])).toEqual([{ n: 0 }]);
    expect(outcome(await b.verifyPin(dan, '9999'))).toEqual([403, 'PIN_INCORRECT']);
  });

  it('tells a refused password only once its count committed: a lost count is a 503 that tells nothing', async () => {
    const email = `count${Date.now()}@example.com`;
    proxy.arm('cutBefore', 'INSERT INTO sign_in_failures', 2);
    const answer = await call(api.url, 'POST', '/api/auth/token', { body: { email, password: 'a wrong password' } });
    proxy.disarm();
    expect([answer.status, answer.body.errorCode]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expect(await query(url, 'SELECT count(*)::int AS n FROM sign_in_failures')).toEqual([{ n: 0 }]);
    expect((await call(api.url, 'POST', '/api/auth/token', { body: { email, password: 'a wrong password' } })).status).toBe(401);
  });

  /** The API's completion line for a trace id, once it is logged. */
  async function completionOf(traceId: string): Promise<{ msg: string; status: number | undefined }> {
    for (let waited = 0; waited < 10_000; waited += 50) {
      const line = api.logLines.map((text) => JSON.parse(text)).find((entry) => entry.traceId === traceId && entry.responseTime !== undefined);
      if (line) return { msg: line.msg, status: line.res?.statusCode };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no completion line for ${traceId}`);
  }

  /** Sends a request that the client abandons `afterMs` after sending. */
  async function hangUpOn(path: string, body: unknown, key: string | undefined, afterMs: number): Promise<string> {
    const traceId = randomBytes(16).toString('hex'); // a W3C trace id, which the API takes as its own
    const headers: Record<string, string> = { 'x-trace-id': traceId, ...(key ? { 'idempotency-key': key } : {}) };
    const outcome = await call(api.url, 'POST', path, { token: ada.token, body, headers, signal: AbortSignal.timeout(afterMs) }).catch((e: unknown) => e);
    expect((outcome as Error).name).toBe('TimeoutError');
    return traceId;
  }

  it('logs a hang-up after the COMMIT started as 499, like any other hang-up', async () => {
    // A deferred trigger makes this deposit's COMMIT take 1 s; the client leaves 300 ms into it.
    const key = newKey();
    await atCommitOf(4_444, 'PERFORM pg_sleep(1)', async () => {
      const traceId = await hangUpOn(`/api/accounts/${ada.accountId}/deposits`, { amountMinor: 4_444 }, key, 300);
      expect(await completionOf(traceId)).toEqual({ msg: 'client closed the request before its answer', status: 499 });
    });
    expect((await keyState(url, key)).ledger).toHaveLength(1); // the commit that started landed
  });

  it('logs a hang-up on an operation exempt from hang-ups (logout) as 499', async () => {
    await cluster.pause();
    const traceId = await hangUpOn('/api/auth/logout', undefined, undefined, 300).finally(() => cluster.resume());
    expect(await completionOf(traceId)).toEqual({ msg: 'client closed the request before its answer', status: 499 });
  });

  it('leaves an audit trail that verifies', async () => {
    const verified = await runAuditVerify({ DATABASE_URL: url });
    expect([verified.code, verified.stderr]).toEqual([0, '']);
  });
});
