/**
 * The API's typed client: openapi-fetch on the paths openapi-typescript makes from
 * `spec/openapi.yaml`, so every call's path, parameters, body and answers are the
 * document's. Errors are values (`{ data } | { error }`), as openapi-fetch gives them.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/openapi.ts';

/** The client: every operation of the spec, typed. */
export type TidewaterClient = Client<paths>;

/** Where the API is, and who calls it. */
export interface TidewaterClientOptions {
  /** The API's own address (the spec's `servers`), e.g. `http://localhost:8081`; not the web app's. */
  readonly baseUrl: string;
  /** The access token of `POST /api/auth/token`, asked before each request (so a refreshed one is used at once). */
  readonly accessToken?: () => string | undefined;
  /** Another fetch (a test's, a proxy's). */
  readonly fetch?: typeof fetch;
}

/** A client of the API at `baseUrl`; each request carries `Authorization: Bearer` when `accessToken` answers one. */
export function createTidewaterClient(options: TidewaterClientOptions): TidewaterClient {
  const client = createClient<paths>({ baseUrl: options.baseUrl, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const { accessToken } = options;
  if (accessToken) {
    client.use({
      onRequest({ request }) {
        const token = accessToken();
        if (token && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${token}`);
        return request;
      },
    });
  }
  return client;
}
