/**
 * A send that carries an Idempotency-Key, as a page uses it: the key rules
 * (useIdempotentMutation, with the verdicts of its kind), the hint under its button, the
 * beforeunload question while a key is held, its sentence in the page's one alert slot,
 * and its state kept with the page's own (its form) when the visitor leaves by an in-app
 * link before the answer is known, and taken back when they return (heldSends, adr/0013).
 */
import { onScopeDispose, watch } from 'vue';
import type { ApiProblem } from '../api/apiProblem.ts';
import type { Result } from '../api/result.ts';
import { openMessages, problemMessage, sendMessages, type SendKind } from '../messages.ts';
import { useHeldSendsStore } from '../stores/heldSends.ts';
import { usePageAlertStore } from '../stores/pageAlert.ts';
import type { SendVerdict } from './sendOutcome.ts';
import { createSendState } from './sendState.ts';
import { useBeforeUnload } from './useBeforeUnload.ts';
import { useIdempotentMutation, type MutationOptions } from './useIdempotentMutation.ts';
import { useSendHint } from './useSendHint.ts';

/** How a page's keyed send is held and worded. */
export interface KeyedSendOptions<K> extends MutationOptions {
  /** The page's identity among held sends, e.g. `deposit:<accountId>`. */
  holdAs: string;
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
export function useKeyedSend<P, T, K>(send: (payload: P, key: string) => Promise<Result<T>>, options: KeyedSendOptions<K>) {
  const held = useHeldSendsStore();
  const restored = held.take<P, T, K>(options.holdAs);
  const state = restored?.state ?? createSendState<P, T>();
  const kept = restored ? restored.kept : options.keep();
  const mutation = useIdempotentMutation(send, { ...options, state });
  const hint = useSendHint(mutation.pending, mutation.holdsKey);
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

  onScopeDispose(() => {
    const unknown = mutation.holdsKey.value || mutation.pending.value || mutation.phase.value === 'verifyRequired';
    if (unknown) held.keep(options.holdAs, { state, kept });
    else held.drop(options.holdAs);
  });

  return { ...mutation, hint, kept, restored: restored !== undefined };
}
