/**
 * A held send named as the visitor knows it: what, how much, from or to which account or
 * payee (adr/0051). Account names come from the accounts the page has read; an account
 * not read yet is "your account".
 */
import { ibanShown } from '../composables/ibanField.ts';
import { formatMinor } from '../money.ts';
import type { HeldSendRecord } from './heldSendRecords.ts';

type Payload = {
  amountMinor?: number;
  name?: string;
  kind?: 'internal' | 'external';
  body?: { amountMinor?: number; fromAccountId?: string; toAccountId?: string; toHandle?: string; iban?: string; beneficiaryName?: string };
};

/** "Deposit of €12.34 into Everyday", "Transfer of €5.00 from Everyday to @grace_h", "Opening the account Holidays". */
export function heldSendLabel(record: Pick<HeldSendRecord, 'operation' | 'accountId' | 'payload'>, accountName: (id: string) => string | undefined): string {
  const payload = (record.payload ?? {}) as Payload;
  const named = (id: string | null | undefined) => (id ? accountName(id) : undefined) ?? 'your account';
  switch (record.operation) {
    case 'deposit':
      return `Deposit of ${formatMinor(payload.amountMinor ?? 0)} into ${named(record.accountId)}`;
    case 'withdraw':
      return `Withdrawal of ${formatMinor(payload.amountMinor ?? 0)} from ${named(record.accountId)}`;
    case 'openAccount':
      return `Opening the account ${payload.name ?? ''}`.trim();
    case 'transfer': {
      const body = payload.body ?? {};
      const to = body.toHandle ? `@${body.toHandle}` : body.iban ? `${body.beneficiaryName ?? ''} (${ibanShown(body.iban)})`.trim() : named(body.toAccountId);
      return `Transfer of ${formatMinor(body.amountMinor ?? 0)} from ${named(body.fromAccountId)} to ${to}`;
    }
  }
}

/** "14:03" today, else "4 Dec at 21:07". */
export function timeOf(at: number, now = Date.now()): string {
  const when = new Date(at);
  const time = when.toLocaleTimeString('en-IE', { hour: '2-digit', minute: '2-digit' });
  return when.toDateString() === new Date(now).toDateString() ? time : `${when.toLocaleDateString('en-IE', { day: 'numeric', month: 'short' })} at ${time}`;
}

/**
 * The question a review asks when the same money went to the same place a moment ago
 * (adr/0065): "You sent €55.55 to Everyday at 14:03 — send it again?".
 */
export function sendAgainQuestion(landed: Pick<HeldSendRecord, 'operation' | 'accountId' | 'payload'> & { landedAt: number }, accountName: (id: string) => string | undefined, now = Date.now()): string {
  const payload = (landed.payload ?? {}) as Payload;
  const named = (id: string | null | undefined) => (id ? accountName(id) : undefined) ?? 'your account';
  const at = timeOf(landed.landedAt, now);
  const on = at.includes(' at ') ? `on ${at}` : `at ${at}`;
  switch (landed.operation) {
    case 'deposit':
      return `You sent ${formatMinor(payload.amountMinor ?? 0)} to ${named(landed.accountId)} ${on} — send it again?`;
    case 'withdraw':
      return `You withdrew ${formatMinor(payload.amountMinor ?? 0)} from ${named(landed.accountId)} ${on} — withdraw it again?`;
    case 'openAccount':
      return `You opened the account ${payload.name ?? ''} ${on} — open another?`;
    case 'transfer': {
      const body = payload.body ?? {};
      const to = body.toHandle ? `@${body.toHandle}` : body.iban ? (body.beneficiaryName ?? body.iban) : named(body.toAccountId);
      return `You sent ${formatMinor(body.amountMinor ?? 0)} to ${to} ${on} — send it again?`;
    }
  }
}

/** "started at 09:31" today, else "started on 4 Dec at 21:07". */
export function startedAt(firstSentAt: number, now = Date.now()): string {
  const at = timeOf(firstSentAt, now);
  return at.includes(' at ') ? `started on ${at}` : `started at ${at}`;
}

/** A key the bank listed (listIdempotencyKeys), as far as this label needs it. */
export interface BankKey {
  key: string;
  operationId: string | null;
  claimedAt: string | null;
  answer: { status: number; body?: unknown } | null;
}

const operations: Record<string, HeldSendRecord['operation']> = {
  deposit: 'deposit',
  withdraw: 'withdraw',
  createInternalTransfer: 'transfer',
  createExternalTransfer: 'transfer',
  openAccount: 'openAccount',
};

/** What a send is called before its answer says more: "A deposit", "A transfer", … */
const nouns: Record<HeldSendRecord['operation'], string> = { deposit: 'A deposit', withdraw: 'A withdrawal', transfer: 'A transfer', openAccount: 'Opening an account' };

/** A key the bank listed, named from its stored answer ("Deposit of €12.34 into Everyday"), else by its kind ("A deposit"). */
export function bankKeyLabel(item: BankKey, accountName: (id: string) => string | undefined): string {
  const operation = operations[item.operationId ?? ''];
  if (!operation) return 'A send';
  const body = (item.answer?.body ?? null) as Record<string, unknown> | null;
  if (!body || item.answer === null || item.answer.status >= 400) return nouns[operation];
  const amountMinor = Math.abs(Number(body.amountMinor ?? 0));
  const payload =
    operation === 'transfer'
      ? { kind: item.operationId === 'createExternalTransfer' ? 'external' : 'internal', body: { ...body, amountMinor } }
      : operation === 'openAccount'
        ? { name: body.name }
        : { amountMinor };
  const accountId = typeof body.accountId === 'string' ? body.accountId : null;
  return heldSendLabel({ operation, accountId, payload }, accountName);
}
