/**
 * The money-send family's interface (adr/0010). A send (deposit, withdrawal,
 * internal or external transfer) says what it does in four steps; `runMoneySend.ts`
 * drives every send the same way around them: the idempotency claim, the gated
 * transaction with its account locks and attempts, the re-check before a busy answer,
 * the stored answer and what a failure answers.
 */
import type { Tx } from '../../data/dataLayer.ts';
import type { Statements } from '../../data/statements.ts';
import type { Claim } from '../idempotency/idempotency.ts';
import type { AccountsById, Queryable } from './accountRows.ts';
import type { Stamp } from './ledger.ts';

/** Who sends, under which key, as which request. */
interface SendRequest extends Stamp {
  readonly userId: string;
  readonly key: string;
}

/** What an attempt's checks look at: the account rows (locked in an attempt) and a way to ask more. */
interface Look {
  readonly accounts: AccountsById;
  /** Runs a query where the look runs: inside the attempt's transaction, or as a fresh read. */
  query<T>(fn: (db: Queryable) => Promise<T>): Promise<T>;
}

/** What a send's one-statement attempt answers (adr/0022). */
export interface AtOnce<Body> {
  /** The rows as the statement locked them, before its write: what `check` looks at. */
  readonly accounts: AccountsById;
  /** True when the statement posted the money (the database's own checks allowed it, and the claim was this request's). */
  readonly moved: boolean;
  /** True when the claim was still this request's as the statement locked it. */
  readonly owned: boolean;
  /** The answer it landed with the claim, when it moved. */
  readonly body: Body | undefined;
}

/** What every money send says. `Plan` is what `prepare` settled once per request. */
interface SendSteps<Plan> {
  /** For logs and the data layer ("deposit"). */
  readonly label: string;
  /** True when an attempt locks the customer's row before the accounts (the daily ceiling). */
  readonly locksCustomer?: boolean;
  /** Once, before the first attempt: checks input, resolves a handle, reads the step-up authorisation. */
  prepare(): Promise<Plan>;
  /** The accounts an attempt locks (in id order, whatever the order here). */
  accountIds(plan: Plan): string[];
  /** Every look an attempt takes before it saves; throws the refusal (404, 422). */
  check(plan: Plan, look: Look): Promise<void>;
  /** Before a busy answer, after `check`: the look `prepare` took at the authorisation, again. */
  recheckBeforeBusy?(plan: Plan): Promise<void>;
}

/** A send whose attempt locks, checks, saves and lands in turn. */
interface SteppedSend<Plan, Body> extends SendSteps<Plan> {
  /** The save, on locked and checked accounts: spends the authorisation, posts the movements; answers the 201 body. */
  save(tx: Tx, plan: Plan, accounts: AccountsById): Promise<Body>;
  readonly atOnce?: undefined;
}

/** A send whose attempt locks, saves and lands in one statement, its own commit (adr/0022, adr/0027). */
interface OneStatementSend<Plan, Body> extends SendSteps<Plan> {
  /**
   * The lock, the save and the landing in one statement that is its own commit (adr/0027),
   * so the account is locked for no round trip of the API's. It posts only what the
   * database's own checks allow, and only while the claim is this request's: `check` then
   * words a refusal on the rows as the statement locked them. Its look's `query` is a fresh
   * read: such a send's `check` asks nothing that needs a transaction.
   */
  atOnce(sql: Statements, plan: Plan, claim: Claim, lockWaitMs: number): Promise<AtOnce<Body>>;
}

/** One money send: its attempt in steps, or in one statement. */
export type MoneySend<Plan, Body> = SteppedSend<Plan, Body> | OneStatementSend<Plan, Body>;

/** Makes the send of one request. */
export type MoneySendFactory<Plan, Body> = (request: SendRequest) => MoneySend<Plan, Body>;
