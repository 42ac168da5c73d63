/**
 * Whether two sends move the same money to the same place (adr/0065): the operation, the
 * amount, and the account and payee; the note and the key do not count. Two deposits of
 * €55.55 into Everyday are the same send; €55.55 into Savings, or €55.50, is another.
 */
import type { HeldOperation } from './heldSendRecords.ts';

/** What a send is matched on. */
export interface SendIdentity {
  operation: HeldOperation;
  accountId: string | null;
  payload: unknown;
}

type Body = { amountMinor?: number; fromAccountId?: string; toAccountId?: string; toHandle?: string; iban?: string };
type Payload = { amountMinor?: number; name?: string; body?: Body };

/** An IBAN as compared: letters uppercased, spaces gone. */
const ibanKey = (iban: string | undefined) => (iban ?? '').replace(/\s+/g, '').toUpperCase();
/** A handle as compared: the bank's handles are lowercase. */
const handleKey = (handle: string | undefined) => (handle ?? '').trim().replace(/^@/, '').toLowerCase();

/** The send's money and destination as one string. */
function fingerprint(send: SendIdentity): string {
  const payload = (send.payload ?? {}) as Payload;
  switch (send.operation) {
    case 'deposit':
    case 'withdraw':
      return [send.operation, send.accountId, payload.amountMinor].join('|');
    case 'openAccount':
      return ['openAccount', (payload.name ?? '').trim().toLowerCase()].join('|');
    case 'transfer': {
      const body = payload.body ?? {};
      return ['transfer', body.fromAccountId, body.amountMinor, body.toAccountId ?? '', handleKey(body.toHandle), ibanKey(body.iban)].join('|');
    }
  }
}

/** True when `a` and `b` move the same amount between the same places. */
export const isSameSend = (a: SendIdentity, b: SendIdentity): boolean => fingerprint(a) === fingerprint(b);
