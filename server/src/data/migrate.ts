/**
 * Applies the SQL migrations in `server/prisma/migrations` with node-pg-migrate, on a
 * PostgreSQL server or, through a small client shim, on the embedded PGlite.
 * (adr/0003-prisma-driver-adapters-and-sql-migrations.md)
 */
import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import type { PGlite } from '@electric-sql/pglite';
import type { ClientBase } from 'pg';

/** Where the migration files live. */
export const migrationsDir = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));

/** What node-pg-migrate needs of a client: `query(text, values)` answering `{ rows }`. */
interface MigrationClient {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * PGlite's `query` runs one statement with parameters; `exec` runs a script of several.
 * node-pg-migrate sends whole migration files without parameters, so those go to `exec`.
 */
export function pgliteMigrationClient(pglite: PGlite): MigrationClient {
  return {
    async query(text, values) {
      if (values && values.length > 0) return pglite.query(text, values);
      const results = await pglite.exec(text);
      return results.at(-1) ?? { rows: [] };
    },
  };
}

/** Options shared by every run: quiet logs, up to the newest migration. */
type Target = { databaseUrl: string } | { dbClient: MigrationClient };

/** Runs every pending migration up; answers the names it applied. */
export async function migrateUp(target: Target, log: (message: string) => void = () => {}): Promise<string[]> {
  const connection =
    'databaseUrl' in target ? { databaseUrl: target.databaseUrl } : { dbClient: target.dbClient as unknown as ClientBase };
  const applied = await runner({
    ...connection,
    dir: migrationsDir,
    migrationsTable: 'pgmigrations',
    direction: 'up',
    singleTransaction: true,
    checkOrder: true,
    log,
    logger: { debug: () => {}, info: log, warn: log, error: log },
  });
  return applied.map((migration) => migration.name);
}
