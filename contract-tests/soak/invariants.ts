/**
 * What the soak checks after the faults, from the database itself (adr/0011): the clients'
 * records say what each request was told; the database says what really happened. Each
 * check answers how many things broke it and a few examples (trace ids, keys, accounts).
 */
import { apiAnswerBudgetMs, chainDefaults } from '@tidewater/contract/timeoutChain';
import { query, runAuditVerify } from '@tidewater/test-support/bankDatabase';
import type { KeyRecord, RequestRecord } from './clients.ts';
import type { FaultWindow } from './nemesis.ts';

/** One check's verdict. */
export interface Check {
  name: string;
  violations: number;
  /** Up to five examples of what broke it. */
  examples: string[];
}

/** What the checks read besides the database. */
export interface CheckInput {
  databaseUrl: string;
  requests: readonly RequestRecord[];
  keys: ReadonlyMap<string, KeyRecord>;
  replayMismatches: ReadonlyArray<{ key: string; traceId: string; first: string; replay: string }>;
  faults: readonly FaultWindow[];
  /** The API's request deadline: every answer comes within it + 2 s. */
  deadlineMs: number;
  /** The processes that must still run (API, BFF), as name → alive. */
  alive: Record<string, boolean>;
}

interface LedgerRow {
  key: string | null;
  kind: string;
  account: string;
  amount: number;
  transfer: string | null;
}

const check = (name: string, broken: string[]): Check => ({ name, violations: broken.length, examples: broken.slice(0, 5) });

/** The signed amount a key moves out of the bank's books (deposits in, withdrawals and external out, transfers none). */
const bookEffect = (record: KeyRecord) =>
  record.op === 'deposit' ? record.amountMinor : record.op === 'withdraw' || record.op === 'external' ? -record.amountMinor : 0;

/** The ledger rows a key must have written, as `kind account amount`, sorted. */
function expectedRows(record: KeyRecord): string[] {
  const rows = {
    deposit: [['deposit', record.fromAccountId, record.amountMinor]],
    withdraw: [['withdrawal', record.fromAccountId, -record.amountMinor]],
    external: [['external_out', record.fromAccountId, -record.amountMinor]],
    transferOwn: [['transfer_out', record.fromAccountId, -record.amountMinor], ['transfer_in', record.toAccountId, record.amountMinor]],
    transferHandle: [['transfer_out', record.fromAccountId, -record.amountMinor], ['transfer_in', record.toAccountId, record.amountMinor]],
  }[record.op];
  return rows.map((row) => row.join(' ')).sort();
}

/** Runs every check. */
export async function checkInvariants(input: CheckInput): Promise<Check[]> {
  const { databaseUrl, requests, keys, faults, deadlineMs } = input;
  const ledger = (
    await query<{ key: string | null; kind: string; account: string; amount: string; transfer: string | null }>(
      databaseUrl,
      'SELECT idempotency_key AS key, kind, account_id::text AS account, amount_minor::text AS amount, transfer_id::text AS transfer FROM ledger_entries',
    )
  ).map((row): LedgerRow => ({ ...row, amount: Number(row.amount) }));
  const accounts = await query<{ id: string; balance: string }>(databaseUrl, 'SELECT id::text, balance_minor::text AS balance FROM accounts');

  // What each key wrote: its own rows, and for a transfer the payee's leg (same transfer id, no key).
  const byTransfer = new Map<string, LedgerRow[]>();
  for (const row of ledger) if (row.transfer) byTransfer.set(row.transfer, [...(byTransfer.get(row.transfer) ?? []), row]);
  const movedBy = new Map<string, LedgerRow[]>();
  for (const row of ledger) if (row.key) movedBy.set(row.key, [...(movedBy.get(row.key) ?? []), row]);
  const rowsOf = (key: string): LedgerRow[] => {
    const own = movedBy.get(key) ?? [];
    const transfers = new Set(own.map((row) => row.transfer).filter((id): id is string => id !== null));
    return transfers.size ? [...transfers].flatMap((id) => byTransfer.get(id) ?? []) : own;
  };
  const shapeOf = (rows: LedgerRow[]) => rows.map((row) => `${row.kind} ${row.account} ${row.amount}`).sort();

  const movedWrong: string[] = [];
  const unacknowledgedButMissing: string[] = [];
  const refusedButMoved: string[] = [];
  let expectedTotal = 0;
  for (const record of keys.values()) {
    const rows = rowsOf(record.key);
    if (rows.length === 0) {
      if (record.outcome === 'acked') unacknowledgedButMissing.push(`${record.op} ${record.key}`);
      continue;
    }
    expectedTotal += bookEffect(record);
    const want = expectedRows(record);
    if (JSON.stringify(shapeOf(rows)) !== JSON.stringify(want)) movedWrong.push(`${record.key}: wrote [${shapeOf(rows).join('; ')}], want [${want.join('; ')}]`);
    if (record.outcome === 'refused') refusedButMoved.push(`${record.op} ${record.key} refused with ${record.refusedWith} but moved`);
  }
  const unknownKeys = ledger.filter((row) => row.key && !keys.has(row.key)).map((row) => `${row.kind} ${row.key}`);

  const balances = new Map(accounts.map((row) => [row.id, Number(row.balance)]));
  const ledgerSums = new Map<string, number>();
  for (const row of ledger) ledgerSums.set(row.account, (ledgerSums.get(row.account) ?? 0) + row.amount);
  const total = [...balances.values()].reduce((sum, balance) => sum + balance, 0);

  const appliedFalse = requests.filter((r) => r.status === 503 && r.applied === false).map((r) => r.traceId);
  const movedDespite = appliedFalse.length
    ? await query<{ trace: string }>(databaseUrl, 'SELECT DISTINCT trace_id AS trace FROM audit_rows WHERE trace_id = ANY($1::text[])', [appliedFalse])
    : [];
  const pins = await query<{ handle: string }>(databaseUrl, 'SELECT handle FROM users WHERE pin_failed_attempts > 0 OR pin_locked_until IS NOT NULL');
  const audit = await runAuditVerify({ DATABASE_URL: databaseUrl });

  // A synchronous standby cut off from the primary hangs every COMMIT as a hung primary does; a partition too.
  const hangs = faults.filter((fault) => fault.kind === 'hang' || fault.kind === 'replication-cut' || fault.kind === 'partition');
  const overlapsHang = (r: RequestRecord) => hangs.some((hang) => r.sentAt < hang.healedAt && r.sentAt + r.ms > hang.startedAt);
  // A commit in flight when the database hung: it landed, or its 503 says nothing of `applied`
  // because its outcome was still being looked for (the answer waits for that look: adr/0026).
  const commitInFlight = (r: RequestRecord) =>
    r.status === 201 || (r.key !== undefined && rowsOf(r.key).length > 0) || (r.status === 503 && r.applied === undefined);
  // Such an answer may take the API's whole answer budget: deadline, COMMIT or cancel, look and release.
  const answerBudgetMs = apiAnswerBudgetMs({ ...chainDefaults, requestDeadlineMs: deadlineMs });
  const lateAfterMs = (r: RequestRecord) => (overlapsHang(r) && commitInFlight(r) ? answerBudgetMs : deadlineMs) + 2_000;
  const late = requests.filter((r) => r.status !== 0 && r.ms > lateAfterMs(r));

  return [
    check('money conserved: the total of all balances is what the landed sends moved in and out', total === expectedTotal ? [] : [`balances total ${total}, the landed sends say ${expectedTotal}`]),
    check('every balance equals the sum of its ledger rows', [...balances].filter(([id, balance]) => balance !== (ledgerSums.get(id) ?? 0)).map(([id, balance]) => `${id}: balance ${balance}, ledger ${ledgerSums.get(id) ?? 0}`)),
    check('no balance below zero', [...balances].filter(([, balance]) => balance < 0).map(([id, balance]) => `${id}: ${balance}`)),
    check('every key moved at most once, exactly its payload (a transfer: two legs that sum to zero)', [...movedWrong, ...unknownKeys.map((row) => `a movement no client sent: ${row}`)]),
    check('every 2xx (and every 409 applied: true) moved', unacknowledgedButMissing),
    check('a key refused with a 4xx moved nothing', refusedButMoved),
    check('a 503 applied: false was never followed by a movement of that request', movedDespite.map((row) => `trace ${row.trace}`)),
    check('a replay of an answered key answers its first stored answer (a 201, or a 404/422 refusal), byte for byte', input.replayMismatches.map((m) => `${m.key} (trace ${m.traceId}): first ${m.first} replay ${m.replay}`)),
    check('no 500 and no 5xx other than 503', requests.filter((r) => r.status >= 500 && r.status !== 503).map((r) => `${r.status} ${r.what} trace ${r.traceId}`)),
    check('every request was answered (none left without an answer)', requests.filter((r) => r.status === 0).map((r) => `${r.what} trace ${r.traceId} after ${r.ms} ms`)),
    check(`every answer within the deadline + 2 s (${deadlineMs + 2_000} ms), a commit in flight during a hang within the API's answer budget + 2 s`, late.map((r) => `${r.status} ${r.what} in ${r.ms} ms, trace ${r.traceId}`)),
    check('the audit chains verify (npm run audit:verify)', audit.code === 0 ? [] : [audit.stderr.trim() || audit.stdout.trim()]),
    check('the processes are alive', Object.entries(input.alive).filter(([, alive]) => !alive).map(([name]) => `${name} is gone`)),
    check('no right PIN was ever refused or counted, and no PIN is locked', [
      ...requests.filter((r) => r.what === 'stepUp' && (r.status === 403 || r.status === 423)).map((r) => `${r.status} ${r.errorCode} trace ${r.traceId}`),
      ...pins.map((row) => `${row.handle}: a failed attempt counted or a lock`),
    ]),
  ];
}
