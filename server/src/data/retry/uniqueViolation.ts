/**
 * Recognises a unique-constraint violation as a direct statement meets it (statements.ts):
 * the driver adapter's `DriverAdapterError`, SQLSTATE 23505 under its `cause`, on the pg
 * and the PGlite adapter alike.
 */

/** True when the error says a row with the same unique key already exists. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { cause?: { originalCode?: unknown } } | null | undefined)?.cause?.originalCode === '23505';
}
