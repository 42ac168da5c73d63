/**
 * Applies the SQL migrations in `server/prisma/migrations` with node-pg-migrate, on a
 * PostgreSQL server or, through a small client shim, on the embedded PGlite.
 * (adr/0003-prisma-driver-adapters-and-sql-migrations.md)
 */
import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import type { PGlite } from '@electric-sql/pglite';
import pg, { type ClientBase } from 'pg';

/** Where the migration files live. */
const migrationsDir = fileURLToPath(new URL('../../../prisma/migrations', import.meta.url));

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
  if (!('databaseUrl' in target)) return runMigrations(target.dbClient as unknown as ClientBase, log);
  // Our own client, not node-pg-migrate's: it listens for its errors, so a server that
  // stops mid-migration fails the start-up instead of crashing it ("Unhandled 'error' event").
  const client = new pg.Client({ connectionString: target.databaseUrl });
  client.on('error', (error) => log(`the migration connection failed: ${error.message}`));
  await client.connect();
  try {
    return await runMigrations(client, log);
  } finally {
    await client.end().catch(() => {});
  }
}

async function runMigrations(dbClient: ClientBase, log: (message: string) => void): Promise<string[]> {
  const applied = await runner({
    dbClient,
    dir: migrationsDir,
    migrationsTable: 'pgmigrations',
    direction: 'up',
    singleTransaction: true,
    checkOrder: true,
    // Several API processes starting together: the second waits for the first's migrations
    // (which it then finds applied) instead of failing its start-up.
    advisoryLockMode: 'wait',
    log,
    logger: { debug: () => {}, info: log, warn: log, error: log },
  });
  return applied.map((migration) => migration.name);
}
