/**
 * The BFF's own endpoints (`/bff/*`): the session, sign-up, sign-in, sign-out and the
 * keepalive. Not in the API's spec, so typed here. Same request layer as the API: the
 * 65 s abort, reads retried once, writes never, CSRF header on every write.
 */
import type { components } from '@tidewater/spec/openapi';
import { parseBodyText, toApiProblem } from './apiProblem.ts';
import { withCsrf, type RequestHooks } from './apiClient.ts';
import type { RequestLimits, ResilientFetch } from './resilientFetch.ts';
import type { Result } from './result.ts';

type User = components['schemas']['User'];
type Account = components['schemas']['Account'];

/** `GET /bff/session` and `POST /bff/session/keepalive`. */
export interface SessionInfo {
  authenticated: boolean;
  user: User | null;
  csrfToken: string;
  /** The inactivity timeout the BFF enforces. */
  idleTimeoutSeconds: number;
  /** Seconds until the session ends for inactivity; null when signed out. */
  idleExpiresInSeconds: number | null;
}

/** `POST /bff/register`'s body. */
export interface RegisterBody {
  email: string;
  password: string;
  displayName: string;
  handle: string;
  pin: string;
}

/** The BFF client. */
export interface BffClient {
  getSession(limits?: RequestLimits): Promise<Result<SessionInfo>>;
  keepalive(): Promise<Result<SessionInfo>>;
  register(body: RegisterBody): Promise<Result<{ user: User; account: Account }>>;
  login(body: { email: string; password: string }): Promise<Result<{ user: User }>>;
  logout(): Promise<Result<void>>;
}

/** Creates the BFF client over the request layer's fetch. */
export function createBffClient(fetch: ResilientFetch, hooks: Pick<RequestHooks, 'csrfToken'>, baseUrl: string): BffClient {
  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown, limits?: RequestLimits): Promise<Result<T>> {
    const headers = new Headers({ Accept: 'application/json' });
    if (body !== undefined) headers.set('Content-Type', 'application/json');
    const request = withCsrf(
      new Request(`${baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'same-origin',
      }),
      hooks,
    );
    try {
      const response = await fetch(request, limits);
      const parsed = parseBodyText(await response.text());
      if (!response.ok) return { error: toApiProblem(response, parsed) };
      return { data: parsed as T };
    } catch (failure) {
      return { error: toApiProblem(failure) };
    }
  }
  return {
    getSession: (limits) => call('GET', '/bff/session', undefined, limits),
    keepalive: () => call('POST', '/bff/session/keepalive'),
    register: (body) => call('POST', '/bff/register', body),
    login: (body) => call('POST', '/bff/login', body),
    logout: () => call('POST', '/bff/logout'),
  };
}
