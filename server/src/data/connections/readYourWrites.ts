/**
 * Read-your-writes marks (adr/0007): after a user's request writes, that
 * user's next requests read from the primary for READ_YOUR_WRITES_MS (5 s), so the page
 * they see after saving shows what they saved while the replica catches up.
 *
 * The store is pluggable: the in-memory one serves one API process; several API replicas
 * share marks through `databaseMarks` (a table on the primary). A write answers only once
 * its mark is committed (`markWithin`, adr/0078): the visitor's next request may land on
 * another process the moment the answer arrives.
 */
import type { Prisma } from '../../generated/prisma/client.ts';

/** Where the marks live. */
export interface ReadYourWritesStore {
  /** Records that `userId` wrote; their reads go to the primary until `until` (epoch ms). */
  markWrite(userId: string, until: number): Promise<void>;
  /** Until when (epoch ms) `userId` reads from the primary; 0 when there is no mark. */
  primaryUntil(userId: string): Promise<number>;
}

/** Marks in this process's memory, pruned as they expire. */
export function memoryMarks(now: () => number = Date.now): ReadYourWritesStore {
  const marks = new Map<string, number>();
  return {
    async markWrite(userId, until) {
      marks.set(userId, Math.max(until, marks.get(userId) ?? 0));
      if (marks.size > 10_000) for (const [id, at] of marks) if (at <= now()) marks.delete(id);
    },
    async primaryUntil(userId) {
      const until = marks.get(userId) ?? 0;
      if (until <= now()) marks.delete(userId);
      return until > now() ? until : 0;
    },
  };
}

/**
 * Marks in the `read_your_writes_marks` table on the primary (statements of its Prisma client),
 * shared by every API process. A mark commits without waiting for a synchronous standby or
 * its own WAL flush (`synchronous_commit = off` for its statement alone): it is a hint for a
 * few seconds, visible on the primary the moment it commits, and a crash that loses it only
 * sends a read to the replica; so a write that waits for its mark (adr/0078) does not pay a
 * second standby round trip.
 */
export function databaseMarks(primary: Prisma.TransactionClient): ReadYourWritesStore {
  return {
    async markWrite(userId, until) {
      await primary.$executeRaw`
        WITH hint AS (SELECT set_config('synchronous_commit', 'off', true))
        INSERT INTO read_your_writes_marks (user_id, primary_until)
        SELECT ${userId}::uuid, ${new Date(until).toISOString()}::timestamptz FROM hint
        ON CONFLICT (user_id) DO UPDATE SET primary_until = EXCLUDED.primary_until`;
    },
    async primaryUntil(userId) {
      const [mark] = await primary.$queryRaw<{ primaryUntil: Date }[]>`
        SELECT primary_until AS "primaryUntil" FROM read_your_writes_marks WHERE user_id = ${userId}::uuid`;
      const until = mark ? new Date(mark.primaryUntil).getTime() : 0;
      return until > Date.now() ? until : 0;
    },
  };
}

/** How a mark stood when its write answered: committed, still on its way, or failed. */
export type MarkOutcome = { readonly kind: 'landed' } | { readonly kind: 'late' } | { readonly kind: 'failed'; readonly error: unknown };

const landed: MarkOutcome = { kind: 'landed' };
const late: MarkOutcome = { kind: 'late' };

/**
 * Records `userId`'s mark in `store` and waits for it at most `waitMs` (the timeout chain's
 * `readYourWritesMarkWaitMs`). Never throws: the write it follows has committed, so its
 * answer must not become a failure because of a mark. A late mark is not cancelled; it
 * lands when it can.
 */
export async function markWithin(store: ReadYourWritesStore, userId: string, until: number, waitMs: number): Promise<MarkOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<MarkOutcome>((resolve) => (timer = setTimeout(resolve, waitMs, late)));
  const marked = store.markWrite(userId, until).then(
    () => landed,
    (error: unknown): MarkOutcome => ({ kind: 'failed', error }),
  );
  try {
    return await Promise.race([marked, waited]);
  } finally {
    clearTimeout(timer);
  }
}
