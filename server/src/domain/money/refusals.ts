/**
 * The words of a refusal the database's money rules report (adr/0041): the rule is the
 * SQL's, the wording is the API's. A code the catalog lacks is a bug, not a refusal. The
 * payee look-up limit's 429 is worded here too, for `getPayee` as for a send (adr/0079).
 */
import { ApiProblem } from '../../errors/apiProblem.ts';
import { errorCatalog, type ErrorCode } from '../../errors/errorCatalog.ts';

/** The codes of the refusals the statements report. */
export type RefusalCode = Extract<
  ErrorCode,
  | 'ACCOUNT_NOT_FOUND' | 'PAYEE_NOT_FOUND' | 'PAYEE_HAS_NO_OPEN_ACCOUNT' | 'SAME_ACCOUNT' | 'TOO_MANY_REQUESTS' | 'INSUFFICIENT_FUNDS' | 'BALANCE_LIMIT_EXCEEDED' | 'AUTHORIZATION_INVALID'
  | 'AUTHORIZATION_MISMATCH' | 'AUTHORIZATION_EXPIRED' | 'DAILY_LIMIT_EXCEEDED' | 'ACCOUNT_LIMIT_REACHED'
>;

/** The numbers (and a handle) a refusal's wording needs, as its statement reports them. */
export type RefusalDetail = Readonly<Record<string, number | string>>;

/** Today's detail of each refusal the statements report. */
const details: Record<RefusalCode, (detail: RefusalDetail | null) => string> = {
  ACCOUNT_NOT_FOUND: () => 'No open account of yours has this id.',
  PAYEE_NOT_FOUND: (detail) => `No customer has the handle ${detail?.handle ?? ''}.`,
  SAME_ACCOUNT: () => 'The money would go back into the account it leaves.',
  TOO_MANY_REQUESTS: () => 'Too many payee look-ups and payments to a handle. Try again in a moment.',
  PAYEE_HAS_NO_OPEN_ACCOUNT: () => 'The payee has no open account to receive the money.',
  INSUFFICIENT_FUNDS: () => 'The account does not hold enough money for this.',
  BALANCE_LIMIT_EXCEEDED: () => 'The receiving account cannot hold that much more money.',
  AUTHORIZATION_INVALID: () => 'The step-up authorisation is unknown or already used; check the PIN again.',
  AUTHORIZATION_MISMATCH: () =>
    'The step-up authorisation approves another payment (its account, amount or payee differ); check the PIN for this one. Nothing moved.',
  AUTHORIZATION_EXPIRED: () => 'The step-up authorisation has expired; check the PIN again.',
  DAILY_LIMIT_EXCEEDED: (detail) =>
    `Money leaving your accounts is limited to ${euros(Number(detail?.limitMinor ?? 0))} EUR a day; ${euros(Number(detail?.leftMinor ?? 0))} EUR are left today.`,
  ACCOUNT_LIMIT_REACHED: (detail) => `A customer may hold at most ${detail?.maxOpen ?? 0} open accounts; close one to open another.`,
};

/** True for a code the statements report as a refusal (and the catalog holds). */
export function isRefusalCode(code: string): code is RefusalCode {
  return Object.hasOwn(details, code) && code in errorCatalog;
}

/**
 * The problem a statement's refusal `code` answers; the look-up limit's 429 waits until the
 * window's oldest look-up leaves it (`detail.lookupsClearIn` seconds, at least 1).
 */
export function refusalOf(code: RefusalCode, detail: RefusalDetail | null): ApiProblem {
  if (code !== 'TOO_MANY_REQUESTS') return new ApiProblem(code, details[code](detail));
  return new ApiProblem(code, details[code](detail), { retryAfterSeconds: Math.max(1, Math.ceil(Number(detail?.lookupsClearIn ?? 1))) });
}

/** 123456 → "1234.56". */
function euros(minor: number): string {
  const whole = BigInt(Math.floor(minor));
  return `${whole / 100n}.${(whole % 100n).toString().padStart(2, '0')}`;
}
