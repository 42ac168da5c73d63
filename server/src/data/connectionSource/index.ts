/**
 * The connection source family: where the database's URL and password come from when a
 * connection service hands them out (fetched, cached, rotated), and the errors it names
 * (`connectionSourceErrors.ts`). `withPasswordRotation` retries a start-up whose password
 * was rotated under it.
 *
 * Other families and layers import it through this file only.
 */
export { createConnectionSource, withPasswordRotation } from './connectionSource.ts';
