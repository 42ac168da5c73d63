/**
 * A money send and its Idempotency-Key (adr/0009; adr/0010).
 *
 * The key is made when a send starts and kept, with the exact payload it was sent with,
 * until the answer is known. While it is kept, sending again re-sends the SAME key and
 * payload (that control may say "Retrying won't charge you twice."). An edit while a key
 * is held, a rejection with no status, a 409 with no code or a reused key drop the key
 * and latch `verifyRequired`: the visitor checks by key before any new key is made.
 * The state lives with the page (sendState.ts; useKeyedSend keeps it across an in-app
 * navigation); `holdsKey` drives the beforeunload question.
 */
import { computed } from 'vue';
import type { ApiProblem } from '../api/apiProblem.ts';
import type { Result } from '../api/result.ts';
import { newIdempotencyKey } from './idempotencyKey.ts';
import { createSendState, type FoundMovement, type SendState } from './sendState.ts';
import { judgeSendProblem, type SendVerdict } from './sendOutcome.ts';
import type { HeldSendOutcome } from '../stores/heldSendTabs.ts';

export type { SendPhase } from './sendState.ts';

/** Options; tests inject the key maker and the clock. */
export interface MutationOptions {
  newKey?: () => string;
  now?: () => number;
}

/** What the mutation runs on: its state (kept by a page across navigations) and the verdict rules. */
export interface MutationSetup<P, T> extends MutationOptions {
  /** The state to run on (useKeyedSend restores a held one); fresh by default. */
  state?: SendState<P, T>;
  /** What an answer means for the key (default: a money send's, judgeSendProblem). */
  judge?: (problem: ApiProblem) => SendVerdict;
}

/** Wraps `send(payload, key)` with the key rules. */
export function useIdempotentMutation<P, T>(send: (payload: P, key: string) => Promise<Result<T>>, options: MutationSetup<P, T> = {}) {
  const makeKey = options.newKey ?? newIdempotencyKey;
  const now = options.now ?? (() => Date.now());
  const judge = options.judge ?? judgeSendProblem;
  const state = options.state ?? createSendState<P, T>();
  const { phase, key, heldPayload, data, problem, lostKey, lostKeySentAt, keySentAt, found } = state;

  function dropKeyForCheck(): void {
    lostKey.value = key.value;
    lostKeySentAt.value = keySentAt.value;
    key.value = null;
    heldPayload.value = null;
    keySentAt.value = null;
    phase.value = 'verifyRequired';
  }

  function releaseKey(): void {
    key.value = null;
    heldPayload.value = null;
    keySentAt.value = null;
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
      keySentAt.value = now();
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
    const verdict = judge(result.error);
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

  /** The check by key answered: found (it landed, with what it wrote) or settled-empty (it did not). */
  function checked(wasFound: boolean, movements: FoundMovement[] = []): void {
    if (phase.value !== 'verifyRequired') return;
    found.value = wasFound ? movements : [];
    phase.value = wasFound ? 'confirmed' : 'idle';
    if (!wasFound) problem.value = null;
  }

  /**
   * The outcome of the held (or dropped) key was learnt elsewhere: another tab, or a held
   * send's own controls (adr/0051). This tab's own request, while it runs, answers for itself.
   */
  function learnt(outcome: HeldSendOutcome): void {
    if (phase.value === 'pending') return;
    releaseKey();
    problem.value = null;
    if (outcome.kind === 'notMoved') {
      lostKey.value = null;
      lostKeySentAt.value = null;
      phase.value = 'idle';
    } else if (outcome.data !== undefined) {
      data.value = outcome.data as T;
      phase.value = 'succeeded';
    } else if (outcome.found && outcome.found.length > 0) {
      found.value = outcome.found as FoundMovement[];
      phase.value = 'confirmed';
    } else phase.value = 'wentThrough';
  }

  /** Starts over for another send (after success, a known refusal, or a completed check). */
  function reset(): void {
    if (phase.value === 'pending' || phase.value === 'verifyRequired' || key.value !== null) return;
    phase.value = 'idle';
    data.value = null;
    problem.value = null;
    lostKey.value = null;
    lostKeySentAt.value = null;
    found.value = [];
  }

  return {
    state,
    phase,
    key,
    data,
    problem,
    lostKey,
    lostKeySentAt,
    /** What the check by key found, once it found the send. */
    found,
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
    learnt,
    reset,
  };
}
