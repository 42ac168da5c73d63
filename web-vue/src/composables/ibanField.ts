/**
 * An IBAN checked as the bank checks it (ibantools, as the API does): its country's
 * length and format, and its check digits (ISO 13616, mod 97), so a typo is refused at
 * the field before any PIN (adr/0050) rather than by the API after it.
 */
import { electronicFormatIBAN, friendlyFormatIBAN, isValidIBAN, validateIBAN, ValidationErrorsIBAN } from 'ibantools';
import { fieldMessages } from '../messages.ts';

/** The field's error for a typed IBAN, or '' when the bank will take it. */
export function ibanError(typed: string): string {
  const iban = electronicFormatIBAN(typed.trim()) ?? '';
  if (isValidIBAN(iban)) return '';
  // Only a checksum that fails on an IBAN of the right shape is a typo in it; anything else is not an IBAN yet.
  const { errorCodes } = validateIBAN(iban);
  return errorCodes.length > 0 && errorCodes.every((code) => code === ValidationErrorsIBAN.WrongIBANChecksum) ? fieldMessages.ibanChecksum : fieldMessages.iban;
}

/** An IBAN as the visitor reads it: uppercase, in groups of four ("DE89 3704 0044 0532 0130 00"), however it was typed. */
export function ibanShown(typed: string): string {
  return friendlyFormatIBAN(electronicFormatIBAN(typed.trim()) ?? typed.trim()) ?? typed.trim();
}
