/**
 * Recognises a unique-constraint violation however it arrives: Prisma's P2002, or
 * SQLSTATE 23505 from the driver adapter (raw queries, batch transactions).
 */

/** True when the error says a row with the same unique key already exists. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } }; cause?: { originalCode?: unknown } };
  return (
    e?.code === 'P2002' ||
    e?.code === '23505' ||
    e?.meta?.driverAdapterError?.cause?.originalCode === '23505' ||
    e?.cause?.originalCode === '23505'
  );
}
