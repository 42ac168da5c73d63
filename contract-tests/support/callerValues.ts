/**
 * The values a request carries that belong to its caller, found BY NAME for every
 * parameter and body property (never per operation), so a new operation that names its
 * inputs the way the spec already does is served without editing the tests:
 *
 * | name                                     | value                                                 |
 * |------------------------------------------|-------------------------------------------------------|
 * | accountId, fromAccountId                 | the caller's first (primary) account                  |
 * | toAccountId                              | the caller's second own account                       |
 * | toHandle                                 | the payee's handle (another customer)                 |
 * | email, password, displayName, handle, pin | the caller's identity                                 |
 * | refreshToken                             | minted: the `refreshToken` of a fresh sign-in          |
 * | authorizationId                          | minted: the `authorizationId` of a fresh PIN check for |
 * |                                          | the payment its request makes (its operation, account, |
 * |                                          | amount and payee: the properties before it)            |
 * | transferId                               | minted: the `id` of a fresh transfer of the caller's   |
 * | Idempotency-Key (any case)               | a new unique key for every request                    |
 *
 * Anything else keeps the spec's example, unless the harness overrides it by name (the
 * amount of the deposit that funds a new customer). A minted value the API cannot give
 * yet (its operation answers 501) also keeps the example, and a note says so.
 */
import { randomUUID } from 'node:crypto';
import { uniqueHandle } from '@tidewater/test-support/handles';
import type { RequestSoFar, RequestValues } from './specOperations.ts';

/** Who a customer is: what sign-up takes. */
export interface Identity {
  email: string;
  password: string;
  displayName: string;
  handle: string;
  pin: string;
}

/** A registered, signed-in customer with two accounts. */
export interface Customer extends Identity {
  userId: string;
  accessToken: string;
  primaryAccountId: string;
  secondAccountId: string;
}

/** Answers a single-use value from another operation's answer (sent with `overrides`), or undefined when the API gives none now. */
export type Mint = (customer: Customer, operationId: string, field: string, overrides?: Record<string, unknown>) => Promise<unknown>;

const OWNED: Record<string, (customer: Customer) => string> = {
  accountId: (c) => c.primaryAccountId,
  fromAccountId: (c) => c.primaryAccountId,
  toAccountId: (c) => c.secondAccountId,
};
const IDENTITY = ['email', 'password', 'displayName', 'handle', 'pin'] as const;
const PAYEE: Record<string, (payee: Customer) => string> = { toHandle: (p) => p.handle };
/** name → [operationId, field of its answer, what the minting request carries, from the request being built]. */
const MINTED: Record<string, readonly [string, string, ((soFar: RequestSoFar) => Record<string, unknown>)?]> = {
  refreshToken: ['createToken', 'refreshToken'],
  authorizationId: ['verifyPin', 'authorizationId', (soFar) => ({ payment: paymentOf(soFar) })],
  transferId: ['createInternalTransfer', 'id'],
};

/** The payment a request makes, by the names of its properties (spec `ApprovedPayment`). */
function paymentOf({ operationId, path, siblings }: RequestSoFar): Record<string, unknown> {
  const payees = ['toHandle', 'iban', 'beneficiaryName'].filter((name) => name in siblings);
  return {
    operation: operationId,
    fromAccountId: siblings.fromAccountId ?? path.accountId,
    amountMinor: siblings.amountMinor,
    ...Object.fromEntries(payees.map((name) => [name, siblings[name]])),
  };
}
const FRESH: Record<string, () => string> = { 'idempotency-key': () => `ct-${randomUUID()}` };

/** A new identity nobody has registered: unique email and handle (`^[a-z0-9_]{3,20}$`). */
export function newIdentity(): Identity {
  const handle = uniqueHandle('ct');
  return {
    email: `${handle}@example.com`,
    password: 'correct horse battery staple',
    displayName: 'Contract Tester',
    handle,
    // Sign-up refuses PINs a guesser tries first (1111, 1234, …): one of a few that are not.
    pin: ['2468', '1357', '4821', '8642', '7531', '3958'][Math.floor(Math.random() * 6)]!,
  };
}

/** Request values for one caller; `notes` collects every value that fell back to its example. */
export function callerValues(options: {
  identity: Identity;
  customer?: Customer;
  payee?: Customer;
  mint: Mint;
  /** Values the harness sets itself, by name. */
  overrides?: Record<string, unknown>;
}): RequestValues & { notes: string[] } {
  const { identity, customer, payee, mint, overrides = {} } = options;
  const notes: string[] = [];
  return {
    notes,
    async valueFor(name, example, soFar) {
      if (name in overrides) return overrides[name];
      const fresh = FRESH[name.toLowerCase()];
      if (fresh) return fresh();
      if ((IDENTITY as readonly string[]).includes(name)) return identity[name as keyof Identity];
      const owned = OWNED[name];
      if (owned && customer) return owned(customer);
      const ofPayee = PAYEE[name];
      if (ofPayee && payee) return ofPayee(payee);
      const minted = MINTED[name];
      if (minted && customer) {
        const [operationId, field, carries] = minted;
        const value = await mint(customer, operationId, field, carries && soFar ? carries(soFar) : undefined);
        if (value !== undefined) return value;
        notes.push(`${name}: the example (${minted[0]} gave none)`);
      }
      return example;
    },
    async accessToken() {
      if (!customer) throw new Error('a secured operation needs a registered customer');
      return customer.accessToken;
    },
  };
}
