/**
 * The BFF's own endpoints (`/bff/*`): the session, sign-up, sign-in, sign-out and the
 * keepalive, typed from spec/bff.yaml by openapi-fetch. Same request layer as the API
 * (the SPA_ABORT_MS abort, reads retried once, writes never, CSRF header on every write); unlike
 * the API client it reports no answers to the hooks: the session store reads these itself.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from '@tidewater/spec/bff';
import { withCsrf, type RequestHooks } from './apiClient.ts';
import type { RequestLimits, ResilientFetch } from './resilientFetch.ts';
import { settle, type Result } from './result.ts';

type Schemas = components['schemas'];

/** `GET /bff/session` and `POST /bff/session/keepalive` (spec/bff.yaml `SessionState`). */
export type SessionInfo = Schemas['SessionState'];

/** `POST /bff/register`'s body (the API's `RegisterRequest`). */
export type RegisterBody = Schemas['RegisterRequest'];

/** The BFF client. */
export interface BffClient {
  getSession(limits?: RequestLimits): Promise<Result<SessionInfo>>;
  keepalive(): Promise<Result<SessionInfo>>;
  register(body: RegisterBody): Promise<Result<Schemas['Registration']>>;
  login(body: Schemas['CreateTokenRequest']): Promise<Result<Schemas['SignedIn']>>;
  logout(): Promise<Result<void>>;
}

/** Creates the BFF client over the request layer's fetch. */
export function createBffClient(fetch: ResilientFetch, hooks: Pick<RequestHooks, 'csrfToken'>, baseUrl: string): BffClient {
  const client = createClient<paths>({
    baseUrl,
    headers: { Accept: 'application/json' },
    credentials: 'same-origin',
    fetch: (request: Request) => fetch(request),
  });
  client.use({ onRequest: ({ request }) => withCsrf(request, hooks) });
  /** The request layer with this call's limits. */
  const limited = (limits?: RequestLimits) => (request: Request) => fetch(request, limits);
  return {
    getSession: (limits) => settle(() => client.GET('/bff/session', { fetch: limited(limits) })),
    keepalive: () => settle(() => client.POST('/bff/session/keepalive')),
    register: (body) => settle(() => client.POST('/bff/register', { body })),
    login: (body) => settle(() => client.POST('/bff/login', { body })),
    logout: async () => {
      const result = await settle(() => client.POST('/bff/logout'));
      return result.error ? result : { data: undefined };
    },
  };
}
