/**
 * One statement as its own commit (adr/0027). The connection is taken while the deadline
 * still runs (a pool wait stays bounded by it); then, in one synchronous step, the gate
 * refuses when the signal fired, else disarms the deadline, sends the attempt's commit
 * and the statement. So the request waits for its answer, whatever the deadline does:
 * there is no answer at the deadline while it may commit.
 *
 * The statement keeps the deadline for itself: at that instant the gate cancels it at the
 * database. Unlike a COMMIT's, that cancel is safe, since PostgreSQL takes it only before
 * the statement's own commit: the statement then ends rolled back (57014), or it had
 * committed and answers so. Its answer is awaited `cancelAcknowledgeMs` beyond the deadline
 * (the commit timeout without one). Its outcome, as the commit's state (adr/0052):
 *
 * - answered before its cancel: `landed`;
 * - answered after its cancel: committed on the primary, but perhaps not on a synchronous
 *   standby, since PostgreSQL takes a cancel in that wait as a mere warning (adr/0019):
 *   `in-doubt`, unconfirmed, which no look may call landed;
 * - answered with an error that ended only the statement (a lost lock wait, a cancel, a
 *   constraint): rolled back for sure, `refused`, and the deadline is re-armed (firing at
 *   once when it has passed); the connection goes back to the pool;
 * - anything else (the connection ended, a FATAL, no answer in time): `in-doubt`, for the
 *   data layer's look (`verifyCommitted`); the connection is discarded once the statement
 *   settles, never handed on mid-statement.
 */
import { currentContext, type RequestContext } from '../../request/requestContext.ts';
import { attemptCommit, type Commit, CommitOutcomeUnknown } from '../../request/commitOutcome.ts';
import { countCommitGateDisarm, countCommitGateRefusal } from '../../metrics.ts';
import type { CommitGateOptions } from './commitGateOptions.ts';
import type { StatementText } from '../statements.ts';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

/** Sends `statement` as its own commit on a connection of `target`, as described above. */
export function statementAsCommit(target: OwnCommitTarget, statement: StatementText, options: CommitGateOptions): Promise<Rows> {
  // The request and the attempt, read once: the connection may come from another request's
  // release, in that request's async scope, so nothing after it reads the scope (adr/0038).
  const context = currentContext();
  if (context?.signal.aborted) {
    countCommitGateRefusal('statement');
    return Promise.reject(context.signal.reason);
  }
  return new OwnCommit(target, statement, options, context, attemptCommit()).run();
}

/**
 * One statement that is its own commit, from taking its connection to its outcome. One
 * object and one promise per deposit, its steps methods and callbacks, not awaits: every
 * promise and every await of a request pays the async scope's hooks (adr/0025, adr/0038).
 * Where it stands is its commit's state; the caller has its outcome once that state left
 * `not-started` and `in-flight`.
 */
class OwnCommit {
  private client: HeldClient | undefined;
  /** Whether the deadline's own timer calls `atDeadline` for this statement (adr/0035). */
  private hold: 'held' | 'disarmed' = 'disarmed';
  private timer: NodeJS.Timeout | undefined;
  private resolve!: (rows: Rows) => void;
  private reject!: (error: unknown) => void;

  private readonly target: OwnCommitTarget;
  private readonly statement: StatementText;
  private readonly options: CommitGateOptions;
  private readonly context: RequestContext | undefined;
  /** The attempt's commit, whose state is where this statement stands. */
  private readonly commit: Commit;

  constructor(
    target: OwnCommitTarget,
    statement: StatementText,
    options: CommitGateOptions,
    context: RequestContext | undefined,
    commit: Commit,
  ) {
    this.target = target;
    this.statement = statement;
    this.options = options;
    this.context = context;
    this.commit = commit;
  }

  run(): Promise<Rows> {
    return new Promise<Rows>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      const { target } = this;
      if (!('pool' in target)) return this.start(undefined);
      // pg-pool's callback form: no promise of its own (adr/0030). A failed take sent nothing.
      target.pool.connect((error, client) => (error ? reject(error) : this.start(client as HeldClient)));
    });
  }

  /** The connection is ours (none on PGlite): refuse when the signal fired meanwhile, else hold the deadline and send. */
  private start(client: HeldClient | undefined): void {
    this.client = client;
    const { context } = this;
    try {
      // The deadline's own timer, held for this statement, calls `atDeadline` at its instant (adr/0035).
      const hold = context ? context.deadline.holdForOwnCommit(this) : 'disarmed';
      if (hold === 'refused') {
        countCommitGateRefusal('commit');
        this.commit.refused();
        client?.release();
        return this.reject(context!.signal.reason);
      }
      this.hold = hold;
      if (context) countCommitGateDisarm();
      const seam = this.options.beforeCommitSent;
      if (!seam) return this.send();
      seam().then(
        () => this.send(),
        (error: unknown) => this.failBeforeSent(error),
      );
    } catch (error) {
      this.failBeforeSent(error);
    }
  }

  private send(): void {
    const { context, client, options } = this;
    try {
      this.commit.send(context);
      if (client?.processID != null) this.commit.sentTo(client.processID);
      // The gate times and cancels this statement itself: no request's signal does (cancellableClient.ts).
      if (client) client.timedByGate = true;
      if (client) queryOn(client, this.statement, options.preparedStatements !== 'unnamed', (error, rows) => (error ? this.failedAtDatabase(error) : this.answered(rows!)));
      else if (!('pool' in this.target))
        queryOnPglite(this.target.pglite, this.statement).then(
          (rows) => this.answered(rows),
          (error: unknown) => this.failedAtDatabase(error),
        );
    } catch (error) {
      if (client) client.timedByGate = false;
      return this.failBeforeSent(error);
    }
    const remainingMs = context?.deadline.remainingMs;
    if (remainingMs === undefined) this.timer = setTimeout(() => this.timedOut(options.commitTimeoutMs), options.commitTimeoutMs);
    // The common path: the deadline's timer, held for us, calls `atDeadline`. Else (a commit disarmed it before, or its instant passed): a timer of our own.
    else if (this.hold !== 'held' || remainingMs <= 0) this.timer = setTimeout(() => this.atDeadline(), Math.max(0, remainingMs));
  }

  /** The deadline's instant (once, whichever timer says it first): cancel the statement at the database, then give it `cancelAcknowledgeMs` to answer. */
  atDeadline(): void {
    const state = this.commit.state;
    if (state.kind !== 'in-flight' || state.cancel !== undefined) return;
    const { client, options } = this;
    const cancelled = client?.cancelInFlight() === true;
    this.commit.deadlinePassed(cancelled ? 'sent' : 'not-sent');
    if (cancelled) this.context?.log.info({ processId: client?.processID }, 'cancelling a statement that is its own commit at the deadline');
    this.timer = setTimeout(() => this.timedOut(options.cancelAcknowledgeMs), options.cancelAcknowledgeMs);
  }

  private answered(rows: Rows): void {
    const waiting = this.commit.state.kind === 'in-flight';
    this.ended();
    this.client?.release();
    const landed = this.commit.answered();
    if (!waiting) return; // a late answer: the caller had its outcome at the timeout
    if (landed) return this.resolve(rows);
    this.tellFailure(new CommitOutcomeUnknown(this.options.cancelAcknowledgeMs, 'the statement answered only after its cancel, so a synchronous standby may not have it'));
  }

  private failedAtDatabase(error: unknown): void {
    const { client } = this;
    // Read before the release: the connection's next holder clears what it heard. PGlite, in
    // process, cannot lose an answer: any error of its rolled the statement back.
    const rolledBack = !client || rolledBackByItsError(client);
    this.ended();
    client?.release(error === undefined || rolledBack ? undefined : asError(error));
    if (this.commit.state.kind !== 'in-flight') return this.commit.failed(); // a late answer settles a timed-out statement
    if (rolledBack && !(error instanceof CommitOutcomeUnknown)) this.commit.refused();
    else this.commit.failed();
    this.tellFailure(error);
  }

  /** No answer within its bound: in doubt, and the statement still runs. */
  private timedOut(ms: number): void {
    if (this.commit.state.kind !== 'in-flight') return;
    this.commit.timedOut();
    this.tellFailure(new CommitOutcomeUnknown(ms));
  }

  /** The statement settled (answered or failed): nothing times it any more, and its connection is the pool's again to hand on (the caller releases it). */
  private ended(): void {
    clearTimeout(this.timer);
    if (this.hold === 'held') this.context!.deadline.endOwnCommit();
    if (this.client) this.client.timedByGate = false;
  }

  /** Failed before anything was sent, or as it was sent: the connection goes back, and nothing moved. */
  private failBeforeSent(error: unknown): void {
    this.client?.release();
    this.commit.refused();
    this.tellFailure(error);
  }

  /** The caller learns a failure; the deadline runs again (firing at once when it has passed). */
  private tellFailure(error: unknown): void {
    const { context } = this;
    if (this.hold === 'held') context!.deadline.endOwnCommit();
    context?.deadline.rearmAfterFailedCommit();
    this.reject(error);
  }
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/*
 * Where the gate's statements that are their own commits run (adr/0027, adr/0055, adr/0075):
 * on a connection of the primary's pg pool, sent with pg's public API; on PGlite, which has no
 * pool, on the embedded database itself. Neither goes through Prisma's driver adapter: the
 * gate holds the connection from its take to its answer and cancels or times it itself.
 */

/** Where statements that are their own commits run: the primary's pool, or PGlite. */
export type OwnCommitTarget = { readonly pool: pg.Pool } | { readonly pglite: PGlite };

/** Rows keyed by column name. */
type Rows = Record<string, unknown>[];

/** What pg's client of our pool (cancellableClient.ts) says of the last error the server sent it. */
interface HeardErrors {
  processID: number | null;
  /** The SQLSTATE and severity of the server's error for the statement in flight, if any. */
  readonly statementFailure?: { code?: string; severity?: string } | undefined;
}

/** A connection of our pool (cancellableClient.ts), as the gate uses it while it holds it. */
type HeldClient = pg.PoolClient &
  HeardErrors & {
    cancelInFlight(): boolean;
    timedByGate: boolean;
  };

/**
 * The server answered the statement with an error that ended only the statement: an
 * autocommit statement that failed so rolled back, and its connection lives on. Not a
 * connection's end (08, 57P01 to 57P05 or a FATAL), and not an internal error (XX).
 */
function rolledBackByItsError(client: HeardErrors): boolean {
  const failure = client.statementFailure;
  if (!failure?.code) return false;
  if (failure.severity === 'FATAL' || failure.severity === 'PANIC') return false;
  return !/^(08|57P0|XX)/.test(failure.code);
}

/** Every column as PostgreSQL's text: the direct statements' row shape (statements.ts). */
const asText = { getTypeParser: () => (value: string) => value };

/** pg's statement for `statement`: prepared under its name when `named`, else unnamed (DB_PREPARED_STATEMENTS). */
function pgStatement(statement: StatementText, named: boolean): pg.QueryConfig {
  return { text: statement.text, values: statement.values as unknown[], types: asText, ...(named ? { name: statement.name } : {}) };
}

/**
 * Sends `statement` on `client` with pg's own API and calls `done` once with its rows (every
 * column text) or with pg's error (a `DatabaseError` with its SQLSTATE, which the classifier
 * reads). pg's callback form: no promise of its own (adr/0030).
 */
function queryOn(client: pg.PoolClient, statement: StatementText, named: boolean, done: (error: Error | undefined, rows?: Rows) => void): void {
  client.query(pgStatement(statement, named), (error: Error | undefined, result: pg.QueryResult<Record<string, unknown>>) => (error ? done(error) : done(undefined, result.rows)));
}

/** Sends `statement` to PGlite, in process: its rows as PGlite parses them. */
async function queryOnPglite(pglite: PGlite, statement: StatementText): Promise<Rows> {
  return (await pglite.query<Record<string, unknown>>(statement.text, statement.values as unknown[])).rows;
}

/**
 * A plain statement on `target`, ungated: how the bench's layers-off API sends a statement
 * that is its own commit (it commits on its own just the same).
 */
export function plainStatementOn(target: OwnCommitTarget, named: boolean) {
  return async (statement: StatementText): Promise<Rows> =>
    'pool' in target ? (await target.pool.query<Record<string, unknown>>(pgStatement(statement, named))).rows : queryOnPglite(target.pglite, statement);
}
