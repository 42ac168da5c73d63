/**
 * The overhead scenario's layers-off API: the bank composed by server/src/app.ts exactly as
 * main.ts composes it, with each resilience layer passed through. No deadline is armed, a
 * database call runs once (no retry), no commit gate sends a statement that is its own commit
 * (a plain statement on the pool), pools use pg's own client (no gate at COMMIT, nothing
 * cancels a statement) and stand behind no circuit breaker. For the
 * bench only: never serve customers like this.
 */
import pg from 'pg';
import type { ResilienceLayers } from '../../server/src/app.ts';
import { plainStatementOn } from '../../server/src/data/commitGate/index.ts';
import { none } from '../../server/src/data/retry/index.ts';
import { serveApi } from '../../server/src/serveApi.ts';

const passThrough: ResilienceLayers = {
  deadlineMs: () => undefined,
  retryPolicy: () => none(),
  connections: {
    pglite: (engine) => ({ engine }),
    ownCommit: (target, options) => plainStatementOn(target, options.preparedStatements !== 'unnamed'),
    Client: pg.Client,
    server: () => ({ pool: (settings) => new pg.Pool(settings) }),
  },
};

serveApi(passThrough);
