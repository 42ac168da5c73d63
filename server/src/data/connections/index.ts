/**
 * The connections family: how the API reaches its database. `database.ts` opens the
 * primary and replica (PostgreSQL through pools behind circuit breakers, or the embedded
 * PGlite) with the connection layers (`connectionLayers.ts`: the commit gate, the
 * cancellable client, the circuit breaker) and the replica fallback wrapped around them;
 * `openBankDatabase.ts` chooses the database from the config (a connection service,
 * DATABASE_URL, else PGlite) and migrates it (`migrate.ts`); `readYourWrites.ts` keeps
 * the marks that send a user who just wrote to the primary; `circuitBreaker.ts` refuses
 * work at once while a database is known to be down.
 *
 * Other families and layers import it through this file only.
 */
export { type ConnectionLayers, resilientConnections } from './connectionLayers.ts';
export { type Database, openDatabase } from './database.ts';
export { migrateUp, pgliteMigrationClient } from './migrate.ts';
export { openBankDatabase } from './openBankDatabase.ts';
export { databaseMarks, markWithin, memoryMarks, type ReadYourWritesStore } from './readYourWrites.ts';
export { type CircuitBreaker, watchBreakers } from './circuitBreaker.ts';
