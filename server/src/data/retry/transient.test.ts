import { PrismaClientKnownRequestError } from '@prisma/client/runtime/client';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { classify, NotPrimary, onReadWritePath, type Classification, type TransientKind } from './transient.ts';

// The shapes copy what pg 8.23, @prisma/adapter-pg 7.10 and Prisma Client 7.10 really threw at
// PostgreSQL 15 (transient.pg.test.ts captures them live); SQL Server's copy mssql's RequestError.

const want = (kind: TransientKind, code: string, confirmedNotApplied: boolean, retryable = true) =>
  ({ kind, code, confirmedNotApplied, retryable }) satisfies Classification;
const pgError = (code: string, severity = 'ERROR') =>
  Object.assign(new pg.DatabaseError('from the server', 100, 'error'), { code, severity });
/** adapter-pg's `DriverAdapterError` as the classifier meets it (its name and its `cause`), written out: the server imports none of Prisma's adapter internals (adr/0075). */
const adapterError = (cause: object) => Object.assign(new Error('DriverAdapterError'), { name: 'DriverAdapterError', cause });
const adapterSqlState = (originalCode: string, kind = 'postgres') =>
  adapterError({
    kind,
    originalCode,
    originalMessage: 'from the server',
    code: originalCode,
    severity: 'ERROR',
  });
const prismaError = (code: string, driverAdapterError?: unknown) =>
  new PrismaClientKnownRequestError(code, { code, clientVersion: '7.10.1', meta: { driverAdapterError } });
const socketError = (code: string, syscall: string) =>
  Object.assign(new Error(`${syscall} ${code} 127.0.0.1:5432`), {
    code,
    syscall,
    errno: -1,
    address: '127.0.0.1',
  });
const sqlServerError = (number: number, klass = 16) =>
  Object.assign(new Error(`error ${number}`), {
    name: 'RequestError',
    code: 'EREQUEST',
    number,
    class: klass,
  });

const refused = socketError('ECONNREFUSED', 'connect');
const reset = socketError('ECONNRESET', 'read');
const notReachable = adapterError({ kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 5432 });
const writeConflict = (sqlState: string) => adapterSqlState(sqlState, 'TransactionWriteConflict');
const aggregateWithCode = Object.assign(new AggregateError([refused, refused]), { code: 'ECONNREFUSED' });
const poolTimeoutViaPrisma = Object.assign(new Error('timeout exceeded when trying to connect'), {
  clientVersion: '7',
});
const connectTimeout = new Error('Connection terminated due to connection timeout', {
  cause: new Error('Connection terminated unexpectedly'),
});
const tediousDeadlock = { name: 'RequestError', originalError: { info: { number: 1205 } } };
const precededByDeadlock = Object.assign(sqlServerError(3621), {
  precedingErrors: [sqlServerError(1205, 13)],
});
const prototypeNames = Object.assign(new Error('constructor'), { code: 'toString', kind: '__proto__' });
const cyclic: Record<string, unknown> = { message: 'loops' };
cyclic.cause = cyclic;

// prettier-ignore
const cases: [string, { given: unknown; want: Classification | undefined }][] = [
  ['pg 40001', { given: pgError('40001'), want: want('serialization', '40001', true) }],
  ['pg 40P01', { given: pgError('40P01'), want: want('deadlock', '40P01', true) }],
  ['pg 55P03 lock timeout', { given: pgError('55P03'), want: want('lockNotAvailable', '55P03', true) }],
  ['pg 53300 at login', { given: pgError('53300', 'FATAL'), want: want('tooManyConnections', '53300', true) }],
  ['pg 53100 disk full', { given: pgError('53100'), want: want('insufficientResources', '53100', true, false) }],
  ['pg 53200 out of memory', { given: pgError('53200'), want: want('insufficientResources', '53200', true, false) }],
  ['pg 53400 configuration limit exceeded', { given: pgError('53400'), want: want('insufficientResources', '53400', true, false) }],
  ['adapter 53100 disk full', { given: adapterSqlState('53100'), want: want('insufficientResources', '53100', true, false) }],
  ['pg 57P03 starting up', { given: pgError('57P03', 'FATAL'), want: want('cannotConnectNow', '57P03', true) }],
  ['pg 57P01 terminated', { given: pgError('57P01', 'FATAL'), want: want('adminShutdown', '57P01', false) }],
  ['pg 57P02 crash shutdown', { given: pgError('57P02', 'FATAL'), want: want('adminShutdown', '57P02', false) }],
  ['pg 57014', { given: pgError('57014'), want: want('statementTimeout', '57014', true, false) }],
  ['pg 08006 connection failure', { given: pgError('08006'), want: want('connection', '08006', false) }],
  ['pg 08001 cannot connect', { given: pgError('08001'), want: want('connection', '08001', true) }],
  ['pg 23505 unique violation', { given: pgError('23505'), want: undefined }],
  ['pg 42P01 missing table', { given: pgError('42P01'), want: undefined }],
  ['Prisma P2034 deadlock', { given: prismaError('P2034', writeConflict('40P01')), want: want('deadlock', '40P01', true) }],
  ['Prisma P2034 serialization', { given: prismaError('P2034', writeConflict('40001')), want: want('serialization', '40001', true) }],
  ['Prisma P2034 without meta', { given: prismaError('P2034'), want: want('serialization', 'P2034', true) }],
  ['Prisma P2010 raw 57014', { given: prismaError('P2010', adapterSqlState('57014')), want: want('statementTimeout', '57014', true, false) }],
  ['Prisma P2039 model 57014', { given: prismaError('P2039', adapterSqlState('57014')), want: want('statementTimeout', '57014', true, false) }],
  ['Prisma P2010 raw 57P01', { given: prismaError('P2010', adapterSqlState('57P01')), want: want('adminShutdown', '57P01', false) }],
  ['Prisma P1001 refused', { given: prismaError('P1001', notReachable), want: want('connection', 'P1001', true) }],
  ['Prisma P2010 raw refused', { given: prismaError('P2010', notReachable), want: want('connection', 'DatabaseNotReachable', true) }],
  ['Prisma P1017 closed', { given: prismaError('P1017'), want: want('connection', 'P1017', false) }],
  ['Prisma P2024 pool timeout', { given: prismaError('P2024'), want: want('poolTimeout', 'P2024', true, false) }],
  ['Prisma P2002 unique violation', { given: prismaError('P2002', adapterSqlState('23505', 'UniqueConstraintViolation')), want: undefined }],
  ['adapter 40001 at COMMIT', { given: writeConflict('40001'), want: want('serialization', '40001', true) }],
  ['adapter 53300', { given: adapterSqlState('53300', 'TooManyConnections'), want: want('tooManyConnections', '53300', true) }],
  ['adapter ConnectionClosed (ECONNRESET)', { given: adapterError({ kind: 'ConnectionClosed' }), want: want('connection', 'ConnectionClosed', false) }],
  ['adapter SocketTimeout (ETIMEDOUT)', { given: adapterError({ kind: 'SocketTimeout' }), want: want('connection', 'SocketTimeout', false) }],
  ['ECONNREFUSED', { given: refused, want: want('connection', 'ECONNREFUSED', true) }],
  ['ECONNRESET', { given: reset, want: want('connection', 'ECONNRESET', false) }],
  ['EPIPE', { given: socketError('EPIPE', 'write'), want: want('connection', 'EPIPE', false) }],
  ['ETIMEDOUT while connecting', { given: socketError('ETIMEDOUT', 'connect'), want: want('connection', 'ETIMEDOUT', true) }],
  ['ETIMEDOUT while reading', { given: socketError('ETIMEDOUT', 'read'), want: want('connection', 'ETIMEDOUT', false) }],
  ['AggregateError with a code', { given: aggregateWithCode, want: want('connection', 'ECONNREFUSED', true) }],
  ['AggregateError without a code', { given: new AggregateError([new Error('x'), reset]), want: want('connection', 'ECONNRESET', false) }],
  ['socket error in cause', { given: new Error('query failed', { cause: reset }), want: want('connection', 'ECONNRESET', false) }],
  ['pg connection terminated', { given: new Error('Connection terminated unexpectedly'), want: want('connection', 'CONNECTION_TERMINATED', false) }],
  ['pg pool wait timeout', { given: new Error('timeout exceeded when trying to connect'), want: want('poolTimeout', 'POOL_TIMEOUT', true, false) }],
  ['pg pool wait timeout via Prisma', { given: poolTimeoutViaPrisma, want: want('poolTimeout', 'POOL_TIMEOUT', true, false) }],
  ['pg pool connect timeout (outer wins)', { given: connectTimeout, want: want('connection', 'CONNECT_TIMEOUT', true) }],
  ['pg client connect timeout', { given: new Error('timeout expired'), want: want('connection', 'CONNECT_TIMEOUT', true) }],
  ['pg client after a connection error', { given: new Error('Client has encountered a connection error and is not queryable'), want: want('connection', 'NOT_QUERYABLE', true) }],
  ['pg client ended under a pending statement', { given: new Error('Connection terminated'), want: want('connection', 'CONNECTION_TERMINATED', false) }],
  ['pg client already closed (nothing sent)', { given: new Error('Client was closed and is not queryable'), want: want('connection', 'CLIENT_CLOSED', true) }],
  ['pg query_timeout (client side)', { given: new Error('Query read timeout'), want: want('statementTimeout', 'QUERY_READ_TIMEOUT', false, false) }],
  ['SQL Server 1205', { given: sqlServerError(1205, 13), want: want('deadlock', '1205', true) }],
  ['SQL Server -2 timeout', { given: sqlServerError(-2), want: want('statementTimeout', '-2', false, false) }],
  ['tedious originalError.info.number', { given: tediousDeadlock, want: want('deadlock', '1205', true) }],
  ['mssql precedingErrors', { given: precededByDeadlock, want: want('deadlock', '1205', true) }],
  ['SQL Server class 20', { given: sqlServerError(21, 20), want: want('connection', 'class 20', false) }],
  ['SQL Server 2627 unique violation', { given: sqlServerError(2627, 14), want: undefined }],
  ['SQL Server 18456 login failed', { given: sqlServerError(18456, 14), want: undefined }],
  ['a plain Error', { given: new Error('boom'), want: undefined }],
  ['prototype names are not codes', { given: prototypeNames, want: undefined }],
  ['a cyclic cause', { given: cyclic, want: undefined }],
  ['undefined', { given: undefined, want: undefined }],
  ['null', { given: null, want: undefined }],
  ['a string', { given: 'ECONNRESET', want: undefined }],
  ['a number', { given: 40001, want: undefined }],
];

describe('classify', () => {
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(classify(given)).toEqual(want);
  });

  const sqlServerNumbers: [TransientKind, boolean, number[]][] = [
    ['connection', true, [53, 11001]],
    ['connection', false, [35, 64, 233, 10053, 10054, 10060, 40197]],
    ['cannotConnectNow', true, [4060, 17142, 17197, 18401, 40613]],
    ['throttled', true, [10928, 10929, 40501, 49918, 49919, 49920]],
  ];
  it.each(
    sqlServerNumbers.flatMap(([kind, confirmed, numbers]) =>
      numbers.map((n) => [n, kind, confirmed] as const),
    ),
  )('SQL Server %i is %s (confirmedNotApplied: %s)', (number, kind, confirmed) => {
    expect(classify(sqlServerError(number))).toEqual(want(kind, String(number), confirmed));
  });
});

describe('25006 (read_only_sql_transaction): what the path it came on makes of it (adr/0019)', () => {
  const readOnlyRefusal = () => prismaError('P2010', adapterSqlState('25006'));

  it('is no transient failure as it comes: a write on a read path is a bug', () => {
    expect(classify(readOnlyRefusal())).toBeUndefined();
    expect(classify(pgError('25006'))).toBeUndefined();
  });

  it('is NotPrimary on the primary read-write path: transient, confirmed not applied', () => {
    const onPrimary = onReadWritePath(readOnlyRefusal());
    expect(onPrimary).toBeInstanceOf(NotPrimary);
    expect(classify(onPrimary)).toEqual(want('notPrimary', 'NOT_PRIMARY', true));
    expect(classify(onReadWritePath(pgError('25006')))).toEqual(want('notPrimary', 'NOT_PRIMARY', true));
  });

  it('leaves every other error as it came', () => {
    const deadlock = prismaError('P2034', adapterSqlState('40P01'));
    expect(onReadWritePath(deadlock)).toBe(deadlock);
    const once = onReadWritePath(readOnlyRefusal());
    expect(onReadWritePath(once)).toBe(once);
  });

  it('names a host list with no primary now as notPrimary too (nothing was sent)', () => {
    expect(classify(Object.assign(new Error('no database host is read-write now'), { code: 'NO_MATCHING_HOST' }))).toEqual(
      want('notPrimary', 'NO_MATCHING_HOST', true),
    );
  });
});
