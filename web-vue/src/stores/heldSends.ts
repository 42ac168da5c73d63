/**
 * Keyed sends whose answer is not known yet (adr/0013, adr/0051), in two forms:
 *
 * - **kept**: the page's send state (its Idempotency-Key, the payload, the answers so far)
 *   and its form, by the page's identity (`deposit:<accountId>`, `transfer`, …), while the
 *   visitor is elsewhere in this tab; the page takes them back on return.
 * - **records**: what survives the page (heldSendRecords.ts), written before each send
 *   leaves, for the signed-in customer: after a reload, in another tab, after a restart or
 *   the next sign-in, every page names them (HeldSendNotices) with their two safe next
 *   steps, check by key and send again with the same key. An outcome learnt in one tab is
 *   told to every tab (heldSendTabs.ts) and forgets the record; no two tabs send one key
 *   at once.
 *
 * - **landed**: what this browser learnt had landed (landedSends.ts), shared by the tabs
 *   like the records: a review of the same money to the same payee asks before it sends
 *   again, and an outcome no page showed stands as a receipt until dismissed (adr/0065).
 *
 * Signing out drops what is kept in the tab; the records stay in the browser, per
 * customer, until their outcome is known or they expire (the trade-off: adr/0051).
 */
import { defineStore } from 'pinia';
import { computed, onScopeDispose, ref, shallowReactive, shallowRef, watch } from 'vue';
import type { ApiProblem } from '../api/apiProblem.ts';
import type { Result } from '../api/result.ts';
import type { SendState } from '../composables/sendState.ts';
import { judgeOpenProblem, judgeSendProblem } from '../composables/sendOutcome.ts';
import { useBeforeUnload } from '../composables/useBeforeUnload.ts';
import { SEND_SETTLES_AFTER_MS } from '../api/timings.ts';
import { checkMessages, heldMessages, openMessages, problemMessage, sendMessages } from '../messages.ts';
import { useAccountsStore } from './accounts.ts';
import { heldSendLabel } from './heldSendLabel.ts';
import { heldSendsEntry, putHeldSend, readHeldSends, rememberSettled, removeHeldSend, settledKeys, type HeldSendRecord } from './heldSendRecords.ts';
import { dismissLandedSend, landedSendsEntry, putLandedSend, readLandedSends, sendingTab, ASK_AGAIN_WITHIN_MS, type LandedSend } from './landedSends.ts';
import { isSameSend, type SendIdentity } from './sameSend.ts';
import { inThisTabOnly, openHeldSendChannel, SENDING_ELSEWHERE, type HeldSendMessage, type HeldSendOutcome } from './heldSendTabs.ts';
import { useSessionStore } from './session.ts';
import { useTransfersStore, type DepositBody, type ExternalTransferBody, type InternalTransferBody, type WithdrawalBody } from './transfers.ts';

export type { HeldSendRecord } from './heldSendRecords.ts';
export type { HeldSendOutcome } from './heldSendTabs.ts';
export type { LandedSend } from './landedSends.ts';

/** One send kept in this tab: its state and the page's own. */
export interface HeldSend<P = unknown, T = unknown, K = unknown> {
  state: SendState<P, T>;
  kept: K;
}

type TransferPayload = { kind: 'internal'; body: InternalTransferBody } | { kind: 'external'; body: ExternalTransferBody };

export const useHeldSendsStore = defineStore('heldSends', () => {
  const session = useSessionStore();
  const accounts = useAccountsStore();
  const transfers = useTransfersStore();
  /** Whose records these are: null while nobody is signed in ('' before the profile is known). */
  const userId = computed(() => (session.status === 'signedIn' ? (session.user?.id ?? '') : null));

  // --- kept in this tab ---
  const held = shallowReactive(new Map<string, HeldSend>());
  /** Some kept send's answer is still unknown (an answer that arrived since needs no question). */
  const unknown = computed(() =>
    [...held.values()].some(({ state }) => state.key.value !== null || state.phase.value === 'pending' || state.phase.value === 'verifyRequired'),
  );
  useBeforeUnload(unknown);

  // --- records, shared by the tabs ---
  const stored = ref<HeldSendRecord[]>([]);
  /** Outcomes learnt (here or in another tab) since this tab started, by key. */
  const outcomes = shallowReactive(new Map<string, HeldSendOutcome>());
  /** The customer's held sends; one whose outcome a tab told is gone before the storage says so. */
  const records = computed(() => stored.value.filter((record) => !outcomes.has(record.key)));
  /**
   * The last outcome learnt that no page of this tab shows itself, for the notices' status
   * region: a new object each time, so the page on screen when it is learnt says it (and
   * no later page does).
   */
  const announcement = shallowRef<{ text: string } | null>(null);
  /** What each record's own controls last said, by key. */
  const said = shallowReactive(new Map<string, string>());
  /** Keys this tab is checking or sending now, at the visitor's word. */
  const busy = shallowReactive(new Set<string>());
  /** Keys useHeldSendResolver is looking up now. */
  const lookingQuietly = new Set<string>();

  /** The sends this browser learnt had landed, newest first. */
  const landed = ref<LandedSend[]>([]);
  const thisTab = sendingTab();

  const storage = (): Storage | null => (typeof localStorage === 'undefined' ? null : localStorage);
  function reload(): void {
    const store = storage();
    stored.value = store && userId.value ? readHeldSends(store, userId.value) : [];
    landed.value = store && userId.value ? readLandedSends(store, userId.value) : [];
  }
  const channel = openHeldSendChannel(heard);
  // Another tab's write reaches this one's storage after its message may have: read again then too.
  const storageChanged = (event: StorageEvent) => {
    if (userId.value && (event.key === heldSendsEntry(userId.value) || event.key === landedSendsEntry(userId.value))) reload();
  };
  if (typeof window !== 'undefined') window.addEventListener('storage', storageChanged);
  onScopeDispose(() => {
    channel.close();
    if (typeof window !== 'undefined') window.removeEventListener('storage', storageChanged);
  });
  watch(
    userId,
    (id) => {
      if (id === null) {
        held.clear();
        said.clear();
        announcement.value = null;
      }
      reload();
    },
    { immediate: true },
  );

  function heard(message: HeldSendMessage): void {
    if (message.userId !== userId.value) return;
    if (message.type === 'settled') learn(message.key, message.outcome, message.label);
    reload();
  }

  function learn(key: string, outcome: HeldSendOutcome, label: string, announce = true): void {
    outcomes.set(key, outcome);
    said.delete(key);
    // An outcome is said with what it was about, or not at all (never a bare ": it went through.").
    if (announce && label) announcement.value = { text: outcome.kind === 'landed' ? heldMessages.landed(label) : heldMessages.notMoved(label) };
  }

  const labelOf = (record: Pick<HeldSendRecord, 'operation' | 'accountId' | 'payload'>) => heldSendLabel(record, (id) => accounts.byId(id)?.name);

  /**
   * Records a send before it leaves (the same key again keeps its first-sent time). Throws
   * when the browser cannot store it, so nothing leaves unrecorded.
   */
  function record(entry: HeldSendRecord): void {
    const store = storage();
    if (!store || !userId.value) return;
    putHeldSend(store, userId.value, entry);
    reload();
    channel.post({ type: 'changed', userId: userId.value });
  }

  /** The key's answer said to check before anything else. */
  function mustCheck(key: string): void {
    const entry = records.value.find((held) => held.key === key);
    if (entry) record({ ...entry, checkFirst: true });
  }

  /**
   * The key's outcome is known: forget its record and tell every tab (once). A landing is
   * kept among the landed sends; `shownHere` says this tab's page shows its own receipt.
   */
  function settle(key: string, outcome: HeldSendOutcome, shownHere = false): void {
    if (outcomes.has(key)) return;
    const entry = records.value.find((held) => held.key === key);
    // A key the signed-in customer holds no record of is not this tab's to tell: nobody is
    // signed in (an answer that came after a sign-out), or someone else is. Its record stays
    // with the customer who sent it, whose next sign-in looks it up and names it (adr/0074).
    if (!entry) return;
    const label = labelOf(entry);
    learn(key, outcome, label, !shownHere); // a page that shows its own outcome says it there
    const store = storage();
    if (!store || !userId.value) return;
    if (outcome.kind === 'landed') putLandedSend(store, userId.value, landedFrom(entry, outcome, shownHere));
    removeHeldSend(store, userId.value, key);
    rememberSettled(store, userId.value, key);
    reload();
    channel.post({ type: 'settled', userId: userId.value, key, outcome, label });
  }

  function landedFrom(entry: HeldSendRecord, outcome: HeldSendOutcome & { kind: 'landed' }, shownHere: boolean): LandedSend {
    const answer = (outcome.data ?? outcome.found?.[0] ?? null) as { id?: unknown; transferId?: unknown } | null;
    const id = answer?.transferId ?? answer?.id;
    return {
      key: entry.key,
      operation: entry.operation,
      holdAs: entry.holdAs,
      accountId: entry.accountId,
      payload: entry.payload,
      landedAt: Date.now(),
      movementId: typeof id === 'string' ? id : null,
      shownIn: shownHere ? thisTab : null,
      dismissed: false,
    };
  }

  /** The landed sends whose receipt no page of this tab showed and nobody dismissed: they stand until dismissed. */
  const receipts = computed(() => landed.value.filter((entry) => !entry.dismissed && entry.shownIn !== thisTab));

  /** Dismisses `key`'s receipt, in every tab. */
  function dismiss(key: string): void {
    const store = storage();
    if (!store || !userId.value) return;
    dismissLandedSend(store, userId.value, key);
    reload();
    channel.post({ type: 'changed', userId: userId.value });
  }

  /** The newest send that landed within ASK_AGAIN_WITHIN_MS moving the same money to the same place as `send`, if any. */
  function landedLike(send: SendIdentity): LandedSend | undefined {
    const since = Date.now() - ASK_AGAIN_WITHIN_MS;
    return landed.value.find((entry) => entry.landedAt >= since && isSameSend(entry, send));
  }

  /** Sends `entry`'s payload with its key, as its page would, in this tab only. */
  function sendAs(entry: HeldSendRecord): Promise<Result<unknown>> {
    const payload = entry.payload;
    switch (entry.operation) {
      case 'deposit':
        return transfers.deposit(entry.accountId ?? '', payload as DepositBody, entry.key);
      case 'withdraw':
        return transfers.withdraw(entry.accountId ?? '', payload as WithdrawalBody, entry.key);
      case 'openAccount':
        return accounts.open((payload as { name: string }).name, entry.key);
      case 'transfer': {
        const transfer = payload as TransferPayload;
        return transfer.kind === 'internal' ? transfers.transferInternal(transfer.body, entry.key) : transfers.transferExternal(transfer.body, entry.key);
      }
    }
  }

  /** "Send it again safely": the same key, the same payload; only one tab at a time. */
  async function sendAgain(entry: HeldSendRecord): Promise<void> {
    if (busy.has(entry.key) || entry.checkFirst) return;
    busy.add(entry.key);
    said.delete(entry.key);
    try {
      const result = await inThisTabOnly(entry.key, () => sendAs(entry));
      if (result === SENDING_ELSEWHERE) return void said.set(entry.key, heldMessages.sendingElsewhere);
      if (!result.error) return settle(entry.key, { kind: 'landed', data: result.data });
      verdictOn(entry, result.error);
    } finally {
      busy.delete(entry.key);
    }
  }

  function verdictOn(entry: HeldSendRecord, problem: ApiProblem): void {
    const verdict = (entry.operation === 'openAccount' ? judgeOpenProblem : judgeSendProblem)(problem);
    if (verdict === 'rejected') return settle(entry.key, { kind: 'notMoved' });
    if (verdict === 'wentThrough') return settle(entry.key, { kind: 'landed' });
    if (verdict === 'verifyRequired') mustCheck(entry.key);
    said.set(entry.key, problemMessage(problem, entry.operation === 'openAccount' ? 'openAccount' : 'moneySend'));
  }

  /**
   * "Check whether it went through": asks the bank what it holds for the key, sends nothing.
   * Nothing held before the send could have settled (65 s) is not final: it may still arrive.
   * `quiet`: said nothing but an outcome (the look-ups nobody asked for).
   */
  async function check(entry: HeldSendRecord, options: { quiet?: boolean } = {}): Promise<void> {
    // A quiet look-up never marks the record busy: the visitor's own buttons stay usable meanwhile.
    const running = options.quiet ? lookingQuietly : busy;
    if (busy.has(entry.key) || running.has(entry.key)) return;
    running.add(entry.key);
    if (!options.quiet) said.delete(entry.key);
    // A quiet look-up (useHeldSendResolver's) says only an outcome; the visitor's own says every answer.
    const say = (words: string) => void (options.quiet || said.set(entry.key, words));
    try {
      const { data, error } = await transfers.keyStatus(entry.key);
      if (error) return say(problemMessage(error, 'read'));
      if (data.state === 'landed') return settle(entry.key, data.answer ? { kind: 'landed', data: data.answer.body } : { kind: 'landed' });
      if (data.state === 'refused') return settle(entry.key, { kind: 'notMoved' });
      if (data.state === 'inFlight') return say(entry.operation === 'openAccount' ? openMessages.inFlight : sendMessages.inFlight);
      if (Date.now() < entry.firstSentAt + SEND_SETTLES_AFTER_MS) return say(checkMessages.notYet);
      settle(entry.key, { kind: 'notMoved' });
    } finally {
      running.delete(entry.key);
    }
  }

  /** The send kept for the page `id`, if any. */
  function take<P, T, K>(id: string): HeldSend<P, T, K> | undefined {
    return held.get(id) as HeldSend<P, T, K> | undefined;
  }

  /** Keeps `send` for the page `id` (the page is being left with its answer unknown). */
  function keep(id: string, send: HeldSend): void {
    held.set(id, send);
  }

  /** Forgets the page `id`'s send (its answer is known). */
  function drop(id: string): void {
    held.delete(id);
  }

  /** Keys whose outcome this browser knows or holds a record of: the bank's recent sends need not name them. */
  function knownHere(key: string): boolean {
    const store = storage();
    if (outcomes.has(key) || stored.value.some((record) => record.key === key)) return true;
    return store !== null && userId.value !== null && settledKeys(store, userId.value).has(key);
  }

  return {
    knownHere,
    take,
    keep,
    drop,
    count: computed(() => held.size),
    unknown,
    records,
    outcomes,
    receipts,
    dismiss,
    landedLike,
    announcement,
    said,
    busy,
    labelOf,
    record,
    mustCheck,
    settle,
    sendAgain,
    check,
  };
});
