/**
 * A transfer inside Tidewater: to another of the customer's accounts (`toAccountId`), or
 * to another customer by handle, landing in their primary account. A transfer by handle
 * is money leaving the customer (leavingMoney.ts): a step-up authorisation for exactly
 * this handle, account and amount, spent in the transaction that moves it, and the daily
 * ceiling. The handle is resolved once per request, before the first attempt; an attempt
 * only checks that the account it resolved to is still open (422 PAYEE_HAS_NO_OPEN_ACCOUNT).
 * Both movements carry one transfer id; the sender's key is written on the sender's own
 * accounts only.
 */
import { randomUUID } from 'node:crypto';
import type { components } from '@tidewater/spec/openapi';
import type { DataLayer } from '../../data/dataLayer.ts';
import { ApiProblem } from '../../errors/apiProblem.ts';
import { toMinor } from '../wireViews.ts';
import { covers, holds, ownOpenAccount, payeeOpenAccount } from './checks.ts';
import { leavingMoney } from './leavingMoney.ts';
import { postMovement } from './ledger.ts';
import type { MoneySendFactory } from './moneySend.ts';
import { toTransaction } from './transactionView.ts';
import { writtenNote } from '../writtenText.ts';

type Transfer = components['schemas']['Transfer'];
type Request = components['schemas']['InternalTransferRequest'];

/** Where the money goes, settled once. */
interface Plan {
  toAccountId: string;
  /** Set for a transfer by handle: the payee, the sender's own handle for the payee's row, and the payment leaving. */
  byHandle?: { handle: string; senderHandle: string; leaving: ReturnType<typeof leavingMoney> };
}

const sameAccount = () => new ApiProblem('SAME_ACCOUNT', 'The money would go back into the account it leaves.');

/** The transfer of `body`; one by handle within `dailyLimitMinor` a day. */
export function internalTransferSend(data: DataLayer, dailyLimitMinor: number, body: Request): MoneySendFactory<Plan, Transfer> {
  const amountMinor = BigInt(body.amountMinor);
  return (request) => ({
    label: 'createInternalTransfer',
    locksCustomer: 'toHandle' in body,
    async prepare() {
      if ('toAccountId' in body && body.toAccountId) {
        if (body.toAccountId === body.fromAccountId) throw sameAccount();
        return { toAccountId: body.toAccountId };
      }
      const { toHandle: handle, authorizationId } = body as { toHandle: string; authorizationId: string };
      const leaving = leavingMoney(data, dailyLimitMinor, request.userId, authorizationId, {
        operation: 'createInternalTransfer',
        fromAccountId: body.fromAccountId,
        amountMinor: body.amountMinor,
        toHandle: handle,
      });
      await leaving.authorized();
      const [payee, sender] = await data.read((db) =>
        Promise.all([
          db.user.findUnique({ where: { handle }, select: { primaryAccountId: true } }),
          db.user.findUnique({ where: { id: request.userId }, select: { handle: true } }),
        ]),
      );
      if (!payee) throw new ApiProblem('PAYEE_NOT_FOUND', `No customer has the handle ${handle}.`);
      if (!payee.primaryAccountId) throw new ApiProblem('PAYEE_HAS_NO_OPEN_ACCOUNT', 'The payee has no open account to receive the money.');
      if (payee.primaryAccountId === body.fromAccountId) throw sameAccount();
      return { toAccountId: payee.primaryAccountId, byHandle: { handle, senderHandle: sender?.handle ?? '', leaving } };
    },
    accountIds: (plan) => [body.fromAccountId, plan.toAccountId],
    async check(plan, { accounts, query }) {
      const from = ownOpenAccount(accounts, body.fromAccountId, request.userId);
      const to = plan.byHandle ? payeeOpenAccount(accounts, plan.toAccountId) : ownOpenAccount(accounts, plan.toAccountId, request.userId);
      covers(from, amountMinor);
      holds(to, amountMinor);
      await plan.byHandle?.leaving.withinCeiling(query);
    },
    async save(tx, plan, accounts) {
      await plan.byHandle?.leaving.spend(tx);
      const from = accounts.get(body.fromAccountId)!;
      const to = accounts.get(plan.toAccountId)!;
      const toIsMine = to.userId === request.userId;
      const transferId = randomUUID();
      const description = writtenNote(body.description);
      const out = await postMovement(tx, from, {
        kind: 'transfer_out',
        amountMinor: -amountMinor,
        description,
        counterparty: plan.byHandle ? `@${plan.byHandle.handle}` : to.name,
        idempotencyKey: request.key,
        transferId,
      }, request);
      const into = await postMovement(tx, to, {
        kind: 'transfer_in',
        amountMinor,
        description,
        counterparty: plan.byHandle ? `@${plan.byHandle.senderHandle}` : from.name,
        idempotencyKey: toIsMine ? request.key : null,
        transferId,
      }, request);
      return {
        id: transferId,
        fromAccountId: from.id,
        toAccountId: toIsMine ? to.id : null,
        toHandle: plan.byHandle?.handle ?? null,
        iban: null,
        beneficiaryName: null,
        amountMinor: toMinor(amountMinor),
        createdAt: out.createdAt.toISOString(),
        movements: (toIsMine ? [out, into] : [out]).map(toTransaction),
      };
    },
    recheckBeforeBusy: async (plan) => plan.byHandle?.leaving.authorized(),
  });
}
