/**
 * Customers for the contract tests, made through the API's own operations as the spec
 * declares them (sign-up, sign-in, open an account, PIN check): the harness's bootstrap.
 * Every request is built by `buildRequest` from the spec's examples, like the requests
 * under test.
 */
import { callerValues, newIdentity, type Customer, type Identity, type Mint } from './callerValues.ts';
import { sendRequest } from './sendRequest.ts';
import { buildRequest, operationById, type RequestValues, type SpecOperation } from './specOperations.ts';

/** The operations the harness itself needs, by their role. */
export const BOOTSTRAP = { signUp: 'register', signIn: 'createToken', openAccount: 'openAccount', fund: 'deposit' } as const;

/** What a new customer's first account is funded with (1,000,000.00 EUR in cents): every money send's example fits, many times. */
const FUNDING_MINOR = 100_000_000;

/** Sends the operation for `values`; answers the parsed body of a 2xx, else throws. */
async function callFor(baseUrl: string, operation: SpecOperation, values: RequestValues): Promise<Record<string, unknown>> {
  const request = await buildRequest(operation, values);
  const answer = await sendRequest(baseUrl, request, { traceId: `ct-bootstrap-${crypto.randomUUID()}`, timeoutMs: 30_000 });
  if (answer.kind === 'answer' && answer.status >= 200 && answer.status < 300) return answer.body as Record<string, unknown>;
  const what = answer.kind === 'answer' ? `${answer.status} ${answer.bodyText.slice(0, 300)}` : `${answer.reason}: ${answer.detail}`;
  throw new Error(`bootstrap ${operation.operationId} failed: ${what}`);
}

/** Makes customers on the API at `baseUrl` (which may change: one API process per fault). */
export class Customers {
  baseUrl = '';
  private readonly operations: SpecOperation[];
  constructor(operations: SpecOperation[]) {
    this.operations = operations;
    for (const operationId of Object.values(BOOTSTRAP)) operationById(operations, operationId);
  }

  /**
   * Mints a single-use value (a refresh token, a step-up authorization) from an
   * operation's 2xx answer; tries three times (a cold API process may miss its first
   * deadline) and records why it gave none in `mintFailures`.
   */
  readonly mint: Mint = async (customer, operationId, field, overrides) => {
    const operation = this.operations.find((o) => o.operationId === operationId);
    if (!operation) return undefined;
    for (let attempt = 1; attempt <= 3; attempt++) {
      const answer = await sendRequest(this.baseUrl, await buildRequest(operation, this.valuesFor(customer, undefined, overrides)), {
        traceId: `ct-mint-${crypto.randomUUID()}`,
        timeoutMs: 30_000,
      });
      if (answer.kind === 'answer' && answer.status >= 200 && answer.status < 300) return (answer.body as Record<string, unknown>)[field];
      this.mintFailures.push(`${operationId} attempt ${attempt}: ${answer.kind === 'answer' ? `${answer.status} ${answer.bodyText.slice(0, 200)}` : answer.reason}`);
    }
    return undefined;
  };

  /** Why minting failed, for the report. */
  readonly mintFailures: string[] = [];

  /** The request values of a caller: a customer, or only an identity nobody registered yet. */
  valuesFor(caller: Customer | Identity, payee?: Customer, overrides?: Record<string, unknown>): ReturnType<typeof callerValues> {
    const customer = 'userId' in caller ? caller : undefined;
    return callerValues({ identity: caller, customer, payee, mint: this.mint, overrides });
  }

  /** Signs up a new customer, signs it in, opens its second account and funds its first. */
  async register(identity: Identity = newIdentity()): Promise<Customer> {
    const op = (id: string) => operationById(this.operations, id);
    const registration = await callFor(this.baseUrl, op(BOOTSTRAP.signUp), this.valuesFor(identity));
    const user = registration.user as { id: string };
    const account = registration.account as { id: string };
    const tokens = await callFor(this.baseUrl, op(BOOTSTRAP.signIn), this.valuesFor(identity));
    const signedIn = {
      ...identity,
      userId: user.id,
      accessToken: String(tokens.accessToken),
      primaryAccountId: account.id,
      secondAccountId: account.id,
    };
    const second = await callFor(this.baseUrl, op(BOOTSTRAP.openAccount), this.valuesFor(signedIn));
    const customer = { ...signedIn, secondAccountId: String(second.id) };
    await callFor(this.baseUrl, op(BOOTSTRAP.fund), this.valuesFor(customer, undefined, { amountMinor: FUNDING_MINOR }));
    return customer;
  }

  /** The customer with a new session's access token: for a request that ends its session (logout, adr/0064). */
  async signInAgain(customer: Customer): Promise<Customer> {
    const tokens = await callFor(this.baseUrl, operationById(this.operations, BOOTSTRAP.signIn), this.valuesFor(customer));
    return { ...customer, accessToken: String(tokens.accessToken) };
  }

  /** Registers `count` customers, at most `limit` at a time (sign-up hashes a password and a PIN: CPU-bound). */
  async registerMany(count: number, limit = 3): Promise<Customer[]> {
    const made: Customer[] = [];
    let running = 0;
    const worker = async () => {
      while (made.length + running < count) {
        running++;
        try {
          made.push(await this.register());
        } finally {
          running--;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
    return made;
  }
}
