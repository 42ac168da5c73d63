/**
 * The one payment a step-up authorisation approves (spec `ApprovedPayment`; adr/0045,
 * PSD2 RTS Art. 5 dynamic linking): the send it allows, the account the money leaves,
 * the amount and the payee. The PIN check stores it as written here, and each send that
 * needs one writes its own request the same way, so the two compare field for field.
 */
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import type { components } from '@tidewater/spec/openapi';
import { ApiProblem } from '../../errors/apiProblem.ts';
import { writtenText } from '../writtenText.ts';

/** The payment as the wire names it. */
export type ApprovedPaymentWire = components['schemas']['ApprovedPayment'];

/** A payment as it is stored and compared, one column per field. */
interface ApprovedPayment {
  readonly operation: ApprovedPaymentWire['operation'];
  readonly fromAccountId: string;
  readonly amountMinor: bigint;
  readonly toHandle: string | null;
  readonly iban: string | null;
  readonly beneficiaryName: string | null;
}

/** The IBAN in electronic form (no spaces, upper case), or 422 INVALID_IBAN. */
export function validIban(text: string): string {
  const iban = electronicFormatIBAN(text);
  if (!iban || !isValidIBAN(iban)) throw new ApiProblem('INVALID_IBAN', 'The IBAN is not valid: check its digits and its length.');
  return iban;
}

/** A payment in the one form it is approved and compared in: the IBAN electronic (422 INVALID_IBAN when it cannot be), the name trimmed. */
export function normalizedPayment(payment: ApprovedPaymentWire): ApprovedPaymentWire {
  if (payment.operation !== 'createExternalTransfer') return payment;
  return { ...payment, iban: validIban(payment.iban), beneficiaryName: writtenText(payment.beneficiaryName) };
}

/** The columns of a normalized payment: no payee is null. */
export function boundPayment(payment: ApprovedPaymentWire): ApprovedPayment {
  return {
    operation: payment.operation,
    fromAccountId: payment.fromAccountId,
    amountMinor: BigInt(payment.amountMinor),
    toHandle: payment.operation === 'createInternalTransfer' ? payment.toHandle : null,
    iban: payment.operation === 'createExternalTransfer' ? payment.iban : null,
    beneficiaryName: payment.operation === 'createExternalTransfer' ? payment.beneficiaryName : null,
  };
}
