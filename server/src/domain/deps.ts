/**
 * What the domain's operation families need: the database, the config table, the
 * token service and the cursors (both keyed by the signing secret), password hashing and PIN verifiers. Built once in `app.ts` and handed to each family.
 */
import type { ServerConfig } from '../config.ts';
import type { DataLayer } from '../data/dataLayer.ts';
import type { AccessTokens } from './identity/accessTokens.ts';
import type { LiveSessions } from './identity/liveSessions.ts';
import type { PinVerifiers } from './identity/pinVerifier.ts';
import type { SecretHashing } from './identity/secrets.ts';
import type { TransactionCursors } from './accounts/transactionCursor.ts';

/** The domain's dependencies. */
export interface DomainDeps {
  /** The one door to the database: transactions, retried reads and writes, replicas. */
  readonly data: DataLayer;
  readonly config: ServerConfig;
  readonly tokens: AccessTokens;
  /** Whether an access token's session (its refresh family) is still alive, cached per process (adr/0064). */
  readonly sessions: LiveSessions;
  /** listTransactions' signed cursors. */
  readonly cursors: TransactionCursors;
  /** Password hashing (scrypt), a few at a time in a queue of its own. */
  readonly secrets: SecretHashing;
  /** PIN verifiers: HMAC under the pepper, no queue (adr/0053). */
  readonly pins: PinVerifiers;
}
