/**
 * A money send into or out of one account (deposit, withdrawal): the account's read and its
 * alert, the money send (useMoneySend) kept with its amount-and-note form, that form's
 * checks, and the account read again once a send succeeded. AccountSendForm renders it;
 * the page says where a submitted body goes (a withdrawal asks for the PIN first).
 */
import { computed, onMounted, reactive, watch } from 'vue';
import type { Result } from '../api/result.ts';
import { fieldMessages, type SendKind } from '../messages.ts';
import { parseAmount } from '../money.ts';
import { useAccountsStore } from '../stores/accounts.ts';
import type { Transaction } from '../stores/transfers.ts';
import { amountError } from './amountField.ts';
import { focusFirstError } from './formFocus.ts';
import { useMoneySend, type MoneySendView } from './useMoneySend.ts';
import { useRead } from './useRead.ts';
import { useReadAlert } from './useReadAlert.ts';

/** `props.accountId` is read when needed; `holdAs` names the page among held sends. */
export function useAccountSend<B>(props: { accountId: string }, sendTo: (body: B, key: string) => Promise<Result<Transaction>>, options: { holdAs: string; kind: SendKind }) {
  const accounts = useAccountsStore();
  const account = computed(() => accounts.byId(props.accountId));
  const accountRead = useRead((signal) => accounts.loadOne(props.accountId, signal));
  useReadAlert([accountRead]);
  onMounted(() => void accountRead.run());

  const operation = options.kind === 'deposit' ? 'deposit' : 'withdraw';
  const send = useMoneySend(sendTo, { ...options, operation, accountOf: () => props.accountId, keep: () => ({ form: reactive({ amount: '', description: '' }) }) });
  const { form } = send.kept;
  const errors = reactive({ amount: '', description: '' });
  watch(
    () => [form.amount, form.description],
    () => send.edited(),
  );

  /** The form's amount and note as a body, or null (its errors shown, the first focused). */
  function readForm(): { amountMinor: number; description?: string } | null {
    const amount = parseAmount(form.amount);
    errors.amount = amount.ok ? '' : amountError(amount.reason);
    errors.description = form.description.length > 140 ? fieldMessages.description : '';
    if (focusFirstError(errors, { amount: 'amount', description: 'description' }) || !amount.ok) return null;
    const description = form.description.trim();
    return { amountMinor: amount.minor, ...(description ? { description } : {}) };
  }

  /** A submit: a held key is sent again as it was, else the form's body, once it passes, goes to `go`. */
  async function submit(go: (body: { amountMinor: number; description?: string }) => Promise<unknown> | void): Promise<void> {
    if (send.pending.value || !send.canSend.value) return;
    if (send.resendsSameKey.value) return void (await after(send.resend()));
    const body = readForm();
    if (body) await go(body);
  }

  /** Awaits a send; a succeeded one changed the balance, so the account is read again. */
  async function after(sending: Promise<unknown>): Promise<void> {
    await sending;
    if (send.phase.value === 'succeeded') void accounts.loadOne(props.accountId);
  }

  function another(): void {
    send.reset();
    form.amount = '';
    form.description = '';
  }

  return { account, accountRead, send, form, errors, submit, after, another };
}

type AnyAccountSend = ReturnType<typeof useAccountSend<never>>;
/** What AccountSendForm renders of an account send, whatever its body. */
export type AccountSend = Omit<AnyAccountSend, 'send'> & { send: MoneySendView & Pick<AnyAccountSend['send'], 'data' | 'found'> };
