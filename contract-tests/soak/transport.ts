/**
 * How a soak client reaches the bank: straight to the API with a bearer token, or through
 * the BFF with a session cookie and its CSRF token (`--via-bff`), as the SPA does. Every
 * request carries a trace id of the soak's own, which the API writes on the audit rows of
 * any money it moves: the checks tie a movement to the request that wrote it.
 */
import { randomBytes } from 'node:crypto';

/** One HTTP exchange as the soak records it. */
export interface Exchange {
  status: number;
  body: unknown;
  traceId: string;
  /** Epoch ms when it was sent. */
  sentAt: number;
  ms: number;
  /** The wait the answer named (retryAfterSeconds, else Retry-After), in seconds. */
  retryAfterSeconds?: number;
}

/** The way to the bank of one customer. */
export interface Transport {
  /** `status` 0 when nothing came back before the client gave up (or the connection failed). */
  send(method: string, path: string, options?: { body?: unknown; key?: string }): Promise<Exchange>;
}

/** A visitor's sign-up body. */
export type { Identity } from '../support/callerValues.ts';

import type { Identity } from '../support/callerValues.ts';

async function exchange(url: string, init: RequestInit & { headers: Record<string, string> }, timeoutMs: number, onResponse?: (response: Response) => void): Promise<Exchange> {
  const traceId = randomBytes(16).toString('hex'); // a W3C trace id: the API takes it as its own
  init.headers['x-trace-id'] = traceId;
  const sentAt = Date.now();
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    onResponse?.(response);
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: kept as text (a proxy's error page, say)
    }
    const named = (body as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
    const header = Number(response.headers.get('retry-after'));
    const retryAfterSeconds = typeof named === 'number' ? named : Number.isFinite(header) && header > 0 ? header : undefined;
    return { status: response.status, body, traceId, sentAt, ms: Date.now() - sentAt, retryAfterSeconds };
  } catch (error) {
    return { status: 0, body: String(error), traceId, sentAt, ms: Date.now() - sentAt };
  }
}

const jsonInit = (method: string, body: unknown, headers: Record<string, string>) => ({
  method,
  headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
  body: body === undefined ? undefined : JSON.stringify(body),
});

/**
 * A sign-up or sign-in sent again, as a polite client does, while it is refused before
 * anything was done: 429 (sign-ups are limited) or a 503 that named its wait (the hashing
 * queue was full on a loaded machine).
 */
async function politely(send: () => Promise<Exchange>): Promise<Exchange> {
  let answer = await send();
  for (let tries = 1; tries < 20 && (answer.status === 429 || (answer.status === 503 && answer.retryAfterSeconds !== undefined)); tries++) {
    await new Promise((resolve) => setTimeout(resolve, (answer.retryAfterSeconds ?? 1) * 1_000));
    answer = await send();
  }
  return answer;
}

/** Straight to the API: signs up and in, then sends with the bearer token. */
export async function apiTransport(apiUrl: string, who: Identity, timeoutMs: number): Promise<{ transport: Transport; userId: string }> {
  // Setup, before any fault and moving no money: a 503 of a busy machine's password hashing is waited out (politely), not a failed soak.
  const post = (path: string, body: unknown) => exchange(`${apiUrl}${path}`, jsonInit('POST', body, {}), 60_000);
  const registered = await politely(() => post('/api/auth/register', who));
  if (registered.status !== 201) throw new Error(`sign-up answered ${registered.status}: ${JSON.stringify(registered.body)}`);
  const token = await politely(() => post('/api/auth/token', { email: who.email, password: who.password }));
  if (token.status !== 200) throw new Error(`sign-in answered ${token.status}: ${JSON.stringify(token.body)}`);
  const bearer = (token.body as { accessToken: string }).accessToken;
  return {
    userId: (registered.body as { user: { id: string } }).user.id,
    transport: {
      send: (method, path, { body, key } = {}) =>
        exchange(`${apiUrl}${path}`, jsonInit(method, body, { authorization: `Bearer ${bearer}`, ...(key ? { 'idempotency-key': key } : {}) }), timeoutMs),
    },
  };
}

/** Through the BFF: a cookie jar and the CSRF token, nothing else. */
export async function bffTransport(bffUrl: string, who: Identity, timeoutMs: number): Promise<{ transport: Transport; userId: string }> {
  const cookies = new Map<string, string>();
  let csrfToken = '';
  const keepCookies = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  };
  const send = (method: string, path: string, body: unknown, key: string | undefined, limitMs: number) => {
    const headers: Record<string, string> = { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
    if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
    if (key) headers['idempotency-key'] = key;
    return exchange(`${bffUrl}${path}`, jsonInit(method, body, headers), limitMs, keepCookies);
  };
  const session = await send('GET', '/bff/session', undefined, undefined, 60_000);
  if (session.status !== 200) throw new Error(`the BFF session answered ${session.status}`);
  csrfToken = (session.body as { csrfToken: string }).csrfToken;
  const registered = await politely(() => send('POST', '/bff/register', who, undefined, 60_000));
  if (registered.status !== 201) throw new Error(`sign-up through the BFF answered ${registered.status}: ${JSON.stringify(registered.body)}`);
  // Signing in regenerates the session: its CSRF token is a new one.
  const signedIn = await send('GET', '/bff/session', undefined, undefined, 60_000);
  csrfToken = (signedIn.body as { csrfToken: string }).csrfToken;
  const me = await send('GET', '/api/me', undefined, undefined, 60_000);
  if (me.status !== 200) throw new Error(`/api/me through the BFF answered ${me.status}`);
  return {
    userId: (me.body as { id: string }).id,
    transport: { send: (method, path, { body, key } = {}) => send(method, path, body, key, timeoutMs) },
  };
}
