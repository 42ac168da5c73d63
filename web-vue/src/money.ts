/**
 * Money at the edge of the SPA: the API counts euro cents as integers (`amountMinor`),
 * never floats (adr/0010). Typed amounts are parsed and balances formatted
 * with string and BigInt arithmetic only, so 0.1 + 0.2 never happens here.
 */
import type { SendKind } from './messages.ts';

/** The largest amount one send may carry (the spec's `Money.maximum`, in cents). */
const MAX_AMOUNT_MINOR = 100_000_000_000;

/** Why a typed amount was refused. */
export type AmountError = 'required' | 'format' | 'tooSmall' | 'tooLarge';

/** A parsed amount, or why it was refused. */
export type ParsedAmount = { ok: true; minor: number } | { ok: false; reason: AmountError };

const AMOUNT = /^(\d+)(?:[.,](\d{1,2}))?$/;

/**
 * Parses what a visitor typed ("12.34", "12,5", "€ 1 000", "7") to cents (1234, 1250,
 * 100000, 700). At most two decimals; a comma may stand for the decimal point; spaces,
 * a leading € and thin spaces are ignored. Zero and negatives are refused.
 */
export function parseAmount(typed: string): ParsedAmount {
  const text = typed.replace(/[\s\u00a0\u202f€]/g, '');
  if (text === '') return { ok: false, reason: 'required' };
  const match = AMOUNT.exec(text);
  if (!match) return { ok: false, reason: 'format' };
  const euros = BigInt(match[1]!);
  const cents = BigInt((match[2] ?? '').padEnd(2, '0'));
  const minor = euros * 100n + cents;
  if (minor < 1n) return { ok: false, reason: 'tooSmall' };
  if (minor > BigInt(MAX_AMOUNT_MINOR)) return { ok: false, reason: 'tooLarge' };
  return { ok: true, minor: Number(minor) };
}

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Formats cents as euros, "€1,234.56"; negatives get a minus sign, "−€12.30". */
export function formatMinor(minor: number | bigint): string {
  const value = BigInt(minor);
  const negative = value < 0n;
  const magnitude = (negative ? -value : value).toString().padStart(3, '0');
  const euros = groupThousands(magnitude.slice(0, -2));
  const cents = magnitude.slice(-2);
  return `${negative ? '\u2212' : ''}€${euros}.${cents}`;
}

/** Formats cents for an input field, "1234.50", so an edit starts from what was sent. */
export function minorToInput(minor: number): string {
  const magnitude = BigInt(Math.abs(minor)).toString().padStart(3, '0');
  return `${magnitude.slice(0, -2)}.${magnitude.slice(-2)}`;
}

/** Which send wrote a movement, for the sentences that name the send (a transfer's either side, an IBAN payment). */
export function sendKindOf(movement: { kind: 'deposit' | 'withdrawal' | 'transfer_in' | 'transfer_out' | 'external_out' }): SendKind {
  if (movement.kind === 'deposit' || movement.kind === 'withdrawal') return movement.kind;
  return 'transfer';
}
