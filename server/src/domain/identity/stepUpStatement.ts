/**
 * The step-up's one statement (adr/0047): the PIN's verdict (`pin_verdict`, a database
 * function: counted, locked, blocked or cleared under the user's row lock) and, for a right
 * PIN, the authorisation's row, in one round trip that is its own commit. The API sends the
 * verifier a right PIN gives under the stored salt (an HMAC under the pepper, which the
 * database never sees), so it must know the salt first: each process remembers the part of
 * each user's verifier before the MAC, and a verifier that changed meanwhile answers 'stale'
 * with the stored one, counting nothing, for a second statement.
 */
import type { DataLayer } from '../../data/dataLayer.ts';
import type { ServerConfig } from '../../config.ts';
import { boundPayment, type ApprovedPaymentWire } from './approvedPayment.ts';

/** What a check sends: the part the stored verifier must start with (none yet: 'stale'), the verifier a right PIN gives, and one to store instead. */
export interface PinAttempt {
  checked: string | null;
  right: string | null;
  remade?: string | undefined;
}

/** The statement's answer. */
export interface PinVerdictRow {
  verdict: 'right' | 'wrong' | 'locked' | 'blocked' | 'stale' | 'unknown';
  attemptsLeft: number;
  locks: number;
  waitSeconds: number;
  /** The stored verifier, on 'stale' only. */
  stored: string | null;
  /** The authorisation's end, on 'right' only. */
  expiresAt: string | null;
}

/** Users whose verifier prefix each process remembers: enough for every customer active at once, a few MB at most. */
const rememberedUsers = 10_000;

/** The statement, and the verifier prefixes this process remembers. */
export function stepUpStatement(data: DataLayer, config: ServerConfig) {
  const prefixes = new Map<string, string>();

  return {
    /** The remembered part of `userId`'s verifier, or null. */
    prefixOf: (userId: string): string | null => prefixes.get(userId) ?? null,
    remember(userId: string, prefix: string | undefined): void {
      if (!prefix) {
        prefixes.delete(userId);
        return;
      }
      if (!prefixes.has(userId) && prefixes.size >= rememberedUsers) prefixes.delete(prefixes.keys().next().value!);
      prefixes.set(userId, prefix);
    },
    /** One check of `attempt` for `userId`; a right one issues `authorizationId` for `payment`. */
    async run(userId: string, attempt: PinAttempt, payment: ApprovedPaymentWire, authorizationId: string): Promise<PinVerdictRow> {
      const bound = boundPayment(payment);
      const [row] = await data.write((db) => db.$queryRaw<PinVerdictRow[]>`
        WITH v AS (
          SELECT * FROM pin_verdict(${userId}::uuid, ${attempt.checked}::text, ${attempt.right}::text, ${attempt.remade ?? null}::text,
            ${config.pinMaxAttempts}::int, ${config.pinLockSeconds}::int, ${config.pinLocksBeforeBlock}::int, ${config.pinLockMemorySeconds}::int)
        ), issued AS (
          INSERT INTO step_up_authorizations (id, user_id, expires_at, operation, from_account_id, amount_minor, payee_handle, payee_iban, payee_name)
          SELECT ${authorizationId}::uuid, ${userId}::uuid, now() + ${config.stepUpTtlSeconds}::int * interval '1 second',
            ${bound.operation}::text, ${bound.fromAccountId}::uuid, ${bound.amountMinor}::bigint, ${bound.toHandle}::text, ${bound.iban}::text, ${bound.beneficiaryName}::text
          FROM v WHERE v.verdict = 'right'
          RETURNING expires_at
        )
        SELECT v.verdict, v.attempts_left AS "attemptsLeft", v.locks, v.wait_seconds AS "waitSeconds", v.stored,
          to_char(issued.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "expiresAt"
        FROM v LEFT JOIN issued ON true`);
      if (!row) throw new Error('pin_verdict answered no row');
      return { ...row, attemptsLeft: Number(row.attemptsLeft), locks: Number(row.locks), waitSeconds: Number(row.waitSeconds) };
    },
  };
}
