/**
 * The one door to the database for the domain (adr/0007). Everything the domain does with data goes through a DataLayer,
 * its statements Prisma Client's own calls (`$queryRaw` / `$executeRaw` tagged templates) on the client each door
 * gives (adr/0069), except the statement that is its own commit, which the commit gate sends itself:
 *
 * - `runInTransaction(fn)` runs `fn` in one transaction on the primary and, on a
 *   transient error before COMMIT, reruns the WHOLE transaction in a new one. `fn` may
 *   therefore run more than once: its database changes are rolled back before a rerun,
 *   anything else is not, so side effects (emails, calls to other services) belong after
 *   the transaction returns. A commit whose outcome is unknown is rerun only when the
 *   caller's `verifyCommitted()` says it did not land.
 * - `read(fn)`: a read outside a transaction; retried on a dropped connection.
 * - `write(fn)`: one write outside a transaction; retried only when the database
 *   confirmed it was not applied. Several rows belong in `runInTransaction`.
 * - `readDb()`: the read replica when there is one and the caller may read stale data;
 *   the primary when this request or (for READ_YOUR_WRITES_MS) this user has written.
 *   Always a read-only connection: a write through it fails (25006), PGlite included.
 *   Each statement on it is retried as a read (a query extension of its client).
 * - `db`: the primary, for the rare direct use (migrations, CLIs, tests).
 *
 * A single statement inside a transaction is never retried on its own: after a deadlock
 * the database rolled the whole transaction back.
 */
import type { PrismaClient, Prisma } from '../generated/prisma/client.ts';
import type { DatabaseKind } from './databaseKind.ts';
import type { Statements } from './statements.ts';

/** The client a transaction's `fn` receives. */
export type Tx = Prisma.TransactionClient;

/** What the data layer knows of a COMMIT whose answer was lost. */
export interface LostCommit {
  /**
   * The server process the COMMIT was sent to (PostgreSQL's pid; none on PGlite). Until it
   * has ended or left its transaction, it may still commit: a look that finds nothing
   * proves nothing before then.
   */
  backendPid?: number;
}

/** Options of one transaction. */
export interface TransactionOptions {
  /** Isolation level; the database default (READ COMMITTED) when absent. */
  isolationLevel?: Prisma.TransactionIsolationLevel;
  /**
   * Asked after a commit failed with an unknown outcome (the connection dropped after
   * COMMIT was sent): true when the work landed (the layer then returns what `fn`
   * answered in that attempt), false when it did not (the layer reruns the transaction). Without it, an unknown
   * outcome is never rerun: the error is thrown.
   */
  verifyCommitted?: (lost: LostCommit) => Promise<boolean>;
  /** A short name for logs ("deposit", "register"). */
  label?: string;
  /**
   * For writes that lock contended rows (account balances): how many attempts the
   * transaction gets when it loses a lock wait (55P03, `SET LOCAL lock_timeout`). When
   * every attempt loses, `ContentionExhausted` is thrown and the caller decides (busy).
   * Without it, a lost lock wait is an ordinary transient error.
   */
  contentionAttempts?: number;
}

/** Options of one statement that is its own commit. */
export interface StatementCommitOptions<T> extends Omit<TransactionOptions, 'isolationLevel' | 'verifyCommitted'> {
  /** Required here: a statement's lost answer is settled only by looking. */
  verifyCommitted: (lost: LostCommit) => Promise<boolean>;
  /**
   * After `verifyCommitted` found that a statement whose answer was lost landed: what the
   * statement answered, as that look read it back.
   */
  landedAnswer: () => T;
}

/** Where a read goes, and what that connection is. */
export interface ReadConnection {
  readonly client: PrismaClient;
  /** A read-only session: a write on it fails (25006), on a replica, on the primary and on PGlite alike (always true). */
  readonly isReadOnly: boolean;
  /** It is the read replica (possibly falling back to the primary when that is configured). */
  readonly isReadReplica: boolean;
  /** The current request has written, so it reads from the primary. */
  readonly hasWrites: boolean;
}

/** The data layer's door, as described above. */
export interface DataLayer {
  readonly kind: DatabaseKind;
  readonly db: PrismaClient;
  readDb(): PrismaClient;
  /** `readDb()` with what it chose and why. */
  readConnection(): ReadConnection;
  runInTransaction<T>(fn: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * One direct statement that is its own commit (adr/0027): sent outside any transaction,
   * through the commit gate as a COMMIT is (refused once the signal fired, the deadline
   * disarmed before it is sent, bounded by the commit timeout), under the same attempts,
   * look at an unknown outcome and retry policy as `runInTransaction`. `fn` sends exactly
   * one statement; a second is refused.
   */
  runStatementAsCommit<T>(fn: (sql: Statements) => Promise<T>, options: StatementCommitOptions<T>): Promise<T>;
  read<T>(fn: (db: PrismaClient) => Promise<T>): Promise<T>;
  write<T>(fn: (db: PrismaClient) => Promise<T>): Promise<T>;
  /** Names the signed-in user of the current request and loads their read-your-writes mark. */
  beginRequest(userId: string): Promise<void>;
  /**
   * Names the user a request without a bearer token writes for (registration, sign-in, a
   * renewal): its writes mark that user for read-your-writes as a signed-in user's do, so
   * their next reads do not meet a replica that has not replayed them yet.
   */
  writesFor(userId: string): void;
}
