/**
 * What the domain's operation families need: the database, the config table and the
 * token service. Built once in `app.ts` and handed to each family.
 */
import type { ServerConfig } from '../config.ts';
import type { Database } from '../data/database.ts';
import type { AccessTokens } from './accessTokens.ts';

/** The domain's dependencies. */
export interface DomainDeps {
  readonly database: Database;
  readonly config: ServerConfig;
  readonly tokens: AccessTokens;
}
