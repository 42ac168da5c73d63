/**
 * What the BFF's routes and middleware share: the configuration, the API client, the
 * renewal table and the session store. Built once in `app.ts`; tests build their own.
 */
import type { Logger } from 'pino';
import type { BffConfig } from './config.ts';
import type { SessionStore } from './session/sessionStore.ts';
import type { ApiClient } from './upstream/apiClient.ts';
import type { Renewals } from './upstream/renewals.ts';

/** The BFF's shared parts. */
export interface BffDeps {
  readonly config: BffConfig;
  readonly logger: Logger;
  readonly api: ApiClient;
  readonly renewals: Renewals;
  readonly sessionStore: SessionStore;
}
