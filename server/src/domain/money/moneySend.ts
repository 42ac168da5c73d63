/**
 * The one shape of a money send (adr/0041). A send's own TypeScript only settles its order
 * (`prepare`: the request's input, a handle resolved to its account, an IBAN in electronic
 * form); the rules on money state (open accounts, funds, the balance ceiling, the step-up
 * authorisation, the daily ceiling) are the database's `money_send` function's, written once
 * (server/prisma/migrations/1764740000000_money_rules_in_the_database.sql). It runs as ONE
 * statement that is its own commit (adr/0027): it locks the claim, the customer when money
 * leaves them, the accounts in id order; checks; spends the authorisation; posts each movement
 * with its audit link; and lands the claim with the 201 body. Or it only checks (`checkOnly`),
 * before a busy answer. `money_send_claiming` claims the key in the same statement first
 * (adr/0070, adr/0076), so every send is one statement and one commit.
 */
import type { Statements } from '../../data/statements.ts';
import type { Claim } from '../idempotency/idempotency.ts';
import { lockWait } from './accountRows.ts';
import { verdictOf, type Verdict, type VerdictRow } from './verdict.ts';

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

/**
 * One send of one request: `prepare` settles its order once, before its key is claimed
 * (adr/0076): it checks the request's own input, and a transfer by handle counts its payee
 * look-up and reads the payee, after the rules passed its `checkFirst` order.
 */
interface MoneySend {
  /** For logs and the data layer ("deposit"). */
  readonly label: string;
  /**
   * An order the rules check (check-only) before `prepare`: a transfer by handle without its
   * payee's account, so the authorisation and the account's ownership are settled before
   * any answer can tell whether a handle exists (adr/0064).
   */
  readonly checkFirst?: SendOrder;
  prepare(): Promise<SendOrder>;
}

/** Makes the send of one request. */
export type MoneySendFactory = (request: { readonly userId: string }) => MoneySend;

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
 * transfer by handle's check before its payee has `"toAccountId":null`).
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

/**
 * Runs `order` as one `money_send_claiming` statement (adr/0070): the key's claim, the rules,
 * the movement and the stored answer, one commit. Its verdict is `money_send`'s, or a key's
 * (idempotency.ts `KeyVerdict`, `detail.status` a replay's) when the key was not claimed.
 */
export async function claimingStatement<Body>(sql: Statements, order: SendOrder, key: KeyClaim, traceId: string | null, mode: Omit<SendMode, 'checkOnly'>): Promise<Verdict<Body>> {
  const { claim } = key;
  const rows = await sql.query<VerdictRow>`
    SELECT verdict, body, detail FROM money_send_claiming(${claim.id}::uuid, ${claim.ownerToken}::uuid, ${claim.userId}::uuid, ${claim.key}::text,
      ${key.operationId}::text, ${key.requestHash}::text, ${Math.round(key.staleAfterMs)}::int,
      ${traceId}::text, ${lockWait(mode.lockWaitMs)}::text, ${Math.floor(mode.dailyLimitMinor)}::bigint, ${wireOrder(order)}::jsonb)`;
  return verdictOf<Body>(rows[0]);
}
