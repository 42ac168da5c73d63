/**
 * Money sends and what guards them: deposit, withdrawal, internal and external
 * transfer (each with the Idempotency-Key the page's useIdempotentMutation holds), the
 * PIN step-up, and the look-up by key. Who a handle belongs to is `payees`'. The key is an argument, never stored here: the
 * page's send holds it, and heldSends records it for other tabs and visits (adr/0051).
 */
import { defineStore } from 'pinia';
import type { components } from '@tidewater/spec/openapi';
import { useClients } from '../api/instance.ts';
import { settle, type Result } from '../api/result.ts';

type Schemas = components['schemas'];
/** One movement. */
export type Transaction = Schemas['Transaction'];
/** A transfer with its movements. */
export type Transfer = Schemas['Transfer'];
/** A single-use PIN authorisation, for the one payment it approves. */
export type StepUpAuthorization = Schemas['StepUpAuthorization'];
/** The payment a PIN approves: its operation, account, amount and payee. */
export type ApprovedPayment = Schemas['ApprovedPayment'];
export type DepositBody = Schemas['DepositRequest'];
export type WithdrawalBody = Schemas['WithdrawalRequest'];
export type InternalTransferBody = Schemas['InternalTransferRequest'];
export type ExternalTransferBody = Schemas['ExternalTransferRequest'];
/** What the bank holds for an Idempotency-Key. */
export type KeyStatus = Schemas['IdempotencyKeyStatus'];

export const useTransfersStore = defineStore('transfers', () => {
  const keyHeader = (key: string) => ({ 'Idempotency-Key': key });

  /** POST /api/accounts/{accountId}/deposits. */
  function deposit(accountId: string, body: DepositBody, key: string): Promise<Result<Transaction>> {
    return settle(() => useClients().api.POST('/api/accounts/{accountId}/deposits', { params: { path: { accountId }, header: keyHeader(key) }, body }));
  }

  /** POST /api/accounts/{accountId}/withdrawals (needs a step-up authorisation). */
  function withdraw(accountId: string, body: WithdrawalBody, key: string): Promise<Result<Transaction>> {
    return settle(() => useClients().api.POST('/api/accounts/{accountId}/withdrawals', { params: { path: { accountId }, header: keyHeader(key) }, body }));
  }

  /** POST /api/transfers/internal (own account, or another customer's handle with a step-up authorisation). */
  function transferInternal(body: InternalTransferBody, key: string): Promise<Result<Transfer>> {
    return settle(() => useClients().api.POST('/api/transfers/internal', { params: { header: keyHeader(key) }, body }));
  }

  /** POST /api/transfers/external (needs a step-up authorisation). */
  function transferExternal(body: ExternalTransferBody, key: string): Promise<Result<Transfer>> {
    return settle(() => useClients().api.POST('/api/transfers/external', { params: { header: keyHeader(key) }, body }));
  }

  /** POST /api/step-up for exactly `payment`: a write, never retried (a PIN attempt may be counted). */
  function verifyPin(pin: string, payment: ApprovedPayment): Promise<Result<StepUpAuthorization>> {
    return settle(() => useClients().api.POST('/api/step-up', { body: { pin, payment } }));
  }

  /**
   * GET /api/transactions?accountId=&idempotencyKey=: what a key wrote, without sending
   * anything. Sent once: the visitor's "Check again" is its retry.
   */
  async function findByKey(accountId: string, idempotencyKey: string, signal?: AbortSignal): Promise<Result<Transaction[]>> {
    const { data, error } = await settle(() =>
      useClients().apiOnce.GET('/api/transactions', { params: { query: { accountId, idempotencyKey } }, signal }),
    );
    return error ? { error } : { data: data.items };
  }

  /**
   * GET /api/idempotency-keys/{key}: what the bank holds for the key (in flight, landed with
   * its stored answer, refused, unknown), sending nothing. Sent once, like findByKey.
   */
  function keyStatus(key: string, signal?: AbortSignal): Promise<Result<KeyStatus>> {
    return settle(() => useClients().apiOnce.GET('/api/idempotency-keys/{key}', { params: { path: { key } }, signal }));
  }

  return { deposit, withdraw, transferInternal, transferExternal, verifyPin, findByKey, keyStatus };
});
