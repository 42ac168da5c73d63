/**
 * The "send it again?" question of a review (adr/0065): when the send under review moves
 * the same money to the same place as one that landed within the last minutes, in this tab
 * or another, the review asks before its button sends. When it is the same as a held send
 * still in doubt (adr/0067) the review does not send at all: that send's own "Send it again
 * safely" goes with its key; any other amount or payee goes as usual.
 */
import { computed } from 'vue';
import type { RepeatOf } from '../components/SendReview.vue';
import { useAccountsStore } from '../stores/accounts.ts';
import { heldMessages } from '../messages.ts';
import { sendAgainQuestion, startedAt } from '../stores/heldSendLabel.ts';
import { useHeldSendsStore, type HeldSendRecord } from '../stores/heldSends.ts';
import { isSameSend, type SendIdentity } from '../stores/sameSend.ts';

/**
 * `reviewed()` is the send under review (null while the form does not make one), `others()`
 * the page's held sends it does not hold itself; the result is SendReview's `repeatOf`.
 */
export function useSendAgainQuestion(reviewed: () => SendIdentity | null, others: () => HeldSendRecord[]) {
  const held = useHeldSendsStore();
  const accounts = useAccountsStore();
  return computed<RepeatOf | null>(() => {
    const send = reviewed();
    if (!send) return null;
    const inDoubt = others().find((record) => isSameSend(record, send));
    if (inDoubt) return { key: inDoubt.key, question: heldMessages.sameInDoubt(held.labelOf(inDoubt), startedAt(inDoubt.firstSentAt)), answerable: false };
    const landed = held.landedLike(send);
    return landed ? { key: landed.key, question: sendAgainQuestion(landed, (id) => accounts.byId(id)?.name), answerable: true } : null;
  });
}
