/**
 * Recognises a unique-constraint violation, SQLSTATE 23505, as the server meets it: from
 * Prisma Client (`PrismaClientKnownRequestError`, its driver adapter's error under
 * `meta.driverAdapterError`) or from the driver adapter itself (`DriverAdapterError`, its
 * SQLSTATE under `cause`), on the pg and the PGlite adapter alike.
 */

type WithSqlState = { cause?: { originalCode?: unknown } } | null | undefined;

/** True when the error says a row with the same unique key already exists. */
export function isUniqueViolation(error: unknown): boolean {
  const fromClient = (error as { meta?: { driverAdapterError?: WithSqlState } } | null | undefined)?.meta?.driverAdapterError;
  return (fromClient ?? (error as WithSqlState))?.cause?.originalCode === '23505';
}
