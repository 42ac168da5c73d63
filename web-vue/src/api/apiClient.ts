/**
 * The bank's API as the browser reaches it: `/api/*` through the BFF, typed from the
 * spec by openapi-fetch. Middleware order: onRequest adds the CSRF header to every
 * state-changing request; onResponse tells the hooks what the BFF saw (activity slides
 * the SPA's copy of the inactivity clock; a 401 UNAUTHENTICATED means the session ended).
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '@tidewater/spec/openapi';
import { parseBodyText } from './apiProblem.ts';
import type { ReadRetryCause, ResilientFetch, RequestLimits } from './resilientFetch.ts';

/** The typed client. */
export type ApiClient = Client<paths>;

/** What the request layer reports to the rest of the SPA. */
export interface RequestHooks {
  /** The CSRF token of the session, sent as X-CSRF-Token on every write. */
  csrfToken: () => string | null;
  /** An answer the BFF itself wrote arrived (it saw the request). */
  onBffAnswer: (response: Response, request: Request) => void;
  /** The BFF said the session is gone (401 UNAUTHENTICATED). */
  onUnauthenticated: () => void;
  /** A read's first attempt met an outage (or no connection) and waits for its one retry. */
  onReadRetry: (cause: ReadRetryCause) => void;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The header that carries the CSRF token. */
const CSRF_HEADER = 'X-CSRF-Token';

/** Adds the CSRF header to a state-changing request. */
export function withCsrf(request: Request, hooks: Pick<RequestHooks, 'csrfToken'>): Request {
  const token = hooks.csrfToken();
  if (!SAFE_METHODS.has(request.method.toUpperCase()) && token) request.headers.set(CSRF_HEADER, token);
  return request;
}

/**
 * True when the BFF wrote this answer (so it saw the request): everything but a
 * non-JSON 5xx, which a proxy in front of it wrote (adr/0009: an HTTP_503 does
 * not slide the inactivity clock).
 */
function bffSawIt(response: Response): boolean {
  if (response.status < 500) return true;
  return (response.headers.get('Content-Type') ?? '').includes('json');
}

/** Reports an answer to the hooks; peeks a 401's body for UNAUTHENTICATED. */
async function reportAnswer(request: Request, response: Response, hooks: RequestHooks): Promise<void> {
  if (bffSawIt(response)) hooks.onBffAnswer(response, request);
  if (response.status !== 401) return;
  const body = parseBodyText(await response.clone().text().catch(() => ''));
  const code = typeof body === 'object' && body !== null ? (body as { errorCode?: unknown }).errorCode : undefined;
  if (code === undefined || code === 'UNAUTHENTICATED' || code === 'TOKEN_INVALID') hooks.onUnauthenticated();
}

/** Creates the typed API client over the request layer's fetch. */
export function createApiClient(fetch: ResilientFetch, hooks: RequestHooks, baseUrl: string, limits?: RequestLimits): ApiClient {
  const client = createClient<paths>({ baseUrl, fetch: (request: Request) => fetch(request, limits) });
  client.use({
    onRequest: ({ request }) => withCsrf(request, hooks),
    onResponse: async ({ request, response }) => {
      await reportAnswer(request, response, hooks);
      return undefined;
    },
  });
  return client;
}
