/**
 * A money send as a page uses it: a keyed send (useKeyedSend) with a money send's key
 * rules and words, named by its kind, held with the page's form across in-app navigations.
 */
import type { Result } from '../api/result.ts';
import type { SendKind } from '../messages.ts';
import type { HeldOperation } from '../stores/heldSendRecords.ts';
import { useKeyedSend } from './useKeyedSend.ts';
import type { MutationOptions } from './useIdempotentMutation.ts';

/** Wraps `send(payload, key)` for a money page: `holdAs` names the page, `keep` makes its form, `accountOf` names the account it moves money into or out of. */
export function useMoneySend<P, T, K>(
  send: (payload: P, key: string) => Promise<Result<T>>,
  options: MutationOptions & { holdAs: string; kind: SendKind; operation: Exclude<HeldOperation, 'openAccount'>; accountOf: (payload: P) => string | null; keep: () => K },
) {
  return useKeyedSend(send, { ...options, context: 'moneySend' });
}

/** What the send's own controls (SendFooter, SendCheck) read of a money send, whatever its payload. */
export type MoneySendView = Pick<ReturnType<typeof useMoneySend<never, unknown, unknown>>, 'phase' | 'pending' | 'resendsSameKey' | 'hint' | 'words' | 'lostKey' | 'lostKeySentAt' | 'checked' | 'others'>;
