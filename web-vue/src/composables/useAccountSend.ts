/**
 * A money send into or out of one account (deposit, withdrawal): the account's read and its
 * alert, the money send (useMoneySend) kept with its amount-and-note form, that form's
 * checks, its review (adr/0050: the form's submit only reviews; the review's button sends),
 * and the account read again once a send succeeded. AccountSendForm renders it; the page
 * says where a confirmed body goes (a withdrawal asks for the PIN first). A withdrawal of
 * more than the shown balance is refused at the amount before any PIN, and a refusal the
 * server words about a field lands at that field.
 */
import { computed, nextTick, onMounted, reactive, ref, watch } from 'vue';
import type { Result } from '../api/result.ts';
import { fieldMessages, problemMessage, type SendKind } from '../messages.ts';
import { formatMinor, parseAmount } from '../money.ts';
import { useAccountsStore } from '../stores/accounts.ts';
import { usePageAlertStore } from '../stores/pageAlert.ts';
import type { Transaction } from '../stores/transfers.ts';
import { amountError } from './amountField.ts';
import { focusFirstError } from './formFocus.ts';
import { problemField } from './problemField.ts';
import { useMoneySend, type MoneySendView } from './useMoneySend.ts';
import { useRead } from './useRead.ts';
import { useReadAlert } from './useReadAlert.ts';

/** `props.accountId` is read when needed; `holdAs` names the page among held sends. */
export function useAccountSend<B>(props: { accountId: string }, sendTo: (body: B, key: string) => Promise<Result<Transaction>>, options: { holdAs: string; kind: SendKind }) {
  const accounts = useAccountsStore();
  const account = computed(() => accounts.byId(props.accountId));
  const accountRead = useRead((signal) => accounts.loadOne(props.accountId, signal));
  /** The account read's wait: its alert, and Stop from 20 s. */
  const wait = useReadAlert([accountRead]);
  onMounted(() => void accountRead.run());

  const operation = options.kind === 'deposit' ? 'deposit' : 'withdraw';
  const send = useMoneySend(sendTo, {
    ...options,
    operation,
    accountOf: () => props.accountId,
    // `reviewing`: the review stands in place of the form (kept with it across in-app navigations).
    keep: () => ({ form: reactive({ amount: '', description: '' }), reviewing: ref(false) }),
  });
  const { form, reviewing } = send.kept;
  const errors = reactive({ amount: '', description: '' });
  const fieldIds = { amount: 'amount', description: 'description' };
  watch(
    () => [form.amount, form.description],
    () => send.edited(),
  );

  /** The form's amount and note as a body, or null (its errors shown, the first focused). */
  function readForm(): { amountMinor: number; description?: string } | null {
    const amount = parseAmount(form.amount);
    errors.amount = amount.ok ? '' : amountError(amount.reason);
    const shown = account.value;
    if (amount.ok && options.kind === 'withdrawal' && shown && amount.minor > shown.balanceMinor) errors.amount = fieldMessages.moreThanBalance(formatMinor(shown.balanceMinor), shown.name);
    errors.description = form.description.length > 140 ? fieldMessages.description : '';
    if (focusFirstError(errors, fieldIds) || !amount.ok) return null;
    const description = form.description.trim();
    return { amountMinor: amount.minor, ...(description ? { description } : {}) };
  }

  /** The form's submit (a button or Enter): once it passes, the review stands in its place. Nothing is sent. */
  function review(): void {
    if (send.pending.value) return;
    if (readForm()) reviewing.value = true;
  }

  /** The review's button: a held key is sent again as it was, else the form's body goes to `go`. */
  async function submit(go: (body: { amountMinor: number; description?: string }) => Promise<unknown> | void): Promise<void> {
    if (send.pending.value || !send.canSend.value) return;
    if (send.resendsSameKey.value) return void (await after(send.resend()));
    const body = readForm();
    if (body) return void (await go(body));
    // The form no longer passes (the shown balance changed meanwhile): back to it, at the field.
    reviewing.value = false;
    await nextTick();
    focusFirstError(errors, fieldIds);
  }

  /** Back from the review to the form, focus on the amount. */
  async function change(): Promise<void> {
    reviewing.value = false;
    await nextTick();
    document.getElementById(fieldIds.amount)?.focus();
  }

  // A refusal about a field (a 422 about the amount, a 400 naming a pointer) goes back to the
  // form and stands at that field, focused, instead of in the page's bar.
  const alert = usePageAlertStore();
  watch(send.phase, async (phase) => {
    const problem = send.problem.value;
    if (phase !== 'rejected' || !problem) return;
    const field = problemField(problem, { amountMinor: 'amount', description: 'description' });
    if (!field || !(field in errors)) return;
    errors[field as keyof typeof errors] = problemMessage(problem, 'moneySend', options.kind);
    alert.clear();
    reviewing.value = false;
    await nextTick();
    focusFirstError(errors, fieldIds);
  });

  /** Awaits a send; a succeeded one changed the balance, so the account is read again. */
  async function after(sending: Promise<unknown>): Promise<void> {
    await sending;
    if (send.phase.value === 'succeeded') void accounts.loadOne(props.accountId);
  }

  function another(): void {
    send.reset();
    reviewing.value = false;
    form.amount = '';
    form.description = '';
  }

  return { account, accountRead, wait, send, form, errors, reviewing, review, submit, change, after, another };
}

type AnyAccountSend = ReturnType<typeof useAccountSend<never>>;
/** What AccountSendForm renders of an account send, whatever its body. */
export type AccountSend = Omit<AnyAccountSend, 'send'> & { send: MoneySendView & Pick<AnyAccountSend['send'], 'data' | 'found'> };
