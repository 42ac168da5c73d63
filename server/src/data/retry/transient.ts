/**
 * The transient classifier (adr/0007): which database errors
 * would likely work a moment later, and whether the database confirmed that the failed
 * work was not applied. It only describes; `retryPolicy.ts` decides.
 *
 * Errors are recognised as the drivers really throw them (captured from a real
 * PostgreSQL in `transient.pg.test.ts`): `pg`'s `DatabaseError.code`; Prisma's
 * `PrismaClientKnownRequestError.meta.driverAdapterError.cause.originalCode`; a bare
 * `DriverAdapterError.cause.originalCode` (a 40001 at COMMIT); `cause.kind` when the
 * adapter kept no SQLSTATE (`DatabaseNotReachable`); Node socket errors, also inside
 * `cause` or an `AggregateError`; pg's code-less messages; SQL Server's `number`/`class`
 * on mssql/tedious errors, their `originalError.info` and `precedingErrors`.
 */

/** What kind of temporary failure an error is. */
export type TransientKind =
  | 'serialization' // 40001
  | 'deadlock' // 40P01, SQL Server 1205
  | 'lockNotAvailable' // 55P03 (lock_timeout, NOWAIT)
  | 'tooManyConnections' // 53300
  | 'insufficientResources' // any other class 53: a full disk (53100), out of memory (53200): recognised, not retried
  | 'cannotConnectNow' // 57P03 (starting, stopping, recovering); SQL Server login-time unavailability
  | 'adminShutdown' // 57P01 (terminated, fast shutdown), 57P02 (crash shutdown)
  | 'connection' // 08xxx, socket errors, P1001, a connection that ended
  | 'poolTimeout' // pg pool had no free connection within its wait: recognised, not retried (the pool is busy, not broken)
  | 'throttled' // SQL Server / Azure SQL resource governance
  | 'notPrimary' // 25006 on a read-write connection, or no host of a list is the primary now (a failover or switchover)
  | 'statementTimeout'; // 57014, pg's query_timeout, SQL Server -2: recognised, not retried by default

/** The classifier's verdict on one error. */
export interface Classification {
  kind: TransientKind;
  /** The code found: a SQLSTATE ('40P01'), Node code ('ECONNREFUSED'), Prisma code ('P1001'), adapter kind, SQL Server number ('1205') or a name for a code-less pg message ('POOL_TIMEOUT'). */
  code: string;
  /** The database or driver guarantees the failed work had no effect, so even a lone write may rerun. */
  confirmedNotApplied: boolean;
  /**
   * Whether the retry layer may retry it at all; false for timeouts: a slow query is likely
   * slow again, and a request that waited a whole pool wait for a connection would only wait
   * another (five pool waits would outlast the deadline).
   */
  retryable: boolean;
}

/** kind, confirmedNotApplied, retryable (default true). */
type Rule = readonly [TransientKind, boolean, boolean?];
type Row = readonly [codes: string, ...rule: Rule];
const CONNECTION_LOST: Rule = ['connection', false];
// A full disk or exhausted memory stays so for longer than a request's retries: answered at once.
const INSUFFICIENT_RESOURCES: Rule = ['insufficientResources', true, false];
const table = (rows: Row[]) =>
  new Map(rows.flatMap(([codes, ...rule]) => codes.split(' ').map((code) => [code, rule] as const)));

/**
 * SQLSTATEs; any other class 08 code is a `connection` that may have been applied, and any
 * other class 53 code `insufficientResources`: an ERROR aborted the transaction, so nothing
 * was applied (a write that cannot reach WAL is a PANIC, met as a lost connection instead).
 */
const POSTGRES = table([
  ['40001', 'serialization', true],
  ['40P01', 'deadlock', true],
  ['55P03', 'lockNotAvailable', true],
  ['53300', 'tooManyConnections', true],
  ['57P03', 'cannotConnectNow', true],
  ['57P01 57P02', 'adminShutdown', false],
  ['57014', 'statementTimeout', true, false], // the server cancelled the statement
  ['08001 08004', 'connection', true], // could not establish / server rejected the connection
]);

/** Node socket codes; any with `syscall: 'connect'` is also confirmed (nothing was sent). */
const NETWORK = table([
  ['ECONNREFUSED ENOTFOUND EAI_AGAIN EHOSTUNREACH ENETUNREACH', 'connection', true],
  ['ECONNRESET EPIPE ETIMEDOUT ECONNABORTED ESOCKET', 'connection', false],
]);

/**
 * Our own: the circuit breaker refused a connection, or a login failed because the server
 * cannot be reached (nothing was sent); a read-write statement refused with 25006 (the
 * server is not the primary any more: the transaction did nothing) or no host of a URL's
 * list serving read-write now (contract/src/hostList.ts; nothing was sent).
 */
const OURS = table([
  ['DATABASE_UNAVAILABLE', 'connection', true],
  ['NOT_PRIMARY NO_MATCHING_HOST', 'notPrimary', true],
]);

/** pg's code-less errors, matched by exact message, with the code we report for them. */
const PG_MESSAGES = new Map<string, readonly [string, Rule]>([
  ['timeout exceeded when trying to connect', ['POOL_TIMEOUT', ['poolTimeout', true, false]]],
  ['Connection terminated due to connection timeout', ['CONNECT_TIMEOUT', ['connection', true]]],
  ['timeout expired', ['CONNECT_TIMEOUT', ['connection', true]]], // pg.Client's connectionTimeoutMillis
  ['Client has encountered a connection error and is not queryable', ['NOT_QUERYABLE', ['connection', true]]],
  ['Connection terminated unexpectedly', ['CONNECTION_TERMINATED', CONNECTION_LOST]],
  ['Connection terminated', ['CONNECTION_TERMINATED', CONNECTION_LOST]], // its owner ended the client under a pending statement
  ['Client was closed and is not queryable', ['CLIENT_CLOSED', ['connection', true]]], // refused before it was sent
  ['Query read timeout', ['QUERY_READ_TIMEOUT', ['statementTimeout', false, false]]], // pg's client-side query_timeout
]);

/** Prisma codes and adapter `cause.kind`s: used only when nothing more specific was found. */
const PRISMA = table([
  ['P1001 DatabaseNotReachable', 'connection', true],
  ['P1017 ConnectionClosed SocketTimeout', 'connection', false],
  ['P2024', 'poolTimeout', true, false],
  ['P2034 TransactionWriteConflict', 'serialization', true], // write conflict or deadlock
  ['TooManyConnections', 'tooManyConnections', true],
]);

/** SQL Server / Azure SQL error numbers (mssql and tedious put them at `number`). */
const SQL_SERVER = table([
  ['-2', 'statementTimeout', false, false], // the client's command timeout
  ['1205', 'deadlock', true],
  ['53 11001', 'connection', true], // server not found: nothing was sent
  ['35 64 233 10053 10054 10060 40197', 'connection', false],
  ['4060 17142 17197 18401 40613', 'cannotConnectNow', true], // refused at login
  ['10928 10929 40501 49918 49919 49920', 'throttled', true], // request refused: retry later
]);

type Node = Record<string, unknown>;
const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null;
const lookup = <T>(map: Map<string, T>, key: unknown) =>
  typeof key === 'string' || typeof key === 'number' ? map.get(String(key)) : undefined;
const verdict = (code: string, [kind, confirmedNotApplied, retryable = true]: Rule): Classification => ({
  kind,
  code,
  confirmedNotApplied,
  retryable,
});

/** The error and everything nested in it, outermost first (breadth-first, cycle-safe). */
function nested(error: unknown): Node[] {
  const found: Node[] = [];
  for (let queue = [error]; queue.length && found.length < 32;) {
    const node = queue.shift();
    if (!isObject(node) || found.includes(node)) continue;
    found.push(node);
    const meta = isObject(node.meta) ? node.meta.driverAdapterError : undefined;
    const original = node.originalError;
    queue.push(node.cause, meta, original, isObject(original) ? original.info : undefined);
    for (const list of [node.errors, node.precedingErrors]) if (Array.isArray(list)) queue.push(...list);
  }
  return found;
}

/** A SQLSTATE, SQL Server number or class, socket code, or known pg message on this one node. */
function specific(node: Node): Classification | undefined {
  for (const sqlState of [node.originalCode, node.code]) {
    const rule =
      lookup(POSTGRES, sqlState) ??
      (/^08[0-9A-Z]{3}$/.test(String(sqlState)) ? CONNECTION_LOST : undefined) ??
      (/^53[0-9A-Z]{3}$/.test(String(sqlState)) ? INSUFFICIENT_RESOURCES : undefined);
    if (rule) return verdict(String(sqlState), rule);
  }
  const sqlServer = typeof node.number === 'number' ? lookup(SQL_SERVER, node.number) : undefined;
  if (sqlServer) return verdict(String(node.number), sqlServer);
  if (typeof node.class === 'number' && node.class >= 20)
    return verdict(`class ${node.class}`, CONNECTION_LOST);
  const ours = lookup(OURS, node.code);
  if (ours) return verdict(String(node.code), ours);
  const network = lookup(NETWORK, node.code);
  if (network) return verdict(String(node.code), [network[0], network[1] || node.syscall === 'connect']);
  const message = lookup(PG_MESSAGES, node.message);
  return message && verdict(...message);
}

/**
 * Classifies an error thrown by `pg`, `@prisma/adapter-pg`, Prisma Client or mssql/tedious.
 * Returns `undefined` for anything that is not a known temporary failure (a constraint
 * violation, a bug): such errors are never retried. The most specific code anywhere in
 * the error wins over Prisma's generic codes (P2034 is resolved to 40001 or 40P01).
 */
export function classify(error: unknown): Classification | undefined {
  const nodes = nested(error);
  for (const node of nodes) {
    const found = specific(node);
    if (found) return found;
  }
  for (const node of nodes) {
    for (const code of [node.code, node.kind]) {
      const rule = lookup(PRISMA, code);
      if (rule) return verdict(String(code), rule);
    }
  }
  return undefined;
}

/** PostgreSQL's read_only_sql_transaction: a write refused by a read-only session or server. */
const READ_ONLY_SQL_TRANSACTION = '25006';

/**
 * A 25006 met on a READ-WRITE connection (adr/0019): the server is not the primary (any
 * more), a switchover or a demotion. Unlike a 25006 on `readDb()` (a write on a read path:
 * a bug, answered 500), it is transient: the connection is discarded and the whole
 * transaction reruns on a fresh one; 503 while it persists.
 */
export class NotPrimary extends Error {
  readonly code = 'NOT_PRIMARY';
  constructor(options: { cause: unknown }) {
    super('the database refused a write as read-only: it is not the primary (any more)', options);
    this.name = 'NotPrimary';
  }
}

/** Whether anything in `error` carries 25006 (pg's `code`, Prisma's `originalCode`). */
export function isReadOnlyRefusal(error: unknown): boolean {
  return nested(error).some((node) => node.code === READ_ONLY_SQL_TRANSACTION || node.originalCode === READ_ONLY_SQL_TRANSACTION);
}

/** For the primary's read-write path: a 25006 becomes {@link NotPrimary}; anything else is answered as it came. */
export function onReadWritePath(error: unknown): unknown {
  return !(error instanceof NotPrimary) && isReadOnlyRefusal(error) ? new NotPrimary({ cause: error }) : error;
}
