/**
 * The soak's clients (Jepsen's "bank" workload, adr/0011): each is one customer with two
 * accounts, sending random money one send at a time, as a polite client does:
 *
 * - a send is @tidewater/client's `moneySend` (adr/0044), the client integrators are given,
 *   so its rules are tested under faults: one Idempotency-Key until the answer is known;
 *   after a 503, a 409 IDEMPOTENCY_IN_FLIGHT or no answer at all it waits the wait it was
 *   told (1 s when none) and sends the same key and payload again, up to SEND_TRIES
 *   times, reading the key's status after an unknown outcome; its requests go through
 *   the soak's transport, which records each;
 * - a withdrawal, a transfer by handle and an external transfer first check the PIN
 *   (always the right one) for exactly that payment, with the same politeness, for a
 *   step-up authorisation of their own (adr/0045); a resend of the key carries the same one;
 * - a replay sends an earlier key again with the same payload.
 *
 * Everything each request met is recorded, and what the client came to know of each key
 * (acknowledged, refused, unknown), for the checks that run against the database after.
 */
import { randomUUID } from 'node:crypto';
import { createTidewaterClient, moneySend, type MoneySendPath, type MoneySendRequest, type MoneySendResult, type TidewaterClient } from '@tidewater/client';
import type { Random } from './random.ts';
import type { Exchange, Transport } from './transport.ts';

/** What a send does. */
export type SendOp = 'deposit' | 'withdraw' | 'transferOwn' | 'transferHandle' | 'external';

/** How likely each operation is; step-ups (a PIN hash each, before every send that leaves the customer) stay a quarter on 2 cores. */
const OPERATION_WEIGHTS = { deposit: 30, transferOwn: 26, transferHandle: 10, replay: 18, withdraw: 8, external: 6 } as const;

/** Tries of one key (or one PIN check) before the client gives up on knowing its answer. */
const SEND_TRIES = 8;
/** What a customer starts with, deposited before the nemesis starts. */
const OPENING_DEPOSIT_MINOR = 500_000;
const IBAN = 'DE89370400440532013000';

/** One request the soak sent. */
export interface RequestRecord {
  client: number;
  what: SendOp | 'stepUp';
  replay: boolean;
  key?: string;
  status: number;
  errorCode?: string;
  applied?: boolean;
  traceId: string;
  sentAt: number;
  ms: number;
}

/** What a client knows of one key when it stops asking. */
type KeyOutcome = 'acked' | 'refused' | 'unknown';

/** One key and its payload, as its client sent it. */
export interface KeyRecord {
  key: string;
  client: number;
  op: SendOp;
  fromAccountId: string;
  /** The account the money goes to (own transfers; the payee's primary account by handle). */
  toAccountId?: string;
  /** The payee's handle, for a transfer by handle. */
  toHandle?: string;
  amountMinor: number;
  outcome: KeyOutcome;
  /** The error code of a refusal. */
  refusedWith?: string;
  /** Its first answer the key stores (a 201, or a 404/422 refusal, adr/0048): every later one must be the same. */
  firstAnswer?: { status: number; body: unknown };
}

/** A customer of the soak. */
export interface SoakCustomer {
  index: number;
  userId: string;
  handle: string;
  pin: string;
  /** [Everyday (primary), Savings]. */
  accounts: [string, string];
  transport: Transport;
}

/** Everything the clients recorded. */
export interface Recorded {
  requests: RequestRecord[];
  keys: Map<string, KeyRecord>;
  /** Answers a key stores (201, 404, 422) that were not the same as the key's first one. */
  replayMismatches: Array<{ key: string; traceId: string; first: string; replay: string }>;
}

const errorCodeOf = (exchange: Exchange) => (exchange.body as { errorCode?: string } | undefined)?.errorCode;
const appliedOf = (exchange: Exchange) => (exchange.body as { applied?: boolean } | undefined)?.applied;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A final answer of the bank's rules, which the key stores and answers again (adr/0048): a 201, or a 404/422 refusal but a key reuse. */
const storedByKey = (exchange: Exchange) =>
  exchange.status === 201 || ((exchange.status === 404 || exchange.status === 422) && errorCodeOf(exchange) !== 'IDEMPOTENCY_KEY_REUSED');

/** A 503, an in-flight 409 or no answer: the same request may be sent again after a wait. */
const worthAnotherTry = (exchange: Exchange) =>
  exchange.status === 0 || exchange.status === 503 || (exchange.status === 409 && errorCodeOf(exchange) === 'IDEMPOTENCY_IN_FLIGHT');

/** A send as moneySend takes it (its body as the soak builds it: the spec's types are the client's concern). */
type SendRequest = { path: MoneySendPath; pathParams?: { accountId: string }; body: Record<string, unknown> };

/** The path and body of a send. */
function requestOf(record: KeyRecord, authorizationId?: string): SendRequest {
  const amountMinor = record.amountMinor;
  const pathParams = { accountId: record.fromAccountId };
  switch (record.op) {
    case 'deposit':
      return { path: '/api/accounts/{accountId}/deposits', pathParams, body: { amountMinor } };
    case 'withdraw':
      return { path: '/api/accounts/{accountId}/withdrawals', pathParams, body: { amountMinor, authorizationId } };
    case 'transferOwn':
      return { path: '/api/transfers/internal', body: { fromAccountId: record.fromAccountId, toAccountId: record.toAccountId, amountMinor } };
    case 'transferHandle':
      return { path: '/api/transfers/internal', body: { fromAccountId: record.fromAccountId, toHandle: record.toHandle, amountMinor, authorizationId } };
    case 'external':
      return { path: '/api/transfers/external', body: { fromAccountId: record.fromAccountId, iban: IBAN, beneficiaryName: 'Soak Payee', amountMinor, authorizationId } };
  }
}

/**
 * @tidewater/client over `transport`: each request goes through the soak's own transport
 * (its trace id, its timeout, the BFF's cookie and CSRF token); every POST is told to `note`.
 * No answer is a failed fetch, as a lost connection is to any client.
 */
function clientOver(transport: Transport, note: (exchange: Exchange) => void): TidewaterClient {
  return createTidewaterClient({
    baseUrl: 'http://soak.invalid',
    async fetch(input: RequestInfo | URL, init?: RequestInit) {
      const request = new Request(input, init);
      const url = new URL(request.url);
      const text = await request.text();
      const exchange = await transport.send(request.method, `${url.pathname}${url.search}`, { body: text ? JSON.parse(text) : undefined, key: request.headers.get('idempotency-key') ?? undefined });
      if (request.method === 'POST') note(exchange);
      if (exchange.status === 0) throw new TypeError(`no answer: ${String(exchange.body)}`);
      const headers = new Headers({ 'content-type': exchange.status >= 400 ? 'application/problem+json' : 'application/json' });
      if (exchange.retryAfterSeconds !== undefined) headers.set('retry-after', String(exchange.retryAfterSeconds));
      return new Response(exchange.body === undefined ? null : JSON.stringify(exchange.body), { status: exchange.status, headers });
    },
  });
}

/** What a moneySend result tells the key, as the answer `settle` reads. */
function answerOf(result: MoneySendResult<MoneySendPath>, traceId: string): Exchange {
  const exchange = (status: number, body: unknown): Exchange => ({ status, body, traceId, sentAt: 0, ms: 0 });
  switch (result.kind) {
    case 'sent':
      return exchange(201, result.data);
    case 'refused':
    case 'rejected':
      return exchange(result.status, result.problem);
    case 'landed-answer-lost':
      return exchange(409, result.problem ?? { errorCode: 'IDEMPOTENCY_RESULT_UNKNOWN', applied: true });
    default:
      // Not known when the tries ran out: the key stays unknown.
      return exchange(503, result.problem);
  }
}

/** One client: `customer`, its random stream, and the others it can pay by handle. */
export function soakClient(customer: SoakCustomer, payees: readonly SoakCustomer[], random: Random, recorded: Recorded) {
  const mine: KeyRecord[] = [];
  const payloads = new Map<string, SendRequest>();

  function note(what: RequestRecord['what'], replay: boolean, key: string | undefined, exchange: Exchange): void {
    recorded.requests.push({
      client: customer.index,
      what,
      replay,
      key,
      status: exchange.status,
      errorCode: errorCodeOf(exchange),
      applied: appliedOf(exchange),
      traceId: exchange.traceId,
      sentAt: exchange.sentAt,
      ms: exchange.ms,
    });
  }

  async function exchangeNoted(what: RequestRecord['what'], replay: boolean, key: string | undefined, send: () => Promise<Exchange>): Promise<Exchange> {
    const exchange = await send();
    note(what, replay, key, exchange);
    return exchange;
  }

  /** Sends `record`'s request with moneySend under its key, every try recorded; settles what it learnt. */
  async function sendMoney(record: KeyRecord, replay: boolean, request: SendRequest): Promise<void> {
    let traceId = '';
    const api = clientOver(customer.transport, (exchange) => {
      traceId = exchange.traceId;
      note(record.op, replay, record.key, exchange);
    });
    const send = { ...request, idempotencyKey: record.key } as unknown as MoneySendRequest<MoneySendPath>;
    // Bounded by its tries, as before: a fault band may outlast any clock a client would pick.
    const result = await moneySend(api, send, { maxAttempts: SEND_TRIES, giveUpAfterMs: 30 * 60_000 });
    settle(record, answerOf(result, traceId));
  }

  /** Sends one request politely until its answer is known (or the tries run out). */
  async function politely(what: RequestRecord['what'], replay: boolean, key: string | undefined, send: () => Promise<Exchange>): Promise<Exchange> {
    let exchange = await exchangeNoted(what, replay, key, send);
    for (let tries = 1; tries < SEND_TRIES && worthAnotherTry(exchange); tries++) {
      await sleep((exchange.retryAfterSeconds ?? 1) * 1_000 * (1 + random.next() * 0.2));
      exchange = await exchangeNoted(what, replay, key, send);
    }
    return exchange;
  }

  /** A step-up authorisation with the right PIN for the payment of `request`; undefined when none could be had. */
  async function stepUp(record: KeyRecord): Promise<string | undefined> {
    const { body } = requestOf(record);
    const operation = record.op === 'withdraw' ? 'withdraw' : record.op === 'external' ? 'createExternalTransfer' : 'createInternalTransfer';
    const { authorizationId: _none, ...payee } = body;
    const payment = { operation, ...payee, fromAccountId: record.fromAccountId };
    const answer = await politely('stepUp', false, undefined, () => customer.transport.send('POST', '/api/step-up', { body: { pin: customer.pin, payment } }));
    return answer.status === 201 ? (answer.body as { authorizationId: string }).authorizationId : undefined;
  }

  /** Learns what an answer says of its key. */
  function settle(record: KeyRecord, answer: Exchange): void {
    if (storedByKey(answer)) {
      const stored = { status: answer.status, body: answer.body };
      if (record.firstAnswer === undefined) record.firstAnswer = stored;
      else if (JSON.stringify(record.firstAnswer) !== JSON.stringify(stored)) {
        recorded.replayMismatches.push({ key: record.key, traceId: answer.traceId, first: JSON.stringify(record.firstAnswer), replay: JSON.stringify(stored) });
      }
    }
    if (answer.status === 201) {
      record.outcome = 'acked';
    } else if (answer.status === 409 && errorCodeOf(answer) === 'IDEMPOTENCY_RESULT_UNKNOWN' && appliedOf(answer) === true) {
      record.outcome = 'acked';
    } else if (answer.status >= 400 && answer.status < 500 && !worthAnotherTry(answer)) {
      // A replay's refusal never changes what the first answer established.
      if (record.outcome === 'unknown') {
        record.outcome = 'refused';
        record.refusedWith = errorCodeOf(answer);
      }
    }
  }

  async function send(op: SendOp): Promise<void> {
    const [everyday, savings] = customer.accounts;
    const fromAccountId = random.next() < 0.5 ? everyday : savings;
    const record: KeyRecord = { key: randomUUID(), client: customer.index, op, fromAccountId, amountMinor: 0, outcome: 'unknown' };
    if (op === 'deposit') record.amountMinor = random.int(100, 10_000);
    if (op === 'withdraw') record.amountMinor = random.int(1, 2_000);
    if (op === 'external') record.amountMinor = random.int(1, 1_500);
    if (op === 'transferOwn') {
      record.amountMinor = random.int(1, 3_000);
      record.toAccountId = fromAccountId === everyday ? savings : everyday;
    }
    if (op === 'transferHandle') {
      const payee = random.pick(payees);
      record.amountMinor = random.int(1, 3_000);
      record.toHandle = payee.handle;
      record.toAccountId = payee.accounts[0];
    }
    let authorizationId: string | undefined;
    if (op === 'withdraw' || op === 'external' || op === 'transferHandle') {
      authorizationId = await stepUp(record);
      if (!authorizationId) return; // the PIN check never answered: nothing was sent (a failed step-up is checked on its own)
    }
    const request = requestOf(record, authorizationId);
    payloads.set(record.key, request);
    recorded.keys.set(record.key, record);
    mine.push(record);
    await sendMoney(record, false, request);
  }

  async function replay(): Promise<void> {
    const record = random.pick(mine);
    const request = payloads.get(record.key)!;
    await sendMoney(record, true, request);
  }

  return {
    /** The opening deposit, before any fault. */
    async open(): Promise<void> {
      const record: KeyRecord = { key: randomUUID(), client: customer.index, op: 'deposit', fromAccountId: customer.accounts[0], amountMinor: OPENING_DEPOSIT_MINOR, outcome: 'unknown' };
      const request = requestOf(record);
      payloads.set(record.key, request);
      recorded.keys.set(record.key, record);
      mine.push(record);
      await sendMoney(record, false, request);
    },
    /** Runs operations until `stop()` says so, telling `done` after each one. */
    async run(stop: () => boolean, done: () => void): Promise<void> {
      while (!stop()) {
        const choice = random.weighted(OPERATION_WEIGHTS);
        if (choice === 'replay') await replay();
        else await send(choice);
        done();
      }
    },
  };
}
