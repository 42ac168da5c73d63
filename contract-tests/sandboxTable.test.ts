/**
 * The sandbox's table (the introduction's "Sandbox: the failure paths on purpose"), walked row
 * by row on every money send (a deposit, a withdrawal, a transfer to an own account, one by
 * handle, one to an IBAN) × {an existing account, a missing one, too little money} against a
 * sandbox API on PostgreSQL (issue 53, item 6): the first answer, the money (from the ledger)
 * and what the same key again answers, followed within the waits the answers name.
 *
 * A send the bank refuses (`404 ACCOUNT_NOT_FOUND`, `422 INSUFFICIENT_FUNDS`) moves nothing
 * under any simulation: where the table says "moved", its first answer is the `503` without
 * `applied` (nothing is claimed that did not happen); where the real bank finds the refusal
 * before the failure's place, the refusal comes at once (see `refusedFirst`); and every
 * simulation ends in that refusal, stored under the key and replayed, never in a wait that
 * does not end. A deposit has
 * no refusal of money a test can reach (its 422 is a balance past 10^15), so it is walked on
 * the missing account only.
 *
 * The cases run at once (`describe.concurrent`): each sends from an account of its own, opened
 * and funded for it (and, for a transfer between own accounts, to one), so no case waits behind
 * another's lock or bulkhead or sees its money; most of a case's time is the waits its answers
 * name. Each operation has its own sender (a customer holds at most 20 accounts); the transfers
 * by handle credit one payee, whose row lock a send holds only for its own short transaction.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query } from '@tidewater/test-support/bankDatabase';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import type { Customer, Payment } from '@tidewater/test-support/bank';
import { call, type Reply } from '@tidewater/test-support/httpClient';

const spec = parse(readFileSync(new URL('../spec/openapi.yaml', import.meta.url), 'utf8'));
const simulations: string[] = spec.components.parameters.Simulate.schema.enum;

/** Each row of the table: the first answer (status, errorCode, applied) and whether money moves. */
const table: Record<string, { first: [number, string, boolean | undefined]; moves: boolean }> = {
  'unavailable-not-applied': { first: [503, 'SERVICE_UNAVAILABLE', false], moves: false },
  'unavailable-unknown-landed': { first: [503, 'SERVICE_UNAVAILABLE', undefined], moves: true },
  'unavailable-unknown-not-landed': { first: [503, 'SERVICE_UNAVAILABLE', undefined], moves: false },
  'in-flight': { first: [409, 'IDEMPOTENCY_IN_FLIGHT', undefined], moves: false },
  'result-unknown': { first: [409, 'IDEMPOTENCY_RESULT_UNKNOWN', true], moves: true },
  busy: { first: [503, 'SERVICE_UNAVAILABLE', false], moves: false },
};

/**
 * A refused send's first answer: the row's, except that nothing moved, so no row may say it
 * did; and the refusal itself, at once, where the real bank finds it before the statement the
 * failure is met at: a busy account's send is checked against the rules before it is answered
 * busy. A transfer by handle is no exception: its authorisation, account, funds and payee are
 * checked in its one statement, where the failures are met (adr/0079).
 */
function refusedFirst(simulation: string, refusal: [number, string]): [number, string, boolean | undefined] {
  if (simulation === 'busy') return [...refusal, undefined];
  return table[simulation]!.moves ? [503, 'SERVICE_UNAVAILABLE', undefined] : table[simulation]!.first;
}

const iban = 'DE89370400440532013000';
const tooMuch = 5_000_00_00; // 5,000,000.00 EUR: under the largest amount, over any balance here

let setup: BankOnPostgres;
let grace: Customer;
/** Each operation's sender: the cases of one operation open their accounts as this customer. */
const senders = new Map<string, Customer>();

/** One money send: its path and body for an account and an amount, the payment its PIN approves, the ledger rows it writes under the key. */
interface Operation {
  readonly path: (accountId: string) => string;
  readonly body: (accountId: string, amountMinor: number, savings: string) => Record<string, unknown>;
  readonly payment?: (accountId: string, amountMinor: number) => Payment;
  readonly rows: number;
  /** The send goes to another account of the sender's own (each case opens one). */
  readonly toOwnAccount?: boolean;
}

const operations: Record<string, Operation> = {
  deposit: { path: (a) => `/api/accounts/${a}/deposits`, body: (_a, amountMinor) => ({ amountMinor }), rows: 1 },
  withdraw: {
    path: (a) => `/api/accounts/${a}/withdrawals`,
    body: (_a, amountMinor) => ({ amountMinor }),
    payment: (fromAccountId, amountMinor) => ({ operation: 'withdraw', fromAccountId, amountMinor }),
    rows: 1,
  },
  'createInternalTransfer to an own account': {
    path: () => '/api/transfers/internal',
    body: (fromAccountId, amountMinor, savings) => ({ fromAccountId, toAccountId: savings, amountMinor }),
    rows: 2,
    toOwnAccount: true,
  },
  'createInternalTransfer by handle': {
    path: () => '/api/transfers/internal',
    body: (fromAccountId, amountMinor) => ({ fromAccountId, toHandle: grace.handle, amountMinor }),
    payment: (fromAccountId, amountMinor) => ({ operation: 'createInternalTransfer', fromAccountId, amountMinor, toHandle: grace.handle }),
    // The sender's key is written on the sender's own accounts only.
    rows: 1,
  },
  createExternalTransfer: {
    path: () => '/api/transfers/external',
    body: (fromAccountId, amountMinor) => ({ fromAccountId, iban, beneficiaryName: 'Grace Hopper', amountMinor }),
    payment: (fromAccountId, amountMinor) => ({ operation: 'createExternalTransfer', fromAccountId, amountMinor, iban, beneficiaryName: 'Grace Hopper' }),
    rows: 1,
  },
};

beforeAll(async () => {
  setup = await bankOnPostgres({ env: { API_SANDBOX: 'true', DB_RETRY_MAX_DELAY_MS: '1000', PAYEE_LOOKUP_LIMIT: '1000' } });
  // Six sign-ups at once stay within the API's hashing bulkhead (2 hashing, 8 queued).
  const names = Object.keys(operations);
  const customers = await Promise.all([...names, 'the payee'].map(() => setup.bank.signUp()));
  grace = customers.pop()!;
  names.forEach((name, i) => senders.set(name, customers[i]!));
});
afterAll(() => setup?.stop());

/** A case's own account of `customer`, holding 1,000.00 EUR. */
async function fundedAccount(customer: Customer): Promise<string> {
  const accountId = await setup.bank.openAccount(customer);
  expect((await setup.bank.deposit(customer, accountId, 1_000_00)).status).toBe(201);
  return accountId;
}

/** `operation` (`name`) from `accountId` under `key`: the body made once (its authorisation approved once, as a customer would), sent as often as asked. */
async function sender(name: string, accountId: string, amountMinor: number) {
  const operation = operations[name]!;
  const ada = senders.get(name)!;
  const key = randomUUID();
  const savings = operation.toOwnAccount ? await setup.bank.openAccount(ada) : '';
  const authorization = operation.payment ? { authorizationId: await setup.bank.authorize(ada, operation.payment(accountId, amountMinor)) } : {};
  const body = { ...operation.body(accountId, amountMinor, savings), ...authorization };
  const send = (simulate?: string): Promise<Reply> =>
    call(setup.api.url, 'POST', operation.path(accountId), { token: ada.token, body, headers: { 'idempotency-key': key, ...(simulate ? { 'tidewater-simulate': simulate } : {}) } });
  /** The same key again, waiting each `Retry-After`, until an answer other than 503 or 409 IN_FLIGHT (at most 12 s). */
  const untilKnown = async (): Promise<Reply> => {
    const giveUpAt = Date.now() + 12_000;
    for (;;) {
      const reply = await send();
      const waiting = reply.status === 503 || (reply.status === 409 && reply.body.errorCode === 'IDEMPOTENCY_IN_FLIGHT');
      if (!waiting || Date.now() > giveUpAt) return reply;
      await sleep(Number(reply.headers.get('retry-after') ?? 1) * 1000);
    }
  };
  const moved = async () => (await query(setup.url, 'SELECT 1 FROM ledger_entries WHERE idempotency_key = $1', [key])).length;
  return { send, untilKnown, moved };
}

const answerOf = (reply: Reply) => [reply.status, reply.body.errorCode, reply.body.applied];

describe.concurrent('the sandbox table', () => {
  it('has a row here for every simulation the spec names', () => {
    expect(Object.keys(table).sort()).toEqual([...simulations].sort());
  });

  describe.each(Object.keys(operations))('%s', (name) => {
    const operation = operations[name]!;

    it.each(simulations)('%s on an existing account: its first answer, its money, then the same key ends as the table says', async (simulation) => {
      const row = table[simulation]!;
      const send = await sender(name, await fundedAccount(senders.get(name)!), 1_00);
      expect(answerOf(await send.send(simulation))).toEqual(row.first);
      expect(await send.moved()).toBe(row.moves ? operation.rows : 0);
      const last = await send.untilKnown();
      if (simulation === 'result-unknown') expect([last.status, last.body.errorCode]).toEqual([409, 'IDEMPOTENCY_RESULT_UNKNOWN']);
      else expect(last.status, JSON.stringify(last.body)).toBe(201);
      expect(await send.moved()).toBe(operation.rows);
    });

    const refusals: Array<[string, () => Promise<string>, number, number, string]> = [['a missing account', async () => randomUUID(), 1_00, 404, 'ACCOUNT_NOT_FOUND']];
    if (operation.payment) refusals.push(['too little money', () => fundedAccount(senders.get(name)!), tooMuch, 422, 'INSUFFICIENT_FUNDS']);

    describe.each(refusals)('on %s', (_refusal, accountOf, amountMinor, status, code) => {
      it.each(simulations)('%s: the first answer claims no money, nothing moves, then the same key ends in the stored refusal', async (simulation) => {
        const send = await sender(name, await accountOf(), amountMinor);
        expect(answerOf(await send.send(simulation))).toEqual(refusedFirst(simulation, [status, code]));
        const last = await send.untilKnown();
        expect([last.status, last.body.errorCode], JSON.stringify(last.body)).toEqual([status, code]);
        const again = await send.send();
        expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([status, 'true']);
        expect(await send.moved()).toBe(0);
      });
    });
  });
});
