/**
 * A money send's one statement and its answer (adr/0041, adr/0070, adr/0076, adr/0079). A
 * send's own TypeScript only settles its order (`order`: the request's input, an IBAN in
 * electronic form); the rules on money state (open accounts, funds, the balance ceiling,
 * the step-up authorisation, the daily ceiling) are the database's `money_send` function's,
 * written once (server/prisma/migrations/1764740000000_money_rules_in_the_database.sql).
 *
 * `money_send_claiming` claims the key, checks every rule, moves the money and lands the
 * claim with the 201 body: ONE statement that is its own commit (adr/0027). An order to a
 * handle (`toHandle`, no `toAccountId`) is settled there too, in adr/0064's order: the rules
 * without the payee, the payee look-up counted against its limit, the handle read
 * (server/prisma/migrations/1764840000000_transfer_by_handle_in_its_statement.sql).
 * `money_send` with `checkOnly` only checks, before a busy answer. Each answers one row
 * (verdict, body, detail), as `open_account` does (accounts/accountOpening.ts); it is read
 * here once, as one typed union (`Verdict`), and answered here once (`answerOf`):
 *
 * - `applied`: the statement moved the money (or opened the account) and landed the claim;
 *   `body` is the 201's, as the database stored it; `detail.takenOver` when the send took a
 *   stale claim of its key over (adr/0076);
 * - `ok`: a check-only look the rules allow (before a busy answer);
 * - `claim_lost`: the claim is no longer this request's: nothing moved (adr/0029);
 * - a key's answer (idempotency.ts `KeyVerdict`): the key was not claimed and nothing was
 *   written; `body` and `detail.status` are a replay's;
 * - a refusal (refusals.ts `RefusalCode`): the rule that refuses, `detail` the numbers its
 *   wording needs.
 *
 * A send to a handle that reached its look-up's count carries the window in `detail` too
 * (payeeLookups.ts `LookupWindow`), whatever its verdict. `claimedStatements` is the one
 * runner of such a statement under a claim.
 */
import type { DataLayer } from '../../data/dataLayer.ts';
import { parseJsonColumn, type Statements } from '../../data/statements.ts';
import { verifyBy } from '../audit/auditedSave.ts';
import { ClaimTakenOver, isKeyVerdict, type Claim, type IdempotencyRecords, type KeyVerdict } from '../idempotency/idempotency.ts';
import { lockWait } from './accountRows.ts';
import { isRefusalCode, refusalOf, type RefusalCode, type RefusalDetail } from './refusals.ts';
import type { LookupWindow } from '../identity/payeeLookups.ts';

/** What a send asks the database to do: money leaves `fromAccountId` and arrives in `toAccountId`. */
export interface SendOrder {
  readonly operation: 'deposit' | 'withdraw' | 'createInternalTransfer' | 'createExternalTransfer';
  /** Null for a deposit. */
  readonly fromAccountId: string | null;
  /** Null for a withdrawal or an external transfer. */
  readonly toAccountId: string | null;
  readonly amountMinor: number;
  readonly description: string | null;
  /** Set for a transfer by handle (the payee's handle as the request wrote it). */
  readonly toHandle: string | null;
  readonly iban: string | null;
  readonly beneficiaryName: string | null;
  readonly authorizationId: string | null;
}

/** One send of one request: `order` settles its order once, checking the request's own input (a refusal it throws is answered under the key, adr/0076). */
export interface MoneySend {
  /** For logs and the data layer ("deposit"). */
  readonly label: string;
  order(): SendOrder;
}

/** How the statement runs: the limits it applies and whether it only checks. */
export interface SendMode {
  readonly lockWaitMs: number;
  readonly dailyLimitMinor: number;
  readonly checkOnly: boolean;
}

/**
 * The order as one jsonb value, its operation, amount and destination first: every send is
 * the same statement text, and a send shows on the wire as
 * `"operation":"deposit","amountMinor":1234,"toAccountId":…` (what the fault tests cut; a
 * transfer by handle has `"toAccountId":null`, its statement finds the payee's account).
 */
function wireOrder(order: SendOrder): string {
  const { operation, amountMinor, fromAccountId, toAccountId, toHandle, iban, beneficiaryName, authorizationId, description } = order;
  return JSON.stringify({ operation, amountMinor, toAccountId, fromAccountId, toHandle, iban, beneficiaryName, authorizationId, description });
}

/** Runs `order` as one `money_send` statement under `claim`, which the request holds already. */
export async function sendStatement<Body>(sql: Statements, order: SendOrder, claim: Claim, traceId: string | null, mode: SendMode): Promise<Verdict<Body>> {
  const rows = await sql.query<VerdictRow>`
    SELECT verdict, body, detail FROM money_send(${claim.id}::uuid, ${claim.ownerToken}::uuid, ${claim.userId}::uuid, ${claim.key}::text,
      ${traceId}::text, ${lockWait(mode.lockWaitMs)}::text, ${mode.checkOnly}::boolean, ${Math.floor(mode.dailyLimitMinor)}::bigint, ${wireOrder(order)}::jsonb)`;
  return verdictOf<Body>(rows[0]);
}

/** The key a send claims in its own statement: the claim it writes and what its record compares. */
export interface KeyClaim {
  readonly claim: Claim;
  readonly operationId: string;
  readonly requestHash: string;
  readonly staleAfterMs: number;
}

/** How the claiming statement runs: a send's limits, and the payee look-up limit a send to a handle counts against. */
export interface ClaimingMode extends Omit<SendMode, 'checkOnly'> {
  readonly lookupLimit: number;
  readonly lookupWindowMs: number;
}

/**
 * Runs `order` as one `money_send_claiming` statement (adr/0070): the key's claim, the rules,
 * the movement and the stored answer, one commit. Its verdict is `money_send`'s, or a key's
 * (idempotency.ts `KeyVerdict`, `detail.status` a replay's) when the key was not claimed.
 */
export async function claimingStatement<Body>(sql: Statements, order: SendOrder, key: KeyClaim, traceId: string | null, mode: ClaimingMode): Promise<Verdict<Body>> {
  const { claim } = key;
  const rows = await sql.query<VerdictRow>`
    SELECT verdict, body, detail FROM money_send_claiming(${claim.id}::uuid, ${claim.ownerToken}::uuid, ${claim.userId}::uuid, ${claim.key}::text,
      ${key.operationId}::text, ${key.requestHash}::text, ${Math.round(key.staleAfterMs)}::int,
      ${traceId}::text, ${lockWait(mode.lockWaitMs)}::text, ${Math.floor(mode.dailyLimitMinor)}::bigint, ${wireOrder(order)}::jsonb,
      ${Math.floor(mode.lookupLimit)}::int, ${Math.round(mode.lookupWindowMs)}::int)`;
  return verdictOf<Body>(rows[0]);
}

/** One statement's answer. */
export type Verdict<Body> =
  | { readonly verdict: 'applied'; readonly body: Body; readonly detail: AppliedDetail | null }
  | { readonly verdict: 'ok' | 'claim_lost'; readonly body: undefined; readonly detail: null }
  | { readonly verdict: Exclude<KeyVerdict, 'claimed'>; readonly body: unknown; readonly detail: { readonly status: number | null } | null }
  | { readonly verdict: RefusalCode; readonly body: undefined; readonly detail: RefusalDetail | null };

/** What an applied send's statement says besides its body. */
type AppliedDetail = { readonly takenOver?: boolean } & Partial<LookupWindow>;

/** The payee look-up window a send to a handle counted in, when its statement reached the count. */
export function lookupWindowOf(done: Verdict<unknown>): LookupWindow | undefined {
  const detail = isKeyVerdict(done.verdict) ? null : (done.detail as Partial<LookupWindow> | null);
  if (typeof detail?.lookupsBefore !== 'number' || typeof detail.lookupsClearIn !== 'number') return undefined;
  return { lookupsBefore: detail.lookupsBefore, lookupsClearIn: detail.lookupsClearIn };
}

/** A statement's row as the driver gives it (jsonb as text or parsed). */
export interface VerdictRow {
  verdict: string;
  body: unknown;
  detail: unknown;
}

const jsonOrNull = <T>(value: unknown): T | null => (value === null || value === undefined ? null : parseJsonColumn<T>(value));

/** A statement's row as its verdict; a verdict no statement may answer is a bug, thrown as one. */
export function verdictOf<Body>(row: VerdictRow | undefined): Verdict<Body> {
  if (!row) throw new Error('a money statement answered no row');
  const { verdict } = row;
  if (verdict === 'applied') {
    const body = jsonOrNull<Body>(row.body);
    if (body === null) throw new Error('a money statement applied a send without its answer');
    return { verdict, body, detail: jsonOrNull<AppliedDetail>(row.detail) };
  }
  if (verdict === 'ok' || verdict === 'claim_lost') return { verdict, body: undefined, detail: null };
  if (isKeyVerdict(verdict)) return { verdict, body: jsonOrNull(row.body), detail: jsonOrNull<{ status: number | null }>(row.detail) };
  if (isRefusalCode(verdict)) return { verdict, body: undefined, detail: jsonOrNull<RefusalDetail>(row.detail) };
  throw new Error(`a money statement answered an unknown verdict: ${verdict}`);
}

/** True for a key's answer: the key was not claimed and nothing was written. */
export function isKeyAnswer<Body>(done: Verdict<Body>): done is Extract<Verdict<Body>, { verdict: Exclude<KeyVerdict, 'claimed'> }> {
  return isKeyVerdict(done.verdict);
}

/** The verdict of a statement found landed after its answer was lost: its stored body. */
function appliedVerdict<Body>(body: Body): Verdict<Body> {
  return { verdict: 'applied', body, detail: null };
}

/**
 * The 201's body of an applied statement; throws what any other verdict answers: a lost
 * claim's ClaimTakenOver (for `key`), a refusal's problem. A key's answer or a check's `ok`
 * is its caller's to read first.
 */
export function answerOf<Body>(done: Verdict<Body>, key: string): Body {
  switch (done.verdict) {
    case 'applied':
      return done.body;
    case 'claim_lost':
      throw new ClaimTakenOver(key);
    case 'ok':
    case 'in_flight':
    case 'replay':
    case 'reused':
    case 'result_unknown':
    case 'stale':
    case 'released':
      throw new Error(`a money statement's ${done.verdict} reached the answer of a send`);
    default:
      throw refusalOf(done.verdict, done.detail);
  }
}

/**
 * The one runner of a money statement under `claim` (adr/0027): its own commit, with up to
 * `attempts` lock waits (one without); a lost answer is settled by looking for the claim
 * landed, which reads its stored answer back (within `lookBudgetMs` past the deadline).
 */
export function claimedStatements(data: DataLayer, records: IdempotencyRecords, lookBudgetMs: number) {
  return function run<Body>(label: string, claim: Claim, statement: (sql: Statements) => Promise<Verdict<Body>>, attempts?: number): Promise<Verdict<Body>> {
    let landedBody: Body | undefined;
    return data.runStatementAsCommit(statement, {
      label,
      ...(attempts === undefined ? {} : { contentionAttempts: attempts }),
      verifyCommitted: verifyBy(data, async () => (landedBody = await records.landedAnswer<Body>(claim)) !== undefined, lookBudgetMs),
      landedAnswer: () => appliedVerdict(landedBody as Body),
    });
  };
}
