/**
 * A read-only view of one PGlite engine, for `readDb()` on the embedded database
 * (adr/0007): every statement and transaction made through it runs in a read-only
 * transaction, so a write answers 25006 exactly as it does on a read-only session of a
 * server, and the "write on the read handle" bug fails on a developer's machine too.
 *
 * PGlite runs one statement or transaction at a time on its one engine, so the view
 * adds no concurrency of its own. It offers what `pglite-prisma-adapter` calls (`query`,
 * `exec`, `transaction`); anything else is deliberately absent.
 */
import type { PGlite, Transaction } from '@electric-sql/pglite';

/** The engine, read-only. */
export function pgliteReadOnly(engine: PGlite): PGlite {
  const readOnly = <T>(fn: (tx: Transaction) => Promise<T>): Promise<T> =>
    engine.transaction(async (tx) => {
      await tx.exec('SET TRANSACTION READ ONLY');
      return fn(tx);
    });
  const view: Pick<PGlite, 'query' | 'exec' | 'transaction'> = {
    query: (sql, params, options) => readOnly((tx) => tx.query(sql, params, options)),
    exec: (sql, options) => readOnly((tx) => tx.exec(sql, options)),
    transaction: readOnly,
  };
  return view as PGlite;
}
