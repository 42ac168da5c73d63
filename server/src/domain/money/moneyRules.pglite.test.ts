/**
 * The money rules live in the database (adr/0041), and the embedded PGlite runs them as
 * PostgreSQL does: `money_send` posts a movement whose audit link it computes itself, which
 * the chain verifier (auditChain.ts, the code `npm run audit:verify` runs) accepts whatever
 * a customer wrote in the note; it names the rule that refuses a send and moves nothing
 * then; a claim that is not the request's moves nothing; and a check-only look writes nothing.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inRequest } from '../../../test/support/inRequest.ts';
import { dataLayerOnPglite } from '../../../test/support/dataLayerOnPglite.ts';
import { statementsOf } from '../../data/statements.ts';
import { verifyAuditTrail } from '../audit/auditVerification.ts';
import type { Claim } from '../idempotency/idempotency.ts';
import { sendStatement, type SendOrder } from './moneyStatement.ts';

const noPayee = { fromAccountId: null, toAccountId: null, toHandle: null, iban: null, beneficiaryName: null, authorizationId: null, description: null } as const;
const limits = { lockWaitMs: 1_000, dailyLimitMinor: 10_000 };

describe('the money rules in the database, on the embedded PGlite', () => {
  const embedded = dataLayerOnPglite();
  const sql = () => statementsOf(embedded.data.db);

  /** A customer with one open, empty account. */
  async function customer(): Promise<{ userId: string; accountId: string }> {
    const userId = randomUUID();
    const accountId = randomUUID();
    const name = `u${userId.slice(0, 8)}`;
    await sql().execute`INSERT INTO users (id, email, display_name, handle, password_hash, pin_hash)
      VALUES (${userId}::uuid, ${`${name}@example.com`}, ${name}, ${name}, 'x', 'x')`;
    await sql().execute`INSERT INTO accounts (id, user_id, name) VALUES (${accountId}::uuid, ${userId}::uuid, 'Main')`;
    return { userId, accountId };
  }

  /** A claim this "request" holds. */
  async function claim(userId: string): Promise<Claim> {
    const held: Claim = { id: randomUUID(), userId, key: randomUUID(), ownerToken: randomUUID(), startedAt: 0 };
    await sql().execute`INSERT INTO idempotency_records (id, user_id, key, operation_id, request_hash, status, owner_token)
      VALUES (${held.id}::uuid, ${userId}::uuid, ${held.key}, 'deposit', 'h', 'Processing', ${held.ownerToken}::uuid)`;
    return held;
  }

  /** A step-up authorisation approving a withdrawal of `amountMinor` from `accountId`. */
  async function approval(userId: string, accountId: string, amountMinor: number): Promise<string> {
    const id = randomUUID();
    await sql().execute`INSERT INTO step_up_authorizations (id, user_id, expires_at, operation, from_account_id, amount_minor)
      VALUES (${id}::uuid, ${userId}::uuid, now() + interval '5 minutes', 'withdraw', ${accountId}::uuid, ${amountMinor}::bigint)`;
    return id;
  }

  const send = (order: SendOrder, held: Claim, checkOnly = false) =>
    inRequest(() => sendStatement<Record<string, unknown>>(sql(), order, held, null, { ...limits, checkOnly }));
  const deposit = (accountId: string, amountMinor: number, description: string | null = null): SendOrder =>
    ({ ...noPayee, operation: 'deposit', toAccountId: accountId, amountMinor, description });
  const withdrawal = (accountId: string, amountMinor: number, authorizationId: string): SendOrder =>
    ({ ...noPayee, operation: 'withdraw', fromAccountId: accountId, amountMinor, authorizationId });
  const balance = async (accountId: string) =>
    Number((await sql().query<{ b: string }>`SELECT balance_minor::text AS b FROM accounts WHERE id = ${accountId}::uuid`)[0]!.b);

  it('posts movements whose audit links the chain verifier accepts, whatever the note says', async () => {
    const { userId, accountId } = await customer();
    const note = 'rent "May" \\ für Zoë \\u0000 "seq":1, "balanceAfterMinor":"9" 🙂';
    const first = await send(deposit(accountId, 2_500, note), await claim(userId));
    expect(first.verdict).toBe('applied');
    expect(first.body).toMatchObject({ accountId, kind: 'deposit', amountMinor: 2_500, balanceAfterMinor: 2_500, description: note });
    const authorizationId = await approval(userId, accountId, 1_000);
    expect((await send(withdrawal(accountId, 1_000, authorizationId), await claim(userId))).verdict).toBe('applied');
    expect(await balance(accountId)).toBe(1_500);
    const audit = await verifyAuditTrail(embedded.data.db);
    expect(audit.problems).toEqual([]);
    expect(audit.auditRows).toBeGreaterThanOrEqual(2);
  });

  it('names the rule that refuses a send, and moves nothing', async () => {
    const ada = await customer();
    const grace = await customer();
    await send(deposit(ada.accountId, 50_000), await claim(ada.userId));
    const verdicts = [
      await send(deposit(grace.accountId, 100), await claim(ada.userId)),
      await send(withdrawal(ada.accountId, 60_000, await approval(ada.userId, ada.accountId, 60_000)), await claim(ada.userId)),
      await send(withdrawal(ada.accountId, 200, await approval(ada.userId, ada.accountId, 100)), await claim(ada.userId)),
      await send(deposit(ada.accountId, 999_999_999_999_000), await claim(ada.userId)),
    ];
    expect(verdicts.map((v) => [v.verdict, v.body])).toEqual([
      ['ACCOUNT_NOT_FOUND', undefined],
      ['INSUFFICIENT_FUNDS', undefined],
      ['AUTHORIZATION_MISMATCH', undefined],
      ['BALANCE_LIMIT_EXCEEDED', undefined],
    ]);
    // Today's ceiling is 100.00: 40.00 leave, then 70.00 more would pass it with 60.00 left.
    expect((await send(withdrawal(ada.accountId, 4_000, await approval(ada.userId, ada.accountId, 4_000)), await claim(ada.userId))).verdict).toBe('applied');
    const over = await send(withdrawal(ada.accountId, 7_000, await approval(ada.userId, ada.accountId, 7_000)), await claim(ada.userId));
    expect([over.verdict, over.detail]).toEqual(['DAILY_LIMIT_EXCEEDED', { limitMinor: 10_000, leftMinor: 6_000 }]);
    expect(await balance(ada.accountId)).toBe(46_000);
    expect(await balance(grace.accountId)).toBe(0);
  });

  it('moves nothing under a claim that is not the request\'s, and writes nothing when it only checks', async () => {
    const { userId, accountId } = await customer();
    const held = await claim(userId);
    expect((await send(deposit(accountId, 100), { ...held, ownerToken: randomUUID() })).verdict).toBe('claim_lost');
    expect((await send(deposit(accountId, 100), held, true)).verdict).toBe('ok');
    expect(await balance(accountId)).toBe(0);
    const [record] = await sql().query<{ status: string }>`SELECT status FROM idempotency_records WHERE id = ${held.id}::uuid`;
    expect(record?.status).toBe('Processing');
    expect((await send(deposit(accountId, 100), held)).verdict).toBe('applied');
    expect((await send(deposit(accountId, 100), held)).verdict).toBe('claim_lost');
    expect(await balance(accountId)).toBe(100);
  });
});
