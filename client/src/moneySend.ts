/**
 * `moneySend()`: one money send done the way the docs say (the introduction's Idempotency
 * and "When the database is down" sections; adr/0044), so a caller cannot pay twice by
 * using it:
 *
 * - one Idempotency-Key for the send, made once, on every try (never a new key for an
 *   outcome that is not known);
 * - a wait of `Retry-After` (else `retryAfterSeconds`, else 1 s) before the next try, after
 *   a 503, a 409 IDEMPOTENCY_IN_FLIGHT or a 429;
 * - an unknown outcome (a 503 without `applied: false`, a lost connection, a proxy's
 *   5xx) asks the key's status (`GET /api/idempotency-keys/{key}`) before anything else: a
 *   stored answer ends the send with it;
 * - a `422 IDEMPOTENCY_KEY_REUSED` reads the key's state first, as its advice says: when the
 *   key's first request was this operation (the same payment with an earlier
 *   `authorizationId`, say), its stored outcome is this send's; a key first sent to another
 *   operation is handed back as `rejected`;
 * - bounded: after `maxAttempts` tries or `giveUpAfterMs`, a typed result says what is known:
 *   `not-applied` (the last word was that nothing moved: a new send may take a new key) or
 *   `unknown` (keep the key; resend it later or read the key).
 */
import type { components, paths } from './generated/openapi.ts';
import type { TidewaterClient } from './tidewaterClient.ts';

/** The money sends' paths. */
export type MoneySendPath = '/api/accounts/{accountId}/deposits' | '/api/accounts/{accountId}/withdrawals' | '/api/transfers/internal' | '/api/transfers/external';
type Post<P extends MoneySendPath> = paths[P]['post'];
/** What a send's 201 carries. */
export type SentBody<P extends MoneySendPath> = Post<P>['responses'][201]['content']['application/json'];
/** A problem answer (RFC 9457). */
export type Problem = components['schemas']['Problem'];
/** The failures a sandbox API can make a send meet (`Tidewater-Simulate`). */
export type Simulation = NonNullable<NonNullable<Post<'/api/accounts/{accountId}/deposits'>['parameters']['header']>['Tidewater-Simulate']>;

/** One send. */
export interface MoneySendRequest<P extends MoneySendPath> {
  readonly path: P;
  /** The path's parameters (`{ accountId }` for a deposit or a withdrawal). */
  readonly pathParams?: Post<P>['parameters']['path'];
  readonly body: Post<P>['requestBody']['content']['application/json'];
  /** The send's key; made here (a UUID) when absent. Keep it until the outcome is known. */
  readonly idempotencyKey?: string;
  /** Sandbox only: the failure the first try meets (`Tidewater-Simulate`); later tries are ordinary resends. */
  readonly simulate?: Simulation;
}

/** The bounds of one send's tries. */
export interface MoneySendBounds {
  /** Tries at most (default 8). */
  readonly maxAttempts?: number;
  /** Waits no longer than this in all (default 30 s). */
  readonly giveUpAfterMs?: number;
}

/** What a send ended in. */
export type MoneySendOutcome<P extends MoneySendPath> =
  /** The money moved: the 201 (`replayed`: the stored answer of an earlier try, or read from the key). */
  | { readonly kind: 'sent'; readonly data: SentBody<P>; readonly replayed: boolean }
  /** A final refusal of the bank's rules (404, 422), stored under the key: a new try needs a new key. */
  | { readonly kind: 'refused'; readonly status: number; readonly problem: Problem; readonly replayed: boolean }
  /** Not decided (400, 401, 403, 423, or a key first sent to another operation): nothing stored for this request; fix it and send with the same key (a new key only for a different payment). */
  | { readonly kind: 'rejected'; readonly status: number; readonly problem: Problem | undefined }
  /** The money moved and its answer is lost for good (409 IDEMPOTENCY_RESULT_UNKNOWN): never send it again. */
  | { readonly kind: 'landed-answer-lost'; readonly problem: Problem | undefined }
  /** Gave up; the last word was that nothing moved under the key. */
  | { readonly kind: 'not-applied'; readonly problem: Problem | undefined }
  /** Gave up not knowing: keep the key, resend it later or read it; never a new key for this send. */
  | { readonly kind: 'unknown'; readonly problem: Problem | undefined };

/** What a send ended in, with the key it was sent under and the tries it took. */
export type MoneySendResult<P extends MoneySendPath> = MoneySendOutcome<P> & { readonly key: string; readonly attempts: number };

type KeyStatus = components['schemas']['IdempotencyKeyStatus'];
/** What a try or a look at the key settled: the result, or a wait and what the last word says of the money. */
type Step<P extends MoneySendPath> = { readonly done: MoneySendOutcome<P> } | { readonly waitMs: number; readonly nothingMoved: boolean; readonly problem: Problem | undefined };

/** The operation each send's path names, as the key's state reports it (`operationId`). */
const operationOf: Record<MoneySendPath, string> = {
  '/api/accounts/{accountId}/deposits': 'deposit',
  '/api/accounts/{accountId}/withdrawals': 'withdraw',
  '/api/transfers/internal': 'createInternalTransfer',
  '/api/transfers/external': 'createExternalTransfer',
};

const defaultWaitMs = 1_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && typeof (value as { errorCode?: unknown }).errorCode === 'string';
}

/** The wait an answer names: `Retry-After` (seconds), else the problem's `retryAfterSeconds`, else 1 s. */
function waitOf(response: Response | undefined, problem: Problem | undefined): number {
  const header = Number(response?.headers.get('retry-after'));
  if (Number.isFinite(header) && header >= 0 && response?.headers.has('retry-after')) return header * 1000;
  return problem?.retryAfterSeconds !== undefined ? problem.retryAfterSeconds * 1000 : defaultWaitMs;
}

/** The key's stored state; undefined when it could not be read. */
async function readKey(client: TidewaterClient, key: string): Promise<KeyStatus | undefined> {
  try {
    return (await client.GET('/api/idempotency-keys/{key}', { params: { path: { key } } })).data;
  } catch {
    return undefined;
  }
}

/** What the key's stored state settles (after an unknown outcome). */
async function lookAtKey<P extends MoneySendPath>(client: TidewaterClient, key: string, problem: Problem | undefined, known?: KeyStatus): Promise<Step<P>> {
  const status = known ?? (await readKey(client, key));
  const unknown = { waitMs: waitOfProblem(problem), problem };
  if (!status) return { ...unknown, nothingMoved: false };
  const answer = status.answer;
  if (status.state === 'landed' && answer) return { done: { kind: 'sent', data: answer.body as SentBody<P>, replayed: true } };
  if (status.state === 'landed') return { done: { kind: 'landed-answer-lost', problem } };
  if (status.state === 'refused' && answer && isProblem(answer.body)) return { done: { kind: 'refused', status: answer.status, problem: answer.body, replayed: true } };
  // Nothing held for the key: released, so nothing moved and nothing can land under it; resending it is safe.
  return { ...unknown, nothingMoved: status.state === 'unknown' };
}

const waitOfProblem = (problem: Problem | undefined) => waitOf(undefined, problem);

/**
 * A key that holds another request's fingerprint: its first request's outcome is this send's
 * when that request was this operation (the docs' step-up recipe: re-approved, the body
 * differs by its `authorizationId`); still running, wait and look again; otherwise the key
 * is not this payment's and the 422 is handed back.
 */
async function keyReused<P extends MoneySendPath>(client: TidewaterClient, request: MoneySendRequest<P>, key: string, problem: Problem | undefined): Promise<Step<P>> {
  const status = await readKey(client, key);
  const rejected = { done: { kind: 'rejected', status: 422, problem } } as const;
  if (!status || status.operationId !== operationOf[request.path]) return rejected;
  if (status.state === 'inFlight') return { waitMs: defaultWaitMs, nothingMoved: false, problem };
  const looked = await lookAtKey<P>(client, key, problem, status);
  return 'done' in looked ? looked : rejected;
}

/** One try, and what it settles. */
async function tryOnce<P extends MoneySendPath>(client: TidewaterClient, request: MoneySendRequest<P>, key: string, first: boolean): Promise<Step<P>> {
  const header = { 'Idempotency-Key': key, ...(first && request.simulate ? { 'Tidewater-Simulate': request.simulate } : {}) };
  // openapi-fetch types each path's call apart; the union of four is one call here.
  const post = client.POST as unknown as (path: string, init: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  let reply: Awaited<ReturnType<typeof post>>;
  try {
    reply = await post(request.path, { params: { path: request.pathParams ?? {}, header }, body: request.body });
  } catch {
    // No answer (a lost connection, a timeout): the outcome is unknown.
    return lookAtKey(client, key, undefined);
  }
  const { response } = reply;
  const replayed = response.headers.get('idempotent-replayed') === 'true';
  if (response.ok) return { done: { kind: 'sent', data: reply.data as SentBody<P>, replayed } };
  const problem = isProblem(reply.error) ? reply.error : undefined;
  const code = problem?.errorCode;
  if (response.status === 409 && code === 'IDEMPOTENCY_RESULT_UNKNOWN') return { done: { kind: 'landed-answer-lost', problem } };
  if (response.status === 409 && code === 'IDEMPOTENCY_IN_FLIGHT') return { waitMs: waitOf(response, problem), nothingMoved: false, problem };
  if (response.status === 429) return { waitMs: waitOf(response, problem), nothingMoved: true, problem };
  if ((response.status === 404 || response.status === 422) && problem && code !== 'IDEMPOTENCY_KEY_REUSED') {
    return { done: { kind: 'refused', status: response.status, problem, replayed } };
  }
  if (response.status === 422 && code === 'IDEMPOTENCY_KEY_REUSED') return keyReused(client, request, key, problem);
  if (response.status < 500) return { done: { kind: 'rejected', status: response.status, problem } };
  // A 503 that knows nothing moved: the same key again is safe and may run the send.
  if (problem?.applied === false) return { waitMs: waitOf(response, problem), nothingMoved: true, problem };
  const looked = await lookAtKey<P>(client, key, problem);
  return 'done' in looked ? looked : { ...looked, waitMs: waitOf(response, problem) };
}

/** Sends `request` under one key until its outcome is known or the bounds are spent (see the module's comment). */
export async function moneySend<P extends MoneySendPath>(client: TidewaterClient, request: MoneySendRequest<P>, bounds: MoneySendBounds = {}): Promise<MoneySendResult<P>> {
  const key = request.idempotencyKey ?? crypto.randomUUID();
  const maxAttempts = bounds.maxAttempts ?? 8;
  const giveUpAt = Date.now() + (bounds.giveUpAfterMs ?? 30_000);
  let last: Extract<Step<P>, { waitMs: number }> = { waitMs: 0, nothingMoved: false, problem: undefined };
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const step = await tryOnce(client, request, key, attempt === 1);
    if ('done' in step) return { ...step.done, key, attempts: attempt } as MoneySendResult<P>;
    last = step;
    if (attempt === maxAttempts || Date.now() + step.waitMs > giveUpAt) {
      return { kind: last.nothingMoved ? 'not-applied' : 'unknown', problem: last.problem, key, attempts: attempt };
    }
    await sleep(step.waitMs);
  }
  return { kind: last.nothingMoved ? 'not-applied' : 'unknown', problem: last.problem, key, attempts: maxAttempts };
}
