/**
 * Connection source (adr/0005): takes the database connection
 * string from a connection/secrets HTTP service instead of DATABASE_URL.
 *
 * There is exactly ONE retry layer, the loop in `retrieve` (retrieval.ts). Under it each attempt is one
 * plain `fetch` with its own `AbortSignal.timeout` and `redirect: 'manual'`: no transport retry,
 * no redirect-following, so a 401 presents the credentials exactly once and the number of HTTP
 * requests never exceeds `attempts`. Each attempt returns its outcome as a value; nothing is
 * shared between attempts or between calls.
 */
import { validateConnectionSourceOptions, type ConnectionSource, type ConnectionSourceOptions } from './connectionSourceOptions.ts';
import { resolveContext, retrieve } from './retrieval.ts';

export { validateConnectionSourceOptions, worstCaseMs, type ConnectionSource, type ConnectionSourceOptions } from './connectionSourceOptions.ts';

/**
 * Creates a source for one connection. Validates the options first (throws before any HTTP call);
 * the first `get()` performs the retrieval.
 * @throws ConnectionSourceError kind `config` when the options are invalid.
 */
export function createConnectionSource(options: ConnectionSourceOptions): ConnectionSource {
  validateConnectionSourceOptions(options);
  const context = resolveContext(options);
  let current: Promise<string> | undefined;
  return {
    get() {
      if (current) return current;
      const retrieval = retrieve(context);
      current = retrieval;
      // A failure is not cached; the identity check keeps an invalidate() + newer get() intact.
      retrieval.catch(() => {
        if (current === retrieval) current = undefined;
      });
      return retrieval;
    },
    invalidate(reason) {
      current = undefined;
      context.logger.info?.(
        { connectionName: context.connectionName, reason },
        'connection string invalidated',
      );
    },
  };
}

/**
 * True when `error` (or an error in its `cause` chain) is PostgreSQL SQLSTATE 28P01,
 * "password authentication failed": the password in the cached connection string is stale.
 */
export function isPasswordAuthenticationFailure(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    if ((current as { code?: unknown }).code === '28P01') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Calls `connect` with the source's connection string. If it fails with SQLSTATE 28P01 (the
 * password was rotated), invalidates the source ONCE and calls `connect` again with a freshly
 * retrieved string; a second failure is thrown as is. Never more than two connects.
 */
export async function withPasswordRotation<T>(
  source: ConnectionSource,
  connect: (connectionString: string) => Promise<T>,
): Promise<T> {
  const connectionString = await source.get();
  try {
    return await connect(connectionString);
  } catch (error) {
    if (!isPasswordAuthenticationFailure(error)) throw error;
    source.invalidate('password authentication failed (SQLSTATE 28P01)');
    return connect(await source.get());
  }
}
