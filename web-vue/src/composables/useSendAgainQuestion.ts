/**
 * The "send it again?" question of a review (adr/0056): when the send under review moves
 * the same money to the same place as one that landed within the last minutes, in this tab
 * or another, the review asks before its button sends.
 */
import { computed } from 'vue';
import type { RepeatOf } from '../components/SendReview.vue';
import { useAccountsStore } from '../stores/accounts.ts';
import { sendAgainQuestion } from '../stores/heldSendLabel.ts';
import { useHeldSendsStore } from '../stores/heldSends.ts';
import type { SendIdentity } from '../stores/sameSend.ts';

/** `reviewed()` is the send under review (null while the form does not make one); the result is SendReview's `repeatOf`. */
export function useSendAgainQuestion(reviewed: () => SendIdentity | null) {
  const held = useHeldSendsStore();
  const accounts = useAccountsStore();
  return computed<RepeatOf | null>(() => {
    const send = reviewed();
    const landed = send ? held.landedLike(send) : undefined;
    return landed ? { key: landed.key, question: sendAgainQuestion(landed, (id) => accounts.byId(id)?.name) } : null;
  });
}
