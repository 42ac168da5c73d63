/**
 * Every network fault at every statement of an internal transfer, one at a time: the soak's
 * faults come at random and meet a given point of a request rarely (a 500 seen once in tens
 * of thousands of sends could not be traced back); here each point meets each fault. For a
 * transfer to an own account, one by handle to another customer, and a new customer's first
 * request, each statement the request can send (captured with log_statement = all) meets each
 * of the proxy's rules: its answer dropped after the database acted, the connection cut before it,
 * cut after it, a partition starting just before it or just after it (1.5 × the deadline);
 * and a transfer meets a reset at several byte offsets. The statements of the paths that
 * only a fault opens (the look at a lost commit, the wait for its backend, the release, the
 * key's status, the replay) are reached by a first fault on the money statement.
 *
 * Each send is made as the docs tell an integrator (@tidewater/client's `moneySend`: one key,
 * Retry-After honoured, the key's status read after an unknown outcome), and sent again with
 * the same key once the network is healed when its outcome was not known (a claim no request
 * holds is let go stale first, as the documented wait would). Then: no answer was a 500, every
 * answer is one the spec declares, the money moved exactly once as the final answer says
 * (the key's ledger rows, the sender's balance, the total of all balances), a replay answers
 * the same body, and the API never logged an internal error.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moneySend, type MoneySendResult } from '@tidewater/client';
import { bank, type Bank, type Customer } from '@tidewater/test-support/bank';
import type { RuleAction } from '@tidewater/test-support/tcpProxy';
import {
  PARTITION_MS,
  ledgerRowsOf,
  letClaimGoStale,
  recordingClient,
  startSweepStack,
  suspiciousLines,
  totalBalance,
  type Answer,
  type SweepStack,
} from '../support/faultSweep.ts';

/** Who sends: to an own account, by handle to another customer, or a new customer's first request (its user is looked up). */
type Form = 'own' | 'handle' | 'fresh';

/** One send of a case: what its needles are made of. */
interface Send {
  key: string;
  amountMinor: number;
}

/** The text of one chunk the request sends: its SQL, or the value only it carries. */
type Needle = (send: Send) => string;

/** The statements of an internal transfer, and of the paths a fault opens, as the proxy finds them. */
const statements = {
  'the session check (authentication)': () => 'SELECT 1 FROM refresh_tokens WHERE family_id',
  'the read-your-writes mark read': () => 'SELECT primary_until AS "primaryUntil" FROM read_your_writes_marks',
  // A transfer to an own account claims its key in its one statement (adr/0070): its first chunk carrying the key is that statement.
  'the claim': (send) => send.key,
  'the read-your-writes mark write': () => 'INSERT INTO read_your_writes_marks',
  // A transfer by handle is one statement too (adr/0079): its order carries `"toAccountId":null`, the statement
  // checks the authorisation and account, counts the look-up and finds the payee's account itself.
  'money_send': (send) => `"operation":"createInternalTransfer","amountMinor":${send.amountMinor},"toAccountId":`,
  'the look for the landed claim': () => 'SELECT response_body AS "responseBody" FROM idempotency_records',
  "the wait for the lost commit's backend": () => 'FROM pg_stat_activity',
  'the release of the claim': () => 'DELETE FROM idempotency_records',
  "the key's status (GET /api/idempotency-keys/{key})": () => 'SELECT key, operation_id AS "operationId"',
  // The replay of a transfer to an own account is its one statement again, answering the key's stored answer (adr/0070).
  'the replay read': () => 'FROM money_send_claiming(',
} satisfies Record<string, Needle>;
type Statement = keyof typeof statements;

interface Rule {
  action: RuleAction;
  needle: Needle;
  times?: number;
}

/** The first fault that opens the path of a statement a plain send never reaches. */
const openedBy: Partial<Record<Statement, Rule[]>> = {
  'the look for the landed claim': [{ action: 'dropAnswerTo', needle: statements.money_send }],
  "the wait for the lost commit's backend": [{ action: 'cutBefore', needle: statements.money_send }],
  'the release of the claim': [{ action: 'cutBefore', needle: statements.money_send, times: 2 }],
  "the key's status (GET /api/idempotency-keys/{key})": [
    { action: 'dropAnswerTo', needle: statements.money_send },
    { action: 'cutBefore', needle: statements['the look for the landed claim'], times: 10 },
  ],
};

interface SweepCase {
  name: string;
  form: Form;
  /** Armed before the send; each must fire. */
  rules: Rule[];
  /** Armed before the replay instead. */
  onReplay?: boolean;
  /** A reset of the first connection to pass this many bytes. */
  resetAfterBytes?: number;
}

const ruleActions: RuleAction[] = ['dropAnswerTo', 'cutBefore', 'cutAfter'];
const partitions: RuleAction[] = ['partitionBefore', 'partitionAfter'];
const byForm: Record<Form, Statement[]> = {
  own: ['the read-your-writes mark read', 'the claim', 'the read-your-writes mark write', 'money_send', 'the look for the landed claim',
    "the wait for the lost commit's backend", 'the release of the claim', "the key's status (GET /api/idempotency-keys/{key})", 'the replay read'],
  handle: ['the read-your-writes mark read', 'the claim', 'the read-your-writes mark write', 'money_send',
    'the look for the landed claim', "the wait for the lost commit's backend"],
  fresh: ['the session check (authentication)'],
};
/** Where a partition starts: the request's own statements and the look that settles a lost commit. */
const partitionedAt: Record<Form, Statement[]> = {
  own: ['the read-your-writes mark read', 'the claim', 'money_send', 'the look for the landed claim'],
  handle: ['money_send'],
  fresh: [],
};
// Each within the one message every send puts on one connection (money_send's Bind, about
// 500 bytes): a connection's other statements are prepared already and only named, so a
// larger offset may never be reached.
const resetOffsets = [1, 12, 60, 150, 300];

function casesOf(form: Form): SweepCase[] {
  const at = (statement: Statement, action: RuleAction): SweepCase => ({
    name: `${statement} × ${action} (${form})`,
    form,
    rules: [...(openedBy[statement] ?? []), { action, needle: statements[statement] }],
    onReplay: statement === 'the replay read',
  });
  return [
    ...byForm[form].flatMap((statement) => ruleActions.map((action) => at(statement, action))),
    ...partitionedAt[form].flatMap((statement) => partitions.map((action) => at(statement, action))),
  ];
}
const cases: SweepCase[] = [
  ...casesOf('own'),
  ...casesOf('handle'),
  ...casesOf('fresh'),
  ...resetOffsets.map((bytes): SweepCase => ({ name: `a reset after ${bytes} bytes (own)`, form: 'own', rules: [], resetAfterBytes: bytes })),
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('an internal transfer meets every network fault at every statement it sends', () => {
  let stack: SweepStack;
  let b: Bank;
  let ada: Customer;
  let grace: Customer;
  let savings: string;
  const answers: Answer[] = [];
  const startedAt = performance.now();
  let amountMinor = 1_000;

  beforeAll(async () => {
    stack = await startSweepStack();
    b = bank(stack.api.url);
    [ada, grace] = await Promise.all([b.signUpPatiently(), b.signUpPatiently()]);
    savings = await b.openAccount(ada, 'Savings');
    expect((await b.deposit(ada, ada.accountId, 5_000_000)).status).toBe(201);
  });
  afterAll(async () => {
    const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
    const byStatus = new Map<string, number>();
    for (const { status, errorCode } of answers) {
      const kind = errorCode ? `${status} ${errorCode}` : String(status);
      byStatus.set(kind, (byStatus.get(kind) ?? 0) + 1);
    }
    const shown = [...byStatus].map(([kind, count]) => `${kind} ×${count}`).join(', ');
    console.log(`network fault sweep: ${cases.length} cases, ${answers.length} answers (${shown}), ${seconds} s`);
    await stack?.stop();
  });

  /** Heals the network: every rule dropped, every mode back to pass (what a partition swallowed is reset). */
  function heal(): void {
    stack.proxy.disarm();
    stack.proxy.mode('pass');
  }

  /** Ends a partition a rule started, PARTITION_MS after it started; nothing when the send ends first without one. */
  async function healPartitionOf(fired: () => number, sending: Promise<unknown>): Promise<void> {
    let ended = false;
    const end = () => (ended = true);
    sending.then(end, end);
    while (fired() === 0 && !ended) await sleep(5);
    if (fired() === 0) return;
    await sleep(PARTITION_MS);
    stack.proxy.mode('pass');
  }

  /**
   * One send under its key until its outcome is known, the network healed and the key sent
   * again when it was not; `partitionStarted` counts the fires of a partition rule.
   */
  async function sendUntilKnown(sender: Customer, body: Record<string, unknown>, key: string, partitionStarted: () => number): Promise<MoneySendResult<'/api/transfers/internal'>> {
    const client = recordingClient(stack.api.url, sender.token, answers);
    const request = { path: '/api/transfers/internal', body: body as never, idempotencyKey: key } as const;
    const sending = moneySend(client, request, { maxAttempts: 8, giveUpAfterMs: 4_000 });
    await Promise.all([sending, healPartitionOf(partitionStarted, sending)]);
    const result = await sending;
    heal();
    if (result.kind !== 'unknown' && result.kind !== 'not-applied') return result;
    await letClaimGoStale(stack.url, key);
    // On a healed network: patient, so a loaded machine's slow answer is not taken for a fault.
    return moneySend(client, request, { maxAttempts: 8, giveUpAfterMs: 10_000 });
  }

  /** The transfer of a case's form; by handle with a step-up for exactly it, made before any fault is armed. */
  async function bodyOf(form: Form, sender: Customer, send: Send): Promise<Record<string, unknown>> {
    const { amountMinor } = send;
    if (form === 'own') return { fromAccountId: ada.accountId, toAccountId: savings, amountMinor, description: 'sweep' };
    const byHandle = { fromAccountId: sender.accountId, toHandle: grace.handle, amountMinor, description: 'sweep' };
    // A new customer's first request carries no step-up: the bank refuses it (401) after its look-ups.
    if (form === 'fresh') return { ...byHandle, authorizationId: randomUUID() };
    return { ...byHandle, authorizationId: await b.authorize(ada, { operation: 'createInternalTransfer', fromAccountId: ada.accountId, amountMinor, toHandle: grace.handle }) };
  }

  it.each(cases)('$name', async (sweepCase) => {
    const send: Send = { key: randomUUID(), amountMinor: (amountMinor += 1) };
    const sender = sweepCase.form === 'fresh' ? await b.signUpPatiently() : ada;
    const body = await bodyOf(sweepCase.form, sender, send);
    const totalBefore = await totalBalance(stack.url);
    // Not read for a new customer: that would be its first request, and the transfer's session check would not run.
    const balanceBefore = sweepCase.form === 'fresh' ? 0 : await b.balance(ada, ada.accountId);
    const [logFrom, answersFrom, resetsBefore] = [stack.api.logLines.length, answers.length, stack.proxy.stats().resets];

    const arm = () => sweepCase.rules.map((rule) => stack.proxy.arm(rule.action, rule.needle(send), rule.times ?? 1));
    const fired = sweepCase.onReplay ? [] : arm();
    if (sweepCase.resetAfterBytes !== undefined) stack.proxy.mode('reset-after-bytes', { afterBytes: sweepCase.resetAfterBytes, once: true });
    const partition = !sweepCase.onReplay && partitions.includes(sweepCase.rules.at(-1)?.action as RuleAction);
    const result = await sendUntilKnown(sender, body, send.key, partition ? fired.at(-1)! : () => 0);
    // The key sent again once its answer is known, as a client that lost it would (a fault of its own for the replay read).
    const armedForReplay = sweepCase.onReplay ? arm() : [];
    const replay = sweepCase.form === 'fresh' ? undefined : await sendUntilKnown(sender, body, send.key, () => 0);

    const seen = answers.slice(answersFrom);
    // Each armed fault must fire; the proxy counts one when it acts, which may be a moment after the answer it shaped.
    const counters = [...fired, ...armedForReplay];
    for (let waited = 0; counters.some((count) => count() < 1) && waited < 2_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    const firedCounts = counters.map((count) => count());
    expect.soft(seen.filter((answer) => answer.status === 500 || answer.status === 0), 'no 500, every request answered').toEqual([]);
    expect.soft(seen.flatMap((answer) => answer.violations.map((v) => `${answer.operationId} ${answer.status}: ${v}`)), 'every answer as the spec declares it').toEqual([]);
    expect.soft(firedCounts.every((count) => count >= 1), `every fault fired (${firedCounts})`).toBe(true);
    if (sweepCase.resetAfterBytes !== undefined) expect.soft(stack.proxy.stats().resets - resetsBefore, 'the reset happened').toBe(1);
    expect.soft(suspiciousLines(stack.api, logFrom), 'no internal error in the log').toEqual([]);
    expect(await totalBalance(stack.url), 'money is conserved').toBe(totalBefore);
    if (sweepCase.form === 'fresh') {
      expect([result.kind, 'status' in result ? result.status : undefined]).toEqual(['rejected', 401]);
      expect(await ledgerRowsOf(stack.url, send.key), 'nothing moved').toBe(0);
      return;
    }
    expect(result.kind, JSON.stringify(result)).toBe('sent');
    expect(await ledgerRowsOf(stack.url, send.key), 'the key moved money once').toBe(sweepCase.form === 'own' ? 2 : 1);
    expect(await b.balance(ada, ada.accountId)).toBe(balanceBefore - send.amountMinor);
    const { data } = result as Extract<typeof result, { kind: 'sent' }>;
    expect(replay?.kind === 'sent' ? replay.data : replay, 'the replay answers the same body').toEqual(data);
  });
});

