/**
 * The money-send family's interface (DESIGN.md "Money"). A send (deposit, withdrawal,
 * internal or external transfer) says what it does in four steps; `runMoneySend.ts`
 * drives every send the same way around them: the idempotency claim, the gated
 * transaction with its account locks and attempts, the re-check before a busy answer,
 * the stored answer and what a failure answers.
 */
import type { Tx } from '../../data/dataLayer.ts';
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

/** One money send. `Plan` is what `prepare` settled once per request. */
export interface MoneySend<Plan, Body> {
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
  /** The save, on locked and checked accounts: spends the authorisation, posts the movements; answers the 201 body. */
  save(tx: Tx, plan: Plan, accounts: AccountsById): Promise<Body>;
  /** Before a busy answer, after `check`: the look `prepare` took at the authorisation, again. */
  recheckBeforeBusy?(plan: Plan): Promise<void>;
}

/** Makes the send of one request. */
export type MoneySendFactory<Plan, Body> = (request: SendRequest) => MoneySend<Plan, Body>;
