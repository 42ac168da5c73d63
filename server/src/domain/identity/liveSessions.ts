/**
 * Whether an access token's session is still alive (issue 54, adr/0064; RFC 7009's
 * revocation reaching the access token too): a session is a refresh-token family (`fam`),
 * alive while one of its refresh tokens is not revoked. Sign-out, a revoked refresh token
 * and a spent token that comes back revoke the family, so its access tokens end with it,
 * not at their 900 s expiry.
 *
 * Checked on every authenticated request, so it is cached per process: a family found
 * alive is asked again after ACCESS_TOKEN_RECHECK_SECONDS (2); one found ended stays ended
 * (a family never comes back). Concurrent requests of one family share one query. The cost
 * is at most one indexed read (`refresh_tokens (family_id)`) per active session per recheck
 * period per process; an ending this process made (`ended`) is known at once.
 */
import type { DataLayer } from '../../data/dataLayer.ts';

interface Checked {
  alive: Promise<boolean>;
  checkedAtMs: number;
}

/** The per-process memory of sessions' liveness; `entries` bounds it (oldest first out). */
export function liveSessions(data: DataLayer, recheckSeconds: number, entries: number) {
  const checked = new Map<string, Checked>();

  function remember(familyId: string, entry: Checked): void {
    checked.delete(familyId);
    if (checked.size >= entries) checked.delete(checked.keys().next().value!);
    checked.set(familyId, entry);
  }

  async function ask(familyId: string): Promise<boolean> {
    const rows = await data.read((db) => db.$queryRaw<unknown[]>`
      SELECT 1 FROM refresh_tokens WHERE family_id = ${familyId}::uuid AND revoked_at IS NULL LIMIT 1`);
    return rows.length > 0;
  }

  return {
    /** True while the family has an unrevoked refresh token (as of at most `recheckSeconds` ago). */
    async isAlive(familyId: string): Promise<boolean> {
      const known = checked.get(familyId);
      if (known && Date.now() - known.checkedAtMs < recheckSeconds * 1000) return known.alive;
      const alive = ask(familyId);
      remember(familyId, { alive, checkedAtMs: Date.now() });
      // A failed read is not remembered: the next request asks again.
      alive.then(
        (isAlive) => {
          if (!isAlive) remember(familyId, { alive, checkedAtMs: Infinity });
        },
        () => checked.delete(familyId),
      );
      return alive;
    },
    /** This process ended these families (sign-out, reuse detection): their tokens die here at once. */
    ended(familyIds: readonly string[]): void {
      for (const familyId of familyIds) remember(familyId, { alive: Promise.resolve(false), checkedAtMs: Infinity });
    },
  };
}

/** The live-session check's type. */
export type LiveSessions = ReturnType<typeof liveSessions>;
