/**
 * A money send and its Idempotency-Key (ADR-0059 decisions 8–9; DESIGN.md "Money").
 *
 * The key is made when a send starts and kept, with the exact payload it was sent with,
 * until the answer is known. While it is kept, sending again re-sends the SAME key and
 * payload (that control may say "Retrying won't charge you twice."). An edit while a key
 * is held, a rejection with no status, a 409 with no code or a reused key drop the key
 * and latch `verifyRequired`: the visitor checks by key before any new key is made.
 * The key lives only in this page; `holdsKey` drives the beforeunload question.
 */
import { computed, ref, shallowRef } from 'vue';
import type { ApiProblem } from '../api/apiProblem.ts';
import type { Result } from '../api/result.ts';
import { newIdempotencyKey } from './idempotencyKey.ts';
import { judgeSendProblem } from './sendOutcome.ts';

/** Where a send stands. */
export type SendPhase =
  /** Nothing sent, or the last answer released the key. */
  | 'idle'
  | 'pending'
  | 'succeeded'
  /** A known refusal: nothing moved; the key is released. */
  | 'rejected'
  /** May have landed; the key is held; only the same key may go again. */
  | 'unsettled'
  /** It landed but its answer was lost; no send is offered. */
  | 'wentThrough'
  /** The key was dropped while the outcome was unknown: check by key first. */
  | 'verifyRequired'
  /** The check by key found it. */
  | 'confirmed';

/** Options; tests inject the key maker and the clock. */
export interface MutationOptions {
  newKey?: () => string;
  now?: () => number;
}

/** Wraps `send(payload, key)` with the key rules. */
export function useIdempotentMutation<P, T>(send: (payload: P, key: string) => Promise<Result<T>>, options: MutationOptions = {}) {
  const makeKey = options.newKey ?? newIdempotencyKey;
  const now = options.now ?? (() => Date.now());
  const phase = ref<SendPhase>('idle');
  const key = ref<string | null>(null);
  const heldPayload = shallowRef<P | null>(null);
  const data = shallowRef<T | null>(null);
  const problem = shallowRef<ApiProblem | null>(null);
  /** The key to check by, once dropped; and when it was first sent. */
  const lostKey = ref<string | null>(null);
  const lostKeySentAt = ref<number | null>(null);
  let keySentAt: number | null = null;

  function dropKeyForCheck(): void {
    lostKey.value = key.value;
    lostKeySentAt.value = keySentAt;
    key.value = null;
    heldPayload.value = null;
    keySentAt = null;
    phase.value = 'verifyRequired';
  }

  function releaseKey(): void {
    key.value = null;
    heldPayload.value = null;
    keySentAt = null;
  }

  /**
   * Sends `payload`. With a key held, only the same payload goes, with the same key.
   * Refused (resolves null) while pending, after it went through, and until a required
   * check is done.
   */
  async function submit(payload: P): Promise<Result<T> | null> {
    if (phase.value === 'pending' || phase.value === 'wentThrough' || phase.value === 'verifyRequired' || phase.value === 'confirmed') return null;
    if (key.value !== null && JSON.stringify(payload) !== JSON.stringify(heldPayload.value)) {
      dropKeyForCheck(); // other details under a held key: an edit the page did not report
      return null;
    }
    if (key.value === null) {
      key.value = makeKey();
      heldPayload.value = payload;
      keySentAt = now();
    }
    const sentKey = key.value;
    phase.value = 'pending';
    problem.value = null;
    const result = await send(heldPayload.value as P, sentKey);
    if (result.data !== undefined || !result.error) {
      data.value = (result.data ?? null) as T | null;
      releaseKey();
      phase.value = 'succeeded';
      return result;
    }
    problem.value = result.error;
    const verdict = judgeSendProblem(result.error);
    if (verdict === 'rejected') {
      releaseKey();
      phase.value = 'rejected';
    } else if (verdict === 'wentThrough') {
      releaseKey();
      phase.value = 'wentThrough';
    } else if (verdict === 'verifyRequired') {
      dropKeyForCheck();
    } else {
      phase.value = 'unsettled';
    }
    return result;
  }

  /** Re-sends the held payload with the held key. */
  function resend(): Promise<Result<T> | null> {
    if (key.value === null || heldPayload.value === null) return Promise.resolve(null);
    return submit(heldPayload.value);
  }

  /** The visitor changed the details: while a key is held, it is dropped and a check is required. */
  function edited(): void {
    if (key.value === null || phase.value === 'pending') return;
    dropKeyForCheck();
    problem.value = null; // the reason now is the edit, not the last answer
  }

  /** The check by key answered: found (it landed) or settled-empty (it did not). */
  function checked(found: boolean): void {
    if (phase.value !== 'verifyRequired') return;
    phase.value = found ? 'confirmed' : 'idle';
    if (!found) problem.value = null;
  }

  /** Starts over for another send (after success, a known refusal, or a completed check). */
  function reset(): void {
    if (phase.value === 'pending' || phase.value === 'verifyRequired' || key.value !== null) return;
    phase.value = 'idle';
    data.value = null;
    problem.value = null;
    lostKey.value = null;
    lostKeySentAt.value = null;
  }

  return {
    phase,
    key,
    data,
    problem,
    lostKey,
    lostKeySentAt,
    /** A key is held: pending, or unsettled with the same key to re-send. */
    holdsKey: computed(() => key.value !== null),
    pending: computed(() => phase.value === 'pending'),
    /** The send control would re-send the same key (never true during the wait). */
    resendsSameKey: computed(() => phase.value === 'unsettled' && key.value !== null),
    /** Whether a new send may start now. */
    canSend: computed(() => phase.value === 'idle' || phase.value === 'rejected' || phase.value === 'unsettled' || phase.value === 'succeeded'),
    submit,
    resend,
    edited,
    checked,
    reset,
  };
}
