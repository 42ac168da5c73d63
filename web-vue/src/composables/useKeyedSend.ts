/**
 * A send that carries an Idempotency-Key, as a page uses it: the key rules
 * (useIdempotentMutation, with the verdicts of its kind), the hint under its button, the
 * beforeunload question while a key is held, its sentence in the page's one alert slot,
 * and its state kept with the page's own (its form) when the visitor leaves by an in-app
 * link before the answer is known, and taken back when they return (heldSends, adr/0013).
 *
 * Beyond the page (adr/0051): each send is recorded in the browser before it leaves and
 * goes only while no other tab sends its key; its known outcome forgets the record and is
 * told to every tab; an outcome learnt elsewhere settles this page's send too. The page's
 * `others` are the held sends of the same page that this state does not hold (a reload, a
 * tab, a sign-in ago): the page shows them (HeldSendNotices) above its form.
 */
import { computed, onScopeDispose, watch } from 'vue';
import type { ApiProblem } from '../api/apiProblem.ts';
import type { Result } from '../api/result.ts';
import { openMessages, problemMessage, sendMessages, type SendKind } from '../messages.ts';
import type { HeldOperation } from '../stores/heldSendRecords.ts';
import { inThisTabOnly, pageIsLeaving, SENDING_ELSEWHERE } from '../stores/heldSendTabs.ts';
import { useHeldSendsStore } from '../stores/heldSends.ts';
import { usePageAlertStore } from '../stores/pageAlert.ts';
import { useSessionStore } from '../stores/session.ts';
import { judgeSendProblem, type SendVerdict } from './sendOutcome.ts';
import { createSendState } from './sendState.ts';
import { useBeforeUnload } from './useBeforeUnload.ts';
import { useIdempotentMutation, type MutationOptions } from './useIdempotentMutation.ts';
import { sendMoment, sendWords } from './sendWords.ts';
import { useOnline } from './useOnline.ts';
import { useWaitPhase } from './useWaitPhase.ts';

/** How a page's keyed send is held and worded. */
export interface KeyedSendOptions<P, K> extends MutationOptions {
  /** The page's identity among held sends, e.g. `deposit:<accountId>`. */
  holdAs: string;
  /** Which request sends it (a held send is sent again by it from any page). */
  operation: HeldOperation;
  /** The account this payload moves money into or out of (null: opening an account). */
  accountOf: (payload: P) => string | null;
  /** Makes the page's own state to keep with the key (its form), unless a held one is taken back. */
  keep: () => K;
  /** Whose words its problems take. */
  context: 'moneySend' | 'openAccount';
  /** A money send's name, for the sentences that name it. */
  kind?: SendKind;
  /** What an answer means for the key (default: a money send's). */
  judge?: (problem: ApiProblem) => SendVerdict;
}

/** Wraps `send(payload, key)` for a page. */
export function useKeyedSend<P, T, K>(send: (payload: P, key: string) => Promise<Result<T>>, options: KeyedSendOptions<P, K>) {
  const held = useHeldSendsStore();
  const restored = held.take<P, T, K>(options.holdAs);
  const state = restored?.state ?? createSendState<P, T>();
  const kept = restored ? restored.kept : options.keep();
  const judge = options.judge ?? judgeSendProblem;

  const session = useSessionStore();
  let onScreen = true;
  /**
   * Whether this page shows the outcome itself: it is on screen, or kept for the visitor's
   * return in this tab, and no sign-out is closing it. A page a sign-out drops shows nothing
   * the visitor reads, so its outcome must stand as a receipt on whatever page the customer
   * meets next (adr/0074).
   */
  const showsItsOwn = () => !session.signingOut && (onScreen || held.take(options.holdAs)?.state === state);

  /** Records the send, sends it unless another tab sends the key, and settles the record by the answer. */
  async function sendRecorded(payload: P, key: string): Promise<Result<T>> {
    try {
      held.record({ key, operation: options.operation, holdAs: options.holdAs, accountId: options.accountOf(payload), payload, firstSentAt: Date.now(), checkFirst: false });
    } catch {
      // The browser refused to store it (full, or storage switched off): the send still goes,
      // held by this page alone as before (the browser asks before unloading).
    }
    const result = await inThisTabOnly(key, () => send(payload, key));
    if (result === SENDING_ELSEWHERE) return { error: { code: 'SENDING_ELSEWHERE', status: null } };
    if (pageIsLeaving()) return result; // the unload ended it: the record stays as it was
    if (!result.error) held.settle(key, { kind: 'landed', data: result.data }, showsItsOwn());
    else {
      const verdict = judge(result.error);
      if (verdict === 'rejected') held.settle(key, { kind: 'notMoved' });
      else if (verdict === 'wentThrough') held.settle(key, { kind: 'landed' }, showsItsOwn());
      else if (verdict === 'verifyRequired') held.mustCheck(key);
    }
    return result;
  }

  const mutation = useIdempotentMutation(sendRecorded, { ...options, state });
  const wait = useWaitPhase(mutation.pending);
  const online = useOnline();
  /** The send's words now (sendWords.ts): the review's sentence and the one hint. */
  const words = computed(() => sendWords(sendMoment(mutation.phase.value, wait.phase.value, online.value)));
  const hint = computed(() => words.value.hint);
  const alert = usePageAlertStore();
  useBeforeUnload(mutation.holdsKey);

  watch(
    [mutation.phase, mutation.problem],
    ([phase, problem]) => {
      if (phase === 'pending' || phase === 'idle' || phase === 'succeeded' || phase === 'confirmed') alert.clear();
      // A money send says it went through on its receipt, focused; an opened account in the bar.
      else if (phase === 'wentThrough') {
        if (options.context === 'openAccount') alert.show(openMessages.wentThrough);
        else alert.clear();
      } else if (phase === 'verifyRequired') alert.show(problem ? problemMessage(problem, options.context, options.kind) : sendMessages.editedWhileUnsure);
      else if (problem) alert.show(problemMessage(problem, options.context, options.kind));
    },
    { immediate: true },
  );

  // The page's check by key settles a dropped key: found, or settled empty.
  watch(mutation.phase, (phase) => {
    const lost = state.lostKey.value;
    if (lost === null) return;
    if (phase === 'confirmed') held.settle(lost, { kind: 'landed', found: state.found.value }, showsItsOwn());
    else if (phase === 'idle') held.settle(lost, { kind: 'notMoved' });
  });

  // An outcome learnt in another tab, or by a held send's own controls.
  const tracked = computed(() => state.key.value ?? state.lostKey.value);
  watch(
    () => (tracked.value === null ? undefined : held.outcomes.get(tracked.value)),
    (outcome) => {
      if (outcome) mutation.learnt(outcome);
    },
    { immediate: true },
  );

  /** This page's held sends that this state does not hold. */
  const others = computed(() => held.records.filter((record) => record.holdAs === options.holdAs && record.key !== tracked.value));

  onScopeDispose(() => {
    onScreen = false;
    const unknown = mutation.holdsKey.value || mutation.pending.value || mutation.phase.value === 'verifyRequired';
    if (unknown) held.keep(options.holdAs, { state, kept });
    else held.drop(options.holdAs);
  });

  return { ...mutation, hint, words, kept, others, restored: restored !== undefined };
}
