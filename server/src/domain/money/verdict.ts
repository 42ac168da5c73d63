/**
 * What a money statement answers, as one typed union (adr/0041, adr/0070): `money_send`,
 * `money_send_claiming` and `open_account` each answer one row (verdict, body, detail), read
 * here once and answered here once, for the money sends (runMoneySend.ts) and the opening of
 * an account (accounts/accountOpening.ts) alike.
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
 * `claimedStatements` is the one runner of such a statement under a claim.
 */
import type { DataLayer } from '../../data/dataLayer.ts';
import { parseJsonColumn, type Statements } from '../../data/statements.ts';
import { verifyBy } from '../audit/auditedSave.ts';
import { ClaimTakenOver, isKeyVerdict, type Claim, type IdempotencyRecords, type KeyVerdict } from '../idempotency/idempotency.ts';
import { isRefusalCode, refusalOf, type RefusalCode } from './refusals.ts';

/** One statement's answer. */
export type Verdict<Body> =
  | { readonly verdict: 'applied'; readonly body: Body; readonly detail: { readonly takenOver?: boolean } | null }
  | { readonly verdict: 'ok' | 'claim_lost'; readonly body: undefined; readonly detail: null }
  | { readonly verdict: Exclude<KeyVerdict, 'claimed'>; readonly body: unknown; readonly detail: { readonly status: number | null } | null }
  | { readonly verdict: RefusalCode; readonly body: undefined; readonly detail: Record<string, number> | null };

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
    return { verdict, body, detail: jsonOrNull<{ takenOver?: boolean }>(row.detail) };
  }
  if (verdict === 'ok' || verdict === 'claim_lost') return { verdict, body: undefined, detail: null };
  if (isKeyVerdict(verdict)) return { verdict, body: jsonOrNull(row.body), detail: jsonOrNull<{ status: number | null }>(row.detail) };
  if (isRefusalCode(verdict)) return { verdict, body: undefined, detail: jsonOrNull<Record<string, number>>(row.detail) };
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
