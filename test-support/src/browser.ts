/**
 * A browser as the BFF sees one: a cookie jar and the CSRF header, nothing else (no
 * bearer token, no access to HttpOnly cookies from "script"). Every exchange is kept, so
 * a test can search all answers for leaked tokens.
 */
import { setTimeout as wait } from 'node:timers/promises';
import { uniqueHandle } from './handles.ts';

/** One request and its answer. */
export interface Exchange {
  method: string;
  path: string;
  status: number;
  headers: Array<[string, string]>;
  setCookies: string[];
  body: string;
}

/** What a call returns. */
export interface Answer {
  status: number;
  headers: Headers;
  setCookies: string[];
  text: string;
  elapsedMs: number;
  json<T = Record<string, unknown>>(): T;
}

/** Options of one call. */
export interface CallOptions {
  method?: string;
  json?: unknown;
  body?: string;
  headers?: Record<string, string>;
  /** Send the CSRF token (default: on every write). */
  csrf?: boolean | string;
  signal?: AbortSignal;
}

/** A cookie-jar client of one origin. */
export class Browser {
  readonly cookies = new Map<string, string>();
  readonly exchanges: Exchange[] = [];
  csrfToken: string | undefined;

  readonly origin: string;

  constructor(origin: string) {
    this.origin = origin;
  }

  /** Calls the BFF like the SPA does. */
  async call(path: string, options: CallOptions = {}): Promise<Answer> {
    const method =
      options.method ?? (options.json !== undefined || options.body !== undefined ? 'POST' : 'GET');
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (this.cookies.size > 0)
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const sendCsrf = options.csrf ?? !['GET', 'HEAD'].includes(method);
    if (typeof sendCsrf === 'string') headers['x-csrf-token'] = sendCsrf;
    else if (sendCsrf && this.csrfToken) headers['x-csrf-token'] = this.csrfToken;
    let body = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    const startedAt = Date.now();
    const response = await fetch(`${this.origin}${path}`, {
      method,
      headers,
      body,
      redirect: 'manual',
      signal: options.signal,
    });
    const text = await response.text();
    const elapsedMs = Date.now() - startedAt;
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) this.store(line);
    this.exchanges.push({
      method,
      path,
      status: response.status,
      headers: [...response.headers],
      setCookies,
      body: text,
    });
    // Sign-in makes a new CSRF token (adr/0043): read it, as the SPA does.
    if (['/bff/login', '/bff/register'].includes(path) && response.ok) await this.session();
    return {
      status: response.status,
      headers: response.headers,
      setCookies,
      text,
      elapsedMs,
      json: <T>() => JSON.parse(text) as T,
    };
  }

  /** The session id inside the signed `tw_session` cookie (`s:<id>.<signature>`), for reading the store. */
  sessionId(): string | undefined {
    const value = this.cookies.get('tw_session');
    return value ? /^s:([^.]+)\./.exec(decodeURIComponent(value))?.[1] : undefined;
  }

  /** GET /bff/session, keeping its CSRF token as the SPA would. */
  async session(): Promise<Answer> {
    const answer = await this.call('/bff/session');
    if (answer.status === 200) this.csrfToken = answer.json<{ csrfToken: string }>().csrfToken;
    return answer;
  }

  private store(setCookie: string): void {
    const [pair = '', ...attributes] = setCookie.split(';').map((part) => part.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const expires = attributes.find((a) => a.toLowerCase().startsWith('expires='));
    const maxAge = attributes.find((a) => a.toLowerCase().startsWith('max-age='));
    const removed =
      (maxAge && Number(maxAge.slice(8)) <= 0) ||
      (expires && Date.parse(expires.slice(8)) <= Date.now()) ||
      value === '';
    if (removed) this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}

/** A new visitor's sign-up body: a handle of `uniqueHandle(label)`, and an email named after it. */
export function newVisitor(label = 'v'): {
  email: string;
  password: string;
  displayName: string;
  handle: string;
  pin: string;
} {
  const handle = uniqueHandle(label);
  return {
    email: `${handle}@example.com`,
    password: 'correct horse battery',
    displayName: `Visitor ${handle}`,
    handle,
    pin: '4821',
  };
}

/** Resolves after `ms`. */
export const sleep = (ms: number): Promise<void> => wait(ms);

/** Resolves once `check` is true (polled every 50 ms), or throws after `timeoutMs`. */
export async function waitFor(
  check: () => boolean,
  timeoutMs = 5_000,
  what = 'the condition',
): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > giveUpAt) throw new Error(`${what} did not hold within ${timeoutMs} ms`);
    await sleep(50);
  }
}
