/** The sentence for a refused amount (parseAmount's reason). */
import { fieldMessages } from '../messages.ts';
import type { AmountError } from '../money.ts';

/** Maps a parse failure to its field message. */
export function amountError(reason: AmountError): string {
  const messages: Record<AmountError, string> = {
    required: fieldMessages.amountFormat,
    format: fieldMessages.amountFormat,
    tooSmall: fieldMessages.amountTooSmall,
    tooLarge: fieldMessages.amountTooLarge,
  };
  return messages[reason];
}
