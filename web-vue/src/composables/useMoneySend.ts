/**
 * A money send as a page uses it: the key rules (useIdempotentMutation), the hint under
 * its button, the beforeunload question while a key is held, and its sentence in the
 * page's one alert slot.
 */
import { watch } from 'vue';
import type { Result } from '../api/result.ts';
import { problemMessage, sendMessages } from '../messages.ts';
import { usePageAlertStore } from '../stores/pageAlert.ts';
import { useBeforeUnload } from './useBeforeUnload.ts';
import { useIdempotentMutation, type MutationOptions } from './useIdempotentMutation.ts';
import { useSendHint } from './useSendHint.ts';

/** Wraps `send(payload, key)` for a page. */
export function useMoneySend<P, T>(send: (payload: P, key: string) => Promise<Result<T>>, options?: MutationOptions) {
  const mutation = useIdempotentMutation(send, options);
  const hint = useSendHint(mutation.pending, mutation.holdsKey);
  const alert = usePageAlertStore();
  useBeforeUnload(mutation.holdsKey);

  watch([mutation.phase, mutation.problem], ([phase, problem]) => {
    if (phase === 'pending' || phase === 'idle' || phase === 'succeeded' || phase === 'confirmed') alert.clear();
    else if (phase === 'wentThrough') alert.show(sendMessages.wentThrough);
    else if (phase === 'verifyRequired') alert.show(problem ? problemMessage(problem, 'moneySend') : sendMessages.editedWhileUnsure);
    else if (problem) alert.show(problemMessage(problem, 'moneySend'));
  });

  return { ...mutation, hint };
}
