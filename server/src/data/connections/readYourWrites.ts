/**
 * Read-your-writes marks (adr/0007): after a user's request writes, that
 * user's next requests read from the primary for READ_YOUR_WRITES_MS (5 s), so the page
 * they see after saving shows what they saved while the replica catches up.
 *
 * The store is pluggable: the in-memory one serves one API process; several API replicas
 * share marks through `databaseMarks` (a table on the primary).
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

/** Marks in the `read_your_writes_marks` table on the primary (statements of its Prisma client), shared by every API process. */
export function databaseMarks(primary: Prisma.TransactionClient): ReadYourWritesStore {
  return {
    async markWrite(userId, until) {
      await primary.$executeRaw`
        INSERT INTO read_your_writes_marks (user_id, primary_until) VALUES (${userId}::uuid, ${new Date(until).toISOString()}::timestamptz)
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
