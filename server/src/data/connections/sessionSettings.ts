/**
 * The guards every PostgreSQL session of the API runs under: the statement timeout, the
 * idle-in-transaction timeout and, on the read pools, read-only sessions (adr/0004, adr/0007).
 * With DB_SESSION_SETTINGS=startup each login sends them as startup parameters; with `role`
 * it sends none (a pooler refuses them, or drops them when told to ignore them: adr/0060)
 * and the operator sets them on the role. Either way `checkSessionSettings` reads them at
 * start through each pool and refuses to start when one does not hold: a guard is never off
 * without a word.
 */
import type pg from 'pg';
import { ConfigError, type ServerConfig } from '../../config.ts';

/** What the settings are made of. */
export type SessionConfig = Pick<ServerConfig, 'dbSessionSettings' | 'dbStatementTimeoutMs' | 'requestDeadlineMs'>;

/** Longer than any request, so only a transaction its request forgot is ended. */
const idleInTransactionMs = (config: SessionConfig) => config.requestDeadlineMs + 20_000;

/** The startup parameters of a login (none with `role`), read-only ones for a read pool. */
export function startupSettings(url: string, config: SessionConfig, readOnly: boolean): Pick<pg.PoolConfig, 'statement_timeout' | 'idle_in_transaction_session_timeout' | 'connectionString' | 'options'> {
  if (config.dbSessionSettings === 'role') return {};
  return {
    statement_timeout: config.dbStatementTimeoutMs,
    idle_in_transaction_session_timeout: idleInTransactionMs(config),
    ...(readOnly ? readOnlySession(url) : {}),
  };
}

/**
 * A read-only session for `url`: pg lets a URL's `options=` replace the config's, so the
 * operator's options are taken out of the URL and ours appended to them (both apply).
 */
function readOnlySession(url: string): Pick<pg.PoolConfig, 'connectionString' | 'options'> {
  const readOnly = '-c default_transaction_read_only=on';
  const parsed = new URL(url);
  const own = parsed.searchParams.get('options');
  if (own === null) return { options: readOnly };
  parsed.searchParams.delete('options');
  return { connectionString: parsed.toString(), options: `${own} ${readOnly}` };
}

/** One pool to check: its name in the message (the variable of its URL) and whether its sessions must be read-only. */
export interface CheckedPool {
  readonly pool: pg.Pool;
  readonly urlName: string;
  readonly readOnly: boolean;
  /**
   * A replica may be down while the API starts (reads then fall back or wait, adr/0007): it
   * is checked when it answers, and `unreachable` hears why it was not. The primary's pools
   * must answer: the migrations just ran on it.
   */
  readonly unreachable?: (error: unknown) => void;
}

interface SessionRow {
  role: string;
  statement_timeout: string;
  idle_in_transaction_session_timeout: string;
  default_transaction_read_only: string;
  standby: boolean;
}

/**
 * What a session of each pool runs under, read on one of its connections (in milliseconds,
 * pg_settings' unit for both timeouts); throws a ConfigError naming every setting that does
 * not hold, with the ALTER ROLE that fixes it. A standby is read-only whatever its settings.
 */
export async function checkSessionSettings(pools: readonly CheckedPool[], config: SessionConfig): Promise<void> {
  const wrong: string[] = [];
  const writers = new Set<string>();
  for (const { pool, urlName, readOnly, unreachable } of pools) {
    const read = pool.query<SessionRow>(`
      SELECT current_user AS role, pg_is_in_recovery() AS standby,
        (SELECT setting FROM pg_settings WHERE name = 'statement_timeout') AS statement_timeout,
        (SELECT setting FROM pg_settings WHERE name = 'idle_in_transaction_session_timeout') AS idle_in_transaction_session_timeout,
        (SELECT setting FROM pg_settings WHERE name = 'default_transaction_read_only') AS default_transaction_read_only`);
    const rows = unreachable
      ? await read.then(
          (result) => result.rows,
          (error: unknown) => {
            unreachable(error);
            return [];
          },
        )
      : (await read).rows;
    const session = rows[0];
    if (!session) continue;
    if (!readOnly) writers.add(session.role);
    const want: Array<[keyof SessionRow, string]> = [
      ['statement_timeout', String(config.dbStatementTimeoutMs)],
      ['idle_in_transaction_session_timeout', String(idleInTransactionMs(config))],
    ];
    if (readOnly && !session.standby) want.push(['default_transaction_read_only', 'on']);
    for (const [name, value] of want) {
      if (session[name] === value) continue;
      const fix = `ALTER ROLE "${session.role}" SET ${name} = ${value === 'on' ? 'on' : `'${value}ms'`};`;
      // The primary's role must stay read-write: a read-only pool on it needs a login of its own.
      const how = value === 'on' && writers.has(session.role) ? `fix: a role of its own for the read-only pool (DATABASE_READ_ONLY_URL) with ${fix.replace(`"${session.role}"`, '<that role>')}` : `fix: ${fix}`;
      wrong.push(`${urlName}: ${name} is ${String(session[name])}, the API wants ${value}; ${how}`);
    }
  }
  if (wrong.length === 0) return;
  const how =
    config.dbSessionSettings === 'role'
      ? 'DB_SESSION_SETTINGS=role: set them on the role (then reconnect, or restart the pooler)'
      : 'DB_SESSION_SETTINGS=startup sent them, and something dropped them (a pooler\'s ignore_startup_parameters?): use DB_SESSION_SETTINGS=role and set them on the role';
  throw new ConfigError(`the database sessions miss the API's guards (${how}):\n  - ${wrong.join('\n  - ')}`);
}
