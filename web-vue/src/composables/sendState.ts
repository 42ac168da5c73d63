/**
 * The state of one keyed send, as plain refs in one object, so a page can hand it to the
 * held-sends store when the visitor navigates away in the app and take it back when they
 * return: the key, the exact payload it was sent with, and what its answers said
 * (adr/0013). useIdempotentMutation runs on it; nothing else writes it.
 */
import { ref, shallowRef, type Ref, type ShallowRef } from 'vue';
import type { components } from '@tidewater/spec/openapi';
import type { ApiProblem } from '../api/apiProblem.ts';

/** A movement the listing by key returned. */
export type FoundMovement = components['schemas']['Transaction'];

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

/** One send's state. */
export interface SendState<P, T> {
  phase: Ref<SendPhase>;
  /** The key held now (pending or unsettled), else null. */
  key: Ref<string | null>;
  /** The payload the held key was first sent with; only it goes again under that key. */
  heldPayload: ShallowRef<P | null>;
  /** When the held key was first sent (Date.now()). */
  keySentAt: Ref<number | null>;
  data: ShallowRef<T | null>;
  problem: ShallowRef<ApiProblem | null>;
  /** The key to check by, once dropped; and when it was first sent. */
  lostKey: Ref<string | null>;
  lostKeySentAt: Ref<number | null>;
  /** What the check by key found. */
  found: ShallowRef<FoundMovement[]>;
}

/** A fresh state: nothing sent. */
export function createSendState<P, T>(): SendState<P, T> {
  return {
    phase: ref<SendPhase>('idle'),
    key: ref<string | null>(null),
    heldPayload: shallowRef<P | null>(null),
    keySentAt: ref<number | null>(null),
    data: shallowRef<T | null>(null),
    problem: shallowRef<ApiProblem | null>(null),
    lostKey: ref<string | null>(null),
    lostKeySentAt: ref<number | null>(null),
    found: shallowRef<FoundMovement[]>([]),
  };
}
