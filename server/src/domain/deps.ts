/**
 * What the domain's operation families need: the database, the config table and the
 * token service. Built once in `app.ts` and handed to each family.
 */
import type { ServerConfig } from '../config.ts';
import type { DataLayer } from '../data/dataLayer.ts';
import type { AccessTokens } from './accessTokens.ts';

/** The domain's dependencies. */
export interface DomainDeps {
  /** The one door to the database: transactions, retried reads and writes, replicas. */
  readonly data: DataLayer;
  readonly config: ServerConfig;
  readonly tokens: AccessTokens;
}
