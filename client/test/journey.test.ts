/**
 * The integrator's journey (issue 42's "done when", adr/0044), through @tidewater/client
 * alone and the docs' sample shapes, on PostgreSQL against a sandbox API: register, sign
 * in, open an account, deposit, step-up, withdraw, transfer to an own account, by handle
 * and to an IBAN, page the movements, read a key's status, replay a send; then every
 * failure the sandbox names, each on a money send through `moneySend`, each moving the
 * money exactly once (from the database).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { moneySend, type components, type MoneySendResult, type MoneySendPath, type Simulation } from '../src/index.ts';
import { approve, balanceOf, movedUnder, signUp, type TestCustomer } from './testBank.ts';

const iban = 'DE89370400440532013000';
type TransactionPage = components['schemas']['TransactionPage'];

describe('the journey through @tidewater/client', () => {
  let setup: BankOnPostgres;
  let ada: TestCustomer;
  let grace: TestCustomer;
  let savingsId: string;

  beforeAll(async () => {
    // Retry-After of an outage is the back-off cap in seconds: 1 s here, so the waits the client honours stay short.
    setup = await bankOnPostgres({ env: { API_SANDBOX: 'true', VALIDATE_RESPONSES: '1', DB_RETRY_MAX_DELAY_MS: '1000' } });
    [ada, grace] = await Promise.all([signUp(setup.api.url), signUp(setup.api.url)]);
  });
  afterAll(() => setup?.stop());

  const sent = <P extends MoneySendPath>(result: MoneySendResult<P>) => {
    expect(result.kind, JSON.stringify(result)).toBe('sent');
    return result as Extract<MoneySendResult<P>, { kind: 'sent' }>;
  };

  it('registers, signs in, opens, deposits, steps up, withdraws, transfers three ways, pages, reads a key and replays', async () => {
    const opened = await ada.api.POST('/api/accounts', { body: { name: 'Savings' } });
    expect(opened.response.status).toBe(201);
    savingsId = opened.data!.id;

    const deposited = sent(await moneySend(ada.api, { path: '/api/accounts/{accountId}/deposits', pathParams: { accountId: ada.accountId }, body: { amountMinor: 100_00 } }));
    expect(deposited).toMatchObject({ replayed: false, attempts: 1, data: { kind: 'deposit', amountMinor: 100_00 } });

    const withdrawal = await approve(ada, { operation: 'withdraw', fromAccountId: ada.accountId, amountMinor: 10_00 });
    sent(await moneySend(ada.api, { path: '/api/accounts/{accountId}/withdrawals', pathParams: { accountId: ada.accountId }, body: { amountMinor: 10_00, authorizationId: withdrawal } }));
    sent(await moneySend(ada.api, { path: '/api/transfers/internal', body: { fromAccountId: ada.accountId, toAccountId: savingsId, amountMinor: 20_00 } }));
    const byHandle = await approve(ada, { operation: 'createInternalTransfer', fromAccountId: ada.accountId, amountMinor: 5_00, toHandle: grace.handle });
    const toGrace = sent(await moneySend(ada.api, { path: '/api/transfers/internal', body: { fromAccountId: ada.accountId, toHandle: grace.handle, amountMinor: 5_00, authorizationId: byHandle } }));
    const toIban = await approve(ada, { operation: 'createExternalTransfer', fromAccountId: ada.accountId, amountMinor: 7_00, iban, beneficiaryName: 'Erika Mustermann' });
    sent(await moneySend(ada.api, { path: '/api/transfers/external', body: { fromAccountId: ada.accountId, iban, beneficiaryName: 'Erika Mustermann', amountMinor: 7_00, authorizationId: toIban } }));

    expect(await balanceOf(setup.url, ada.accountId)).toBe(100_00 - 10_00 - 20_00 - 5_00 - 7_00);
    expect(await balanceOf(setup.url, savingsId)).toBe(20_00);
    expect(await balanceOf(setup.url, grace.accountId)).toBe(5_00);
    const read = await ada.api.GET('/api/transfers/{transferId}', { params: { path: { transferId: toGrace.data.id } } });
    expect(read.data).toMatchObject({ id: toGrace.data.id, amountMinor: 5_00, toHandle: grace.handle });

    // Paging: every movement of the account, two a page, as the database holds them.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: { accountId: string; limit: number; cursor?: string } = { accountId: ada.accountId, limit: 2, ...(cursor ? { cursor } : {}) };
      const page: TransactionPage | undefined = (await ada.api.GET('/api/transactions', { params: { query } })).data;
      seen.push(...page!.items.map((item) => item.id));
      cursor = page!.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);

    const status = await ada.api.GET('/api/idempotency-keys/{key}', { params: { path: { key: deposited.key } } });
    expect(status.data).toMatchObject({ state: 'landed', operationId: 'deposit', answer: { status: 201, body: deposited.data } });

    const replay = sent(await moneySend(ada.api, { path: '/api/accounts/{accountId}/deposits', pathParams: { accountId: ada.accountId }, body: { amountMinor: 100_00 }, idempotencyKey: deposited.key }));
    expect(replay).toMatchObject({ replayed: true, data: deposited.data });
    expect(await movedUnder(setup.url, deposited.key)).toEqual([100_00]);
  });

  /** Each failure on a money send of its own kind from account `from`: what moneySend ends in, and the amounts under its key. */
  const failures: Array<[Simulation, string, (from: string) => Promise<{ result: MoneySendResult<MoneySendPath>; moved: number[] }>]> = [
    ['unavailable-not-applied', 'a deposit', async (from) => {
      const result = await moneySend(ada.api, { path: '/api/accounts/{accountId}/deposits', pathParams: { accountId: from }, body: { amountMinor: 3_00 }, simulate: 'unavailable-not-applied' });
      return { result, moved: [3_00] };
    }],
    ['unavailable-unknown-landed', 'a withdrawal', async (from) => {
      const authorizationId = await approve(ada, { operation: 'withdraw', fromAccountId: from, amountMinor: 1_00 });
      const result = await moneySend(ada.api, { path: '/api/accounts/{accountId}/withdrawals', pathParams: { accountId: from }, body: { amountMinor: 1_00, authorizationId }, simulate: 'unavailable-unknown-landed' });
      return { result, moved: [-1_00] };
    }],
    ['unavailable-unknown-not-landed', 'a transfer to an own account', async (from) => {
      const result = await moneySend(ada.api, { path: '/api/transfers/internal', body: { fromAccountId: from, toAccountId: savingsId, amountMinor: 2_00 }, simulate: 'unavailable-unknown-not-landed' });
      return { result, moved: [-2_00, 2_00] };
    }],
    ['in-flight', 'a transfer by handle', async (from) => {
      const authorizationId = await approve(ada, { operation: 'createInternalTransfer', fromAccountId: from, amountMinor: 1_50, toHandle: grace.handle });
      const result = await moneySend(ada.api, { path: '/api/transfers/internal', body: { fromAccountId: from, toHandle: grace.handle, amountMinor: 1_50, authorizationId }, simulate: 'in-flight' });
      // The payee's movement carries no key of the sender's.
      return { result, moved: [-1_50] };
    }],
    ['result-unknown', 'a transfer to an IBAN', async (from) => {
      const authorizationId = await approve(ada, { operation: 'createExternalTransfer', fromAccountId: from, amountMinor: 1_25, iban, beneficiaryName: 'Erika Mustermann' });
      const result = await moneySend(ada.api, { path: '/api/transfers/external', body: { fromAccountId: from, iban, beneficiaryName: 'Erika Mustermann', amountMinor: 1_25, authorizationId }, simulate: 'result-unknown' });
      return { result, moved: [-1_25] };
    }],
    ['busy', 'a deposit', async (from) => {
      const result = await moneySend(ada.api, { path: '/api/accounts/{accountId}/deposits', pathParams: { accountId: from }, body: { amountMinor: 4_00 }, simulate: 'busy' });
      return { result, moved: [4_00] };
    }],
  ];

  /** An account of ada's own for one case, holding 10.00 EUR: the cases run at once, and none sees another's money. */
  async function fundedAccount(): Promise<string> {
    const opened = await ada.api.POST('/api/accounts', { body: { name: 'Case' } });
    expect(opened.response.status).toBe(201);
    sent(await moneySend(ada.api, { path: '/api/accounts/{accountId}/deposits', pathParams: { accountId: opened.data!.id }, body: { amountMinor: 10_00 } }));
    return opened.data!.id;
  }

  // At once, after the journey (which opens the savings account): their time is the waits the answers name.
  it.concurrent.each(failures)('%s on %s: moneySend learns the outcome under one key, and the money moved exactly once', async (simulation, _send, run) => {
    const from = await fundedAccount();
    const before = await balanceOf(setup.url, from);
    const { result, moved } = await run(from);
    expect(result.kind, JSON.stringify(result)).toBe(simulation === 'result-unknown' ? 'landed-answer-lost' : 'sent');
    expect(result.attempts).toBeGreaterThan(simulation === 'unavailable-unknown-landed' || simulation === 'result-unknown' ? 0 : 1);
    expect(await movedUnder(setup.url, result.key)).toEqual(moved);
    expect(await balanceOf(setup.url, from)).toBe(before + moved[0]!);
  });
});
