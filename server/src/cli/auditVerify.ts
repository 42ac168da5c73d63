/**
 * `npm run audit:verify`: checks every account's audit chain, that every ledger movement
 * has its audit row, and that balances are the sums of their movements
 * (domain/audit/auditVerification.ts). Reads DATABASE_URL, else the embedded database in
 * DATA_DIR (stop the API first: PGlite is one process's). Exits 0 when the trail is
 * intact, 1 naming every broken row, 2 when it cannot read the database. Closes the
 * database on every path (PGlite keeps timers alive otherwise).
 */
import { existsSync } from 'node:fs';
import { loadConfig } from '../config.ts';
import { openDatabase, type Database } from '../data/connections/index.ts';
import { verifyAuditTrail } from '../domain/audit/auditVerification.ts';

async function main(): Promise<number> {
  const config = loadConfig();
  if (!config.databaseUrl && config.dataDir !== 'memory://' && !existsSync(config.dataDir)) {
    console.error(`audit:verify: no database: DATABASE_URL is not set and DATA_DIR ${config.dataDir} does not exist`);
    return 2;
  }
  let database: Database | undefined;
  try {
    database = await openDatabase(config);
    const { accounts, auditRows, problems } = await verifyAuditTrail(database.prisma);
    if (problems.length > 0) {
      for (const problem of problems) console.error(`BROKEN ${problem}`);
      console.error(`audit:verify: ${problems.length} problem(s) in ${accounts} account(s), ${auditRows} audit row(s)`);
      return 1;
    }
    console.log(`audit:verify: intact: ${accounts} account(s), ${auditRows} audit row(s), every movement audited`);
    return 0;
  } catch (error) {
    console.error('audit:verify: could not read the database:', error instanceof Error ? error.message : error);
    return 2;
  } finally {
    await database?.close().catch(() => {});
  }
}

process.exitCode = await main();
