/**
 * The Idempotency-Keys of this process's money sends on their way to their one statement
 * (adr/0076): looking before they claim, or waiting in the account bulkhead, with nothing
 * of them in the database yet. A second request with such a key in this process answers
 * what the key's claim would answer (runMoneySend.ts): 409 IDEMPOTENCY_IN_FLIGHT for the
 * same request, 422 IDEMPOTENCY_KEY_REUSED for another; the key's read answers `inFlight`
 * (idempotencyKeyHandlers.ts). Once the statement runs, its advisory lock on the key answers
 * for every process (adr/0070), and its commit for good.
 *
 * Another process does not see this map: a duplicate sent to another worker while the first
 * waits runs its own statement, and the first then finds the key's answer (a replay or a
 * 409) in its own. Money moves once either way: the claim in the statement decides.
 */

/** What a send's key is held by: its customer, the key and the request's hash. */
interface KeyOnItsWay {
  readonly userId: string;
  readonly key: string;
  readonly requestHash: string;
}

/** The keys on their way in one process. */
export function keysOnTheirWay() {
  // (customer, key) → the hash of the request that holds it.
  const held = new Map<string, string>();
  const nameOf = (userId: string, key: string) => `${userId}/${key}`;
  return {
    /** The hash of the request that holds `key` of `userId` in this process, if one does. */
    holderOf: (userId: string, key: string): string | undefined => held.get(nameOf(userId, key)),

    /** Runs `send` holding the key, which no other request of this process holds (`holderOf`). */
    async hold<T>(request: KeyOnItsWay, send: () => Promise<T>): Promise<T> {
      const name = nameOf(request.userId, request.key);
      if (held.has(name)) throw new Error('a key already on its way was held again');
      held.set(name, request.requestHash);
      try {
        return await send();
      } finally {
        held.delete(name);
      }
    },
  };
}

/** The keys on their way in one process: the money sends hold them, the key's read sees them. */
export type KeysOnTheirWay = ReturnType<typeof keysOnTheirWay>;
