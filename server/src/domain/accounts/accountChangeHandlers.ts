/**
 * Renaming, closing and choosing the primary account. They hold no Idempotency-Key (a
 * second identical request changes nothing more) and never speak of `applied`. Each
 * saves in one gated transaction (runInTransaction) whose lock waits are bounded like a
 * money send's; when every attempt loses its lock, the request re-checks what an
 * attempt checks (404, 422) and only then answers 503 busy (1 s). Another customer's
 * account is 404, exactly as one that does not exist.
 *
 * - rename: one statement (it bounds its own lock wait: `set_config` in its WHERE runs
 *   before the row lock is waited for). A closed account keeps its history and may be renamed.
 * - close: only an empty, open account (422 ACCOUNT_NOT_EMPTY, ACCOUNT_CLOSED). The
 *   primary account cannot be closed while another account is open (422
 *   ACCOUNT_IS_PRIMARY: choose another first); closing the last open account clears the
 *   primary, and transfers to the customer's handle then answer 422
 *   PAYEE_HAS_NO_OPEN_ACCOUNT. The closure is an audit row in the account's chain, and an
 *   audited save (verifyCommitted looks for it).
 * - setPrimary: open accounts only (422 ACCOUNT_CLOSED).
 * Close and setPrimary lock the customer's row before the account, the order every
 * writer that takes both uses, so they serialise with each other and never deadlock.
 */
import { randomUUID } from 'node:crypto';
import type { components } from '@tidewater/spec/openapi';
import { isContentionExhausted } from '../../data/retry/index.ts';
import { noteUnavailableCause } from '../../metrics.ts';
import type { Tx } from '../../data/dataLayer.ts';
import { parseJsonColumn } from '../../data/statements.ts';
import { ApiProblem } from '../../errors/apiProblem.ts';
import type { Handlers } from '../../contract/operations.ts';
import { currentContext } from '../../request/requestContext.ts';
import { nextLink } from '../audit/auditChain.ts';
import { lookForOwnAuditRow, type VerifyCommitted } from '../audit/auditedSave.ts';
import type { DomainDeps } from '../deps.ts';
import { limitLockWaits } from '../money/accountRows.ts';
import { writtenText } from '../writtenText.ts';

type Account = components['schemas']['Account'];

/** An account row with its owner's primary account, as the statements read it (int8 as text), and its wire view (`wire_account`). */
interface AccountWithPrimary {
  id: string;
  userId: string;
  status: string;
  balanceMinor: string;
  auditSeq: number;
  auditHash: string;
  primaryAccountId: string | null;
  account: unknown;
}

/** An account's wire view as a statement answers it (`wire_account`, jsonb as text or parsed). */
interface WireRow {
  account: unknown;
}

/** The wire view a statement answered. */
const wireAccount = (row: WireRow): Account => parseJsonColumn<Account>(row.account);

const notFound = () => new ApiProblem('ACCOUNT_NOT_FOUND', 'No account of yours has this id.');

/** What `ownAccount` locks: nothing, the customer's row, or it and then the account's. */
type Locks = 'none' | 'customer' | 'customerThenAccount';

/**
 * The customer's account with their primary account id, locked as asked. The account's lock
 * is a statement of its own, so the read after it (a snapshot of its own) sees the row as
 * the lock's holder left it.
 */
async function ownAccount(db: Tx, userId: string, accountId: string, locks: Locks = 'none'): Promise<AccountWithPrimary> {
  if (locks !== 'none') await db.$queryRaw`SELECT id FROM users WHERE id = ${userId}::uuid FOR NO KEY UPDATE`;
  if (locks === 'customerThenAccount') await db.$queryRaw`SELECT id FROM accounts WHERE id = ${accountId}::uuid AND user_id = ${userId}::uuid FOR UPDATE`;
  const [row] = await db.$queryRaw<AccountWithPrimary[]>`
    SELECT a.id::text AS id, a.user_id::text AS "userId", a.balance_minor::text AS "balanceMinor", a.status,
           a.audit_seq AS "auditSeq", a.audit_hash AS "auditHash", u.primary_account_id::text AS "primaryAccountId",
           wire_account(a, u.primary_account_id) AS account
    FROM accounts a JOIN users u ON u.id = a.user_id
    WHERE a.id = ${accountId}::uuid AND a.user_id = ${userId}::uuid`;
  if (!row) throw notFound();
  return row;
}

/** Every refusal of a closure, on the rows as read. */
async function refuseClosing(db: Tx, account: AccountWithPrimary): Promise<void> {
  if (account.status === 'closed') throw new ApiProblem('ACCOUNT_CLOSED', 'The account is already closed.');
  if (BigInt(account.balanceMinor) !== 0n) throw new ApiProblem('ACCOUNT_NOT_EMPTY', 'Move the money out first: only an empty account can be closed.');
  if (account.primaryAccountId !== account.id) return;
  const [others] = await db.$queryRaw<{ open: number }[]>`
    SELECT count(*)::int AS open FROM accounts WHERE user_id = ${account.userId}::uuid AND status = 'open' AND id <> ${account.id}::uuid`;
  if ((others?.open ?? 0) > 0) throw new ApiProblem('ACCOUNT_IS_PRIMARY', 'Choose another primary account before closing this one.');
}

/** The handlers of rename, close and set-primary. */
export function accountChangeHandlers({ data, config }: DomainDeps): Pick<Handlers, 'renameAccount' | 'closeAccount' | 'setPrimaryAccount'> {
  /** Runs one change; busy only after `recheck` refused nothing. */
  async function change<T>(label: string, attempt: (tx: Tx) => Promise<T>, recheck: (db: Tx) => Promise<void>, verifyCommitted?: VerifyCommitted): Promise<T> {
    try {
      return await data.runInTransaction(attempt, { label, contentionAttempts: config.accountWriteAttempts, ...(verifyCommitted ? { verifyCommitted } : {}) });
    } catch (error) {
      if (!isContentionExhausted(error)) throw error;
      await data.read((db) => recheck(db));
      currentContext()?.log.info({ label, attempts: error.attempts }, 'account busy: answering 503 after re-checking');
      noteUnavailableCause('busy_account');
      throw new ApiProblem('SERVICE_UNAVAILABLE', 'The account is busy. Try again in a moment.', { retryAfterSeconds: config.busyRetryAfterSeconds });
    }
  }

  return {
    async renameAccount({ caller, path, body }) {
      const name = writtenText(body.name);
      if (!name) throw new ApiProblem('VALIDATION_FAILED', 'The name must not be blank.');
      const lockTimeout = `${Math.max(1, Math.round(config.accountLockWaitMs))}ms`;
      const row = await change(
        'renameAccount',
        async (tx) => {
          const [renamed] = await tx.$queryRaw<WireRow[]>`
            UPDATE accounts a SET name = ${name}
            FROM users u
            WHERE a.id = ${path.accountId}::uuid AND a.user_id = ${caller.userId}::uuid AND u.id = a.user_id
              AND set_config('lock_timeout', ${lockTimeout}, true) IS NOT NULL
            RETURNING wire_account(a, u.primary_account_id) AS account`;
          if (!renamed) throw notFound();
          return renamed;
        },
        async (db) => void (await ownAccount(db, caller.userId, path.accountId)),
      );
      return { status: 200, body: wireAccount(row) };
    },

    async closeAccount({ caller, path }) {
      const requestId = randomUUID();
      const traceId = currentContext()?.traceId ?? null;
      const row = await change(
        'closeAccount',
        async (tx) => {
          await limitLockWaits(tx, config.accountLockWaitMs);
          const account = await ownAccount(tx, caller.userId, path.accountId, 'customerThenAccount');
          await refuseClosing(tx, account);
          const payload = { balanceMinor: account.balanceMinor, wasPrimary: account.primaryAccountId === account.id };
          const link = nextLink(account, { accountId: account.id, action: 'close', payload, ledgerEntryId: null, requestId, traceId });
          // A primary account closes only as the customer's last open one: they are then left with no primary.
          const primaryAfter = payload.wasPrimary ? null : account.primaryAccountId;
          const [closed] = await tx.$queryRaw<WireRow[]>`
            WITH closed AS (
              UPDATE accounts a SET status = 'closed', closed_at = now(), version = version + 1,
                     audit_seq = ${link.seq}::int, audit_hash = ${link.hash}
              WHERE id = ${account.id}::uuid AND audit_seq = ${account.auditSeq}::int
              RETURNING id, wire_account(a, ${primaryAfter}::uuid) AS account
            ), audit AS (
              INSERT INTO audit_rows (account_id, seq, action, payload, trace_id, request_id, prev_hash, hash)
              SELECT id, ${link.seq}::int, 'close', ${JSON.stringify(payload)}::jsonb, ${traceId}::text, ${requestId}::uuid, ${link.prevHash}::text, ${link.hash}::text
              FROM closed
            )
            SELECT account FROM closed`;
          if (!closed) throw new Error(`account ${account.id} moved under its own lock`);
          if (payload.wasPrimary) await tx.$executeRaw`UPDATE users SET primary_account_id = NULL WHERE id = ${caller.userId}::uuid`;
          return closed;
        },
        async (db) => refuseClosing(db, await ownAccount(db, caller.userId, path.accountId)),
        lookForOwnAuditRow(data, requestId, config.idempotencyStoreBudgetMs),
      );
      return { status: 200, body: wireAccount(row) };
    },

    async setPrimaryAccount({ caller, path }) {
      const refuseClosed = (account: AccountWithPrimary) => {
        if (account.status !== 'open') throw new ApiProblem('ACCOUNT_CLOSED', 'A closed account cannot be the primary account.');
      };
      const row = await change(
        'setPrimaryAccount',
        async (tx) => {
          await limitLockWaits(tx, config.accountLockWaitMs);
          // The customer's row alone: a closure takes it first too, so none can run meanwhile.
          const account = await ownAccount(tx, caller.userId, path.accountId, 'customer');
          refuseClosed(account);
          if (account.primaryAccountId === account.id) return account;
          const [made] = await tx.$queryRaw<WireRow[]>`
            UPDATE users SET primary_account_id = ${account.id}::uuid WHERE id = ${caller.userId}::uuid
            RETURNING (SELECT wire_account(a, ${account.id}::uuid) FROM accounts a WHERE a.id = ${account.id}::uuid) AS account`;
          return made!;
        },
        async (db) => refuseClosed(await ownAccount(db, caller.userId, path.accountId)),
      );
      return { status: 200, body: wireAccount(row) };
    },
  };
}
