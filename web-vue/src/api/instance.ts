/**
 * The SPA's clients, made once. main.ts wires the hooks to the session store;
 * tests call `configureRequests` with a fake environment and base URL.
 */
import { createApiClient, type ApiClient, type RequestHooks } from './apiClient.ts';
import { createBffClient, type BffClient } from './bffClient.ts';
import { browserEnvironment, type RequestEnvironment } from './requestEnvironment.ts';
import { createResilientFetch } from './resilientFetch.ts';

/** Everything the stores call. */
export interface Clients {
  /** The API, reads retried once. */
  api: ApiClient;
  /** The API, nothing retried: the look-up by key, whose retry is the visitor's "Check again". */
  apiOnce: ApiClient;
  bff: BffClient;
}

const hooks: RequestHooks = {
  csrfToken: () => null,
  onBffAnswer: () => undefined,
  onUnauthenticated: () => undefined,
  onReadRetry: () => undefined,
};

let clients: Clients | undefined;

/** Replaces the hooks (main.ts: the session store's token, activity and sign-out; the reads' outage notice). */
export function setRequestHooks(next: Partial<RequestHooks>): void {
  Object.assign(hooks, next);
}

/** (Re)creates the clients over `env`; the base URL defaults to this page's origin. */
export function configureRequests(env: RequestEnvironment = browserEnvironment, baseUrl = globalThis.location?.origin ?? ''): Clients {
  const fetch = createResilientFetch(env, {}, { readRetrying: (cause) => hooks.onReadRetry(cause) });
  clients = {
    api: createApiClient(fetch, hooks, baseUrl),
    apiOnce: createApiClient(fetch, hooks, baseUrl, { retryReads: false }),
    bff: createBffClient(fetch, hooks, baseUrl),
  };
  return clients;
}

/** The clients (created on first use with the browser's environment). */
export function useClients(): Clients {
  return clients ?? configureRequests();
}
