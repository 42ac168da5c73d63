/**
 * The database's floor of a deposit: the API's own statement, `money_send_claiming`, sent
 * alone from a bare `pg` pool, with no HTTP and no API process (bench/METHOD.md, "limit").
 * The statement is the server's own (`claimingStatement` through `committingStatement`): the
 * same SQL text, prepared under a name per connection, with the parameters the API's deposit
 * sends (a fresh claim and idempotency key per deposit, the request's hash as the API
 * computes it, the default limits); its rows come back as text, as the commit gate reads
 * them. Its throughput against the one statement's is the ceiling any API code can reach.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { defaults } from '../../server/src/config.ts';
import { plainStatementOn } from '../../server/src/data/commitGate/index.ts';
import { committingStatement } from '../../server/src/data/statements.ts';
import { hashRequest, newClaim } from '../../server/src/domain/idempotency/idempotency.ts';
import { claimingStatement, type SendOrder, type Verdict } from '../../server/src/domain/money/moneyStatement.ts';
import type { Operation } from '../lib/load.ts';
import { openAccountsInSql } from './bareDeposit.ts';

/** The limits the API's deposit runs under, its defaults. */
const mode = {
  lockWaitMs: defaults.accountLockWaitMs,
  dailyLimitMinor: defaults.dailySendLimitMinor,
  lookupLimit: defaults.payeeLookupLimit,
  lookupWindowMs: defaults.payeeLookupWindowMs,
};

/**
 * One deposit of `amountMinor` into `accountId` (owned by `userId`) as `money_send_claiming`
 * alone, under `key` (the request's Idempotency-Key; fresh unless given). Answers the
 * statement's verdict: `applied` with the 201's body, or what the key's record answers.
 */
export function functionAloneDeposit(pool: pg.Pool, userId: string, accountId: string, amountMinor: number, key: string = randomUUID()): Promise<Verdict<unknown>> {
  const order: SendOrder = {
    operation: 'deposit', fromAccountId: null, toAccountId: accountId, amountMinor, description: null,
    toHandle: null, iban: null, beneficiaryName: null, authorizationId: null,
  };
  const claim = newClaim(userId, key);
  const keyClaim = { claim, operationId: 'deposit', requestHash: hashRequest('deposit', { accountId }, { amountMinor }), staleAfterMs: defaults.idempotencyStaleAfterMs };
  const sql = committingStatement(plainStatementOn({ pool }, true));
  return claimingStatement(sql, order, keyClaim, randomUUID(), mode);
}

/** A deposit of 100 as the statement alone into one of `accounts`, under its owner's claim. */
const depositInto = (pool: pg.Pool, accounts: () => { userId: string; id: string }): Operation => async () => {
  const { userId, id } = accounts();
  const done = await functionAloneDeposit(pool, userId, id, 100);
  return done.verdict === 'applied' ? true : done.verdict;
};

/**
 * The floor's two sides in the limit scenario, deposits as the API's customers make them: into
 * one account of the first of `owners`, and spread over `perOwner` new accounts of each of them.
 */
export async function functionAloneSides(pool: pg.Pool, owners: string[], perOwner: number): Promise<{ one: Operation; many: Operation }> {
  const first = owners[0]!;
  const [one] = await openAccountsInSql(pool, first, 1, 'limit function one');
  const many: Array<{ userId: string; id: string }> = [];
  for (const userId of owners) {
    for (const id of await openAccountsInSql(pool, userId, perOwner, 'limit function many')) many.push({ userId, id });
  }
  return { one: depositInto(pool, () => ({ userId: first, id: one! })), many: depositInto(pool, () => many[Math.floor(Math.random() * many.length)]!) };
}
