/**
 * Liveness and readiness: `getHealth` answers while the process runs; `getReady` asks
 * the database one cheap question and answers 503 when it cannot, or when a write was
 * refused for lack of resources (a full disk) within the last Retry-After.
 */
import type { Handlers } from '../contract/operations.ts';
import type { DomainDeps } from './deps.ts';
import { ApiProblem } from '../errors/apiProblem.ts';
import { writesRefusedWithin } from './writeRefusals.ts';

/** The handlers of the health probes. */
export function healthHandlers({ data, config }: DomainDeps): Pick<Handlers, 'getHealth' | 'getReady'> {
  return {
    async getHealth() {
      return { status: 200, body: { status: 'ok' } };
    },
    async getReady() {
      if (writesRefusedWithin(config.retryAfterSeconds * 1000)) {
        throw new ApiProblem('SERVICE_UNAVAILABLE', 'The database refused writes for lack of resources (a full disk) just now.', {
          retryAfterSeconds: config.retryAfterSeconds,
        });
      }
      await data.db.$queryRaw`SELECT 1`;
      return { status: 200, body: { status: 'ready' } };
    },
  };
}
