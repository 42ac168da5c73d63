/**
 * What the tabs of one browser tell each other about held sends (adr/0051): a
 * BroadcastChannel carries "the records changed" and "this send's outcome is known", and a
 * Web Lock per key lets only one tab send a key at a time (the API's 409 IN_FLIGHT stays
 * the backstop). Where the browser has neither (the unit tests' DOM), one tab is all there is.
 */

/** A held send's outcome, as learnt in some tab. */
export type HeldSendOutcome =
  /** It landed: the answer's body when the tab had it, else the movements the check by key found. */
  | { kind: 'landed'; data?: unknown; found?: unknown[] }
  /** Nothing moved: a known refusal, or the check by key settled it empty. */
  | { kind: 'notMoved' };

/** A message between tabs. */
export type HeldSendMessage =
  | { type: 'changed'; userId: string }
  | { type: 'settled'; userId: string; key: string; outcome: HeldSendOutcome; label: string };

const channelName = 'tidewater-held-sends';

/** Opens the channel; `onMessage` hears every other tab. Returns `post` and `close`. */
export function openHeldSendChannel(onMessage: (message: HeldSendMessage) => void) {
  if (typeof BroadcastChannel === 'undefined') return { post: (_message: HeldSendMessage) => undefined, close: () => undefined };
  const channel = new BroadcastChannel(channelName);
  channel.onmessage = (event: MessageEvent<HeldSendMessage>) => onMessage(event.data);
  return { post: (message: HeldSendMessage) => channel.postMessage(message), close: () => channel.close() };
}

/** What `inThisTabOnly` returns when another tab is sending the key right now. */
export const SENDING_ELSEWHERE = Symbol('sending elsewhere');

/**
 * Runs `send` holding the key's Web Lock, or returns SENDING_ELSEWHERE at once when another
 * tab holds it (never waits: that tab's answer will tell this one).
 */
export async function inThisTabOnly<T>(key: string, send: () => Promise<T>): Promise<T | typeof SENDING_ELSEWHERE> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return send();
  return locks.request(`tidewater-send:${key}`, { ifAvailable: true }, (lock) => (lock ? send() : SENDING_ELSEWHERE));
}

let leaving = false;
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => (leaving = true));
  window.addEventListener('pageshow', () => (leaving = false));
}

/**
 * True once this page is being unloaded (a reload, a closed tab): the browser then ends its
 * requests itself, and such an end says nothing about the send.
 */
export const pageIsLeaving = () => leaving;
