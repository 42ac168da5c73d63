/**
 * Liveness and readiness: `getHealth` answers while the process runs; `getReady` asks
 * the database one cheap question and answers 503 when it cannot.
 */
import type { Handlers } from '../contract/operations.ts';
import type { DomainDeps } from './deps.ts';
import { sqlOf } from '../data/statements.ts';

/** The handlers of the health probes. */
export function healthHandlers({ data }: DomainDeps): Pick<Handlers, 'getHealth' | 'getReady'> {
  return {
    async getHealth() {
      return { status: 200, body: { status: 'ok' } };
    },
    async getReady() {
      await sqlOf(data.db).query`SELECT 1`;
      return { status: 200, body: { status: 'ready' } };
    },
  };
}
