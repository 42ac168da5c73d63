/**
 * limit: how far the API's deposit is from a deposit that does only the necessary work
 * (bench/METHOD.md). Its headline: the API against ONE prepared autocommit statement
 * (limit/oneStatementDeposit.ts), into one account and spread over 200, measured side by side
 * in interleaved one-second slices (`comparison()`), beside an A/A control: the statement
 * against itself, measured the same way, whose ratio says how far the method moves a ratio
 * with nothing changed. The API's own statement sent alone (limit/functionAloneDeposit.ts:
 * the database's floor, what no API code can beat) is measured against the one statement the
 * same way, in half the time, as extra rows; so is the deposit as a transaction
 * (limit/bareDeposit.ts, plain and prepared), each measured alone after the pairs.
 */
import pg from 'pg';
import { defaults } from '../../server/src/config.ts';
import type { ApiCustomer } from '../contention/apiPath.ts';
import { bareDeposit, openAccountsInSql } from '../limit/bareDeposit.ts';
import { functionAloneSides } from '../limit/functionAloneDeposit.ts';
import { oneStatementDeposit } from '../limit/oneStatementDeposit.ts';
import { closedLoop, comparison, type LoadResult, type Operation } from './load.ts';
import { ratio, ratioOf, type Figure, type ScenarioResult } from './report.ts';
import { apiEnv, depositVia, describe, meanFigures, pick, signUpPatiently, userIdOf, warmUp, type Bench, type Size } from './scenarios.ts';

/** How many customers own the 200 accounts of the API's spread deposits (ten each). */
const spreadOwners = 20;

/** Each side's share of a pair: one-second slices, as the overhead's (bench/METHOD.md). */
const sliceMs = 1_000;

/** The floor's pairs run half as long as the API's: two more pairs at full length would add 32 s a run (bench/METHOD.md). */
const floorShare = 0.5;

/** A deposit into one of `accounts`, each sent by its owner. */
const depositSpread = (accounts: Array<{ owner: ApiCustomer; id: string }>): Operation => async (client) => {
  const { owner, id } = accounts[Math.floor(Math.random() * accounts.length)]!;
  return depositVia(owner, () => id)(client);
};

const statementVia = (pool: pg.Pool, accountId: () => string): Operation => async () => {
  await oneStatementDeposit(pool, accountId(), 100);
  return true;
};

const transactionVia = (pool: pg.Pool, accountId: () => string, prepared: boolean): Operation => async () => {
  await bareDeposit(pool, accountId(), 100, prepared);
  return true;
};

/** Measures `a` against `b` side by side (interleaved slices); answers both results. */
async function sideBySide(size: Size, a: Operation, b: Operation, share = 1): Promise<[LoadResult, LoadResult]> {
  const pair = comparison();
  await pair.measure(size.clients, size.seconds * 1000 * share, sliceMs, a, b);
  return pair.results();
}

/**
 * The scenario. The 200 accounts of the API's spread belong to 20 customers, as a bank's
 * would: 24 parallel deposits of ONE customer all share their customer's row (every claim's
 * foreign key locks it FOR KEY SHARE), a contention of its own that the one-account case
 * measures. Each side deposits into accounts of its own.
 */
export async function limitScenario(bench: Bench, size: Size): Promise<ScenarioResult> {
  const { pool, customer, userId } = bench;
  const [apiOne] = await openAccountsInSql(pool, userId, 1, 'limit api one');
  const [statementOne, statementOther] = await openAccountsInSql(pool, userId, 2, 'limit statement one');
  const [transactionOne] = await openAccountsInSql(pool, userId, 1, 'limit transaction one');
  const owners = [customer];
  while (owners.length < spreadOwners) owners.push(await signUpPatiently(customer.baseUrl, `limit${owners.length}`));
  const apiMany: Array<{ owner: ApiCustomer; id: string }> = [];
  for (const owner of owners) {
    for (const id of await openAccountsInSql(pool, userIdOf(owner), 200 / spreadOwners, 'limit api many')) apiMany.push({ owner, id });
  }
  const sqlMany = await openAccountsInSql(pool, userId, 200, 'limit sql many');
  const alone = await functionAloneSides(pool, owners.map(userIdOf), 200 / spreadOwners);
  const api = { one: depositVia(customer, () => apiOne!), many: depositSpread(apiMany) };
  const statement = { one: statementVia(pool, () => statementOne!), other: statementVia(pool, () => statementOther!), many: statementVia(pool, pick(sqlMany)) };
  for (const operation of [api.one, api.many, statement.one, alone.one, transactionVia(pool, () => transactionOne!, false), transactionVia(pool, () => transactionOne!, true)]) {
    await warmUp(operation, size);
  }
  const durationMs = size.seconds * 1000;
  const runs: Record<string, number[]> = {};
  const add = (name: string, value: number) => (runs[name] ??= []).push(value);
  const figures: Figure[][] = [];
  const notes: string[] = [];
  for (let run = 0; run < size.runs; run++) {
    const [apiSingle, statementSingle] = await sideBySide(size, api.one, statement.one);
    const [apiSpread, statementSpread] = await sideBySide(size, api.many, statement.many);
    // The A/A control: the same statement on both sides, as the API and the statement were measured.
    const [controlSingleA, controlSingleB] = await sideBySide(size, statement.one, statement.other);
    const [controlSpreadA, controlSpreadB] = await sideBySide(size, statement.many, statement.many);
    // The floor: the API's statement alone against the one statement, in half the API's time (floorShare).
    const [aloneSingle, statementBesideAloneSingle] = await sideBySide(size, alone.one, statement.one, floorShare);
    const [aloneSpread, statementBesideAloneSpread] = await sideBySide(size, alone.many, statement.many, floorShare);
    const transaction = {
      single: await closedLoop(size.clients, durationMs, transactionVia(pool, () => transactionOne!, false)),
      spread: await closedLoop(size.clients, durationMs, transactionVia(pool, pick(sqlMany), false)),
      preparedSingle: await closedLoop(size.clients, durationMs, transactionVia(pool, () => transactionOne!, true)),
      preparedSpread: await closedLoop(size.clients, durationMs, transactionVia(pool, pick(sqlMany), true)),
    };
    add('one account: API/one statement throughput', ratio(apiSingle.throughput, statementSingle.throughput));
    add('one account: control throughput', ratio(controlSingleA.throughput, controlSingleB.throughput));
    add('one account: API/one statement p50', ratio(apiSingle.p50, statementSingle.p50));
    add('one account: control p50', ratio(controlSingleA.p50, controlSingleB.p50));
    add('200 accounts: API/one statement throughput', ratio(apiSpread.throughput, statementSpread.throughput));
    add('200 accounts: control throughput', ratio(controlSpreadA.throughput, controlSpreadB.throughput));
    add('200 accounts: API/one statement p50', ratio(apiSpread.p50, statementSpread.p50));
    add('200 accounts: control p50', ratio(controlSpreadA.p50, controlSpreadB.p50));
    add('one account: SQL function alone/one statement throughput', ratio(aloneSingle.throughput, statementBesideAloneSingle.throughput));
    add('200 accounts: SQL function alone/one statement throughput', ratio(aloneSpread.throughput, statementBesideAloneSpread.throughput));
    add('one account: SQL function alone/one statement p50', ratio(aloneSingle.p50, statementBesideAloneSingle.p50));
    add('200 accounts: SQL function alone/one statement p50', ratio(aloneSpread.p50, statementBesideAloneSpread.p50));
    add('one account: API/transaction throughput', ratio(apiSingle.throughput, transaction.single.throughput));
    add('200 accounts: API/transaction throughput', ratio(apiSpread.throughput, transaction.spread.throughput));
    add('one account: API/transaction prepared throughput', ratio(apiSingle.throughput, transaction.preparedSingle.throughput));
    add('200 accounts: API/transaction prepared throughput', ratio(apiSpread.throughput, transaction.preparedSpread.throughput));
    figures.push([
      { label: 'one account, one statement', value: statementSingle.throughput, unit: 'deposits/s' },
      { label: 'one account, API', value: apiSingle.throughput, unit: 'deposits/s' },
      { label: '200 accounts, one statement', value: statementSpread.throughput, unit: 'deposits/s' },
      { label: '200 accounts, API', value: apiSpread.throughput, unit: 'deposits/s' },
      { label: 'one account, SQL function alone', value: aloneSingle.throughput, unit: 'deposits/s' },
      { label: '200 accounts, SQL function alone', value: aloneSpread.throughput, unit: 'deposits/s' },
      { label: 'one account, transaction', value: transaction.single.throughput, unit: 'deposits/s' },
      { label: '200 accounts, transaction', value: transaction.spread.throughput, unit: 'deposits/s' },
      { label: 'one account, transaction prepared', value: transaction.preparedSingle.throughput, unit: 'deposits/s' },
      { label: '200 accounts, transaction prepared', value: transaction.preparedSpread.throughput, unit: 'deposits/s' },
      { label: 'one account, one statement p50', value: statementSingle.p50, unit: 'ms' },
      { label: 'one account, API p50', value: apiSingle.p50, unit: 'ms' },
      { label: '200 accounts, one statement p50', value: statementSpread.p50, unit: 'ms' },
      { label: '200 accounts, API p50', value: apiSpread.p50, unit: 'ms' },
    ]);
    notes.push(
      `run ${run + 1}: ${describe('one/API', apiSingle)}; ${describe('one/statement', statementSingle)}; ${describe('200/API', apiSpread)}; ${describe('200/statement', statementSpread)}; ` +
        `A/A ${describe('one/a', controlSingleA)}; ${describe('one/b', controlSingleB)}; ${describe('200/a', controlSpreadA)}; ${describe('200/b', controlSpreadB)}; ` +
        `${describe('one/function alone', aloneSingle)}; ${describe('one/statement beside it', statementBesideAloneSingle)}; ${describe('200/function alone', aloneSpread)}; ${describe('200/statement beside it', statementBesideAloneSpread)}; ` +
        `${describe('one/transaction', transaction.single)}; ${describe('one/transaction prepared', transaction.preparedSingle)}; ${describe('200/transaction', transaction.spread)}; ${describe('200/transaction prepared', transaction.preparedSpread)}`,
    );
  }
  // Each headline ratio with its A/A control beside it: `<where>: API/one statement <measure>` and `<where>: control <measure>`.
  const headline = (where: string, measure: string, target?: string) =>
    ratioOf(`${where}: API/one statement ${measure}`, runs[`${where}: API/one statement ${measure}`]!, 'one statement, prepared', target, runs[`${where}: control ${measure}`]);
  const transactionRatio = (name: string, baseline: string) => ratioOf(name, runs[name]!, baseline);
  // The floor's rows beside the same A/A control as the API's: the statement against itself.
  const floor = (where: string, measure: string) =>
    ratioOf(`${where}: SQL function alone/one statement ${measure}`, runs[`${where}: SQL function alone/one statement ${measure}`]!, 'one statement, prepared', undefined, runs[`${where}: control ${measure}`]);
  return {
    name: 'limit',
    ratios: [
      headline('one account', 'throughput', '≥ 0.40'),
      headline('one account', 'p50'),
      headline('200 accounts', 'throughput', '≥ 0.35'),
      headline('200 accounts', 'p50'),
      floor('one account', 'throughput'),
      floor('one account', 'p50'),
      floor('200 accounts', 'throughput'),
      floor('200 accounts', 'p50'),
      transactionRatio('one account: API/transaction throughput', 'a transaction'),
      transactionRatio('200 accounts: API/transaction throughput', 'a transaction'),
      transactionRatio('one account: API/transaction prepared throughput', 'a transaction, prepared'),
      transactionRatio('200 accounts: API/transaction prepared throughput', 'a transaction, prepared'),
    ],
    figures: meanFigures(figures),
    notes: [
      `${size.clients} clients; the API and the one statement side by side in ${sliceMs} ms slices for ${size.seconds} s each, then the A/A control (the statement against itself) the same way, then the API's statement alone (money_send_claiming from a bare pg pool) against the one statement the same way for ${size.seconds * floorShare} s each, then each transaction baseline alone for ${size.seconds} s; ` +
        `the API with ${apiEnv.API_WORKERS} worker(s), its 200 accounts owned by ${spreadOwners} customers; the baselines on a pg pool of ${defaults.dbPoolMax} (DB_POOL_MAX)`,
      ...notes,
    ],
  };
}
