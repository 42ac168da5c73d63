/**
 * The outage matrix (adr/0006, adr/0011):
 * EVERY operation read from the spec, under each real fault of `support/faults.ts`,
 * against the real API process on a throwaway PostgreSQL, with the timeout chain scaled
 * to a 2.5 s deadline (support/scaledApi.ts). For each cell: the status is the spec's (503; liveness 200; the
 * exempt operations a declared status; a hang-up gets nothing and is logged 499), the
 * answer validates against the spec, never a 500, within the deadline + 2 s. Then the
 * database comes back and the same request succeeds within 1 s (over the time the same
 * operation took on the same API just before the fault).
 *
 * One API process per fault (the retry budget and the pool are per process), warmed by
 * one healthy round first: a real outage meets an API that has been serving. Customers
 * are made once, one per operation, so no operation's effects (logout revoking refresh
 * tokens, a closed account) reach another's request. The requests of one fault run at
 * once. The matrix is printed at the end and written, with each API's log, to
 * contract-tests/.results/. OUTAGE_FAULTS=hung,pool runs only those faults.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrimary, type PgCluster } from '@tidewater/test-support/pgCluster';
import { newIdentity, type Customer } from './support/callerValues.ts';
import { BOOTSTRAP, Customers } from './support/customers.ts';
import { faults, type FaultContext } from './support/faults.ts';
import { loadOpenApiDocument } from '@tidewater/test-support/openApiDocument';
import { expectationFor, judgeOutage, judgeSuccess, loggedFor } from './support/outageCell.ts';
import { OutageMatrix, resultsDir } from './support/outageMatrix.ts';
import { createResponseValidator } from '@tidewater/test-support/responseValidator';
import { runCell, type Sent } from './support/runCell.ts';
import { SCALED_CHAIN, startScaledApi } from './support/scaledApi.ts';
import { newTraceId, sendRequest } from './support/sendRequest.ts';
import { buildRequest, operationById, specOperations, type BuiltRequest, type SpecOperation } from './support/specOperations.ts';
import { startTcpProxy } from '@tidewater/test-support/tcpProxy';
import { Teardown } from './support/teardown.ts';

const DATABASE = 'tidewater';
const only = process.env.OUTAGE_FAULTS?.split(',').map((id) => id.trim());
const faultsToRun = faults.filter((fault) => !only || only.includes(fault.id));
const document = loadOpenApiDocument();
const operations = specOperations(document); // throws MissingExamples, naming each operation, when one cannot be built
const validator = createResponseValidator(document);
/** The first secured read without parameters: it touches the caller's rows (the pool's holder). */
const probe = operations.find((o) => o.secured && o.method === 'GET' && !o.parameters.some((p) => p.required))!;
/** Sign-up, the first thing a customer does: its first read is retried (the stopped database's measurements). */
const signUp = operationById(operations, BOOTSTRAP.signUp);
const matrix = new OutageMatrix(
  operations.map((o) => o.operationId),
  [
    { title: 'Under each fault', columns: [{ id: 'healthy', title: 'healthy' }, ...faultsToRun.map((f) => ({ id: f.id, title: f.id }))] },
    { title: 'The database comes back: the same request', columns: faultsToRun.map((f) => ({ id: `${f.id}:back`, title: `${f.id} → back` })) },
  ],
);

const teardown = new Teardown();
const customers = new Customers(operations);
const owners = new Map<string, Customer>();
let cluster: PgCluster;
let payee: Customer;
const startedAt = Date.now();
const load = () => loadavg().map((n) => n.toFixed(1)).join(' ');
matrix.notes.push(`load average at start: ${load()} (2 cores: timings above ~2 are another suite's noise)`);

/** Operations that end the session whose access token they carry: its tokens die with it (adr/0064). */
const endsSession = new Set(['logout']);

/**
 * A request for `operation` from its own customer (sign-up's is an identity nobody registered
 * yet); one that ends its session signs in afresh, so each of its requests has a live token.
 */
async function requestFor(operation: SpecOperation): Promise<{ request: BuiltRequest; notes: string[] }> {
  const owner = owners.get(operation.operationId);
  const caller = owner && endsSession.has(operation.operationId) ? await customers.signInAgain(owner) : owner;
  const values = operation.operationId === BOOTSTRAP.signUp ? customers.valuesFor(newIdentity()) : customers.valuesFor(caller!, payee);
  return { request: await buildRequest(operation, values), notes: values.notes };
}

/** Keeps an API's log beside the matrix: the lines of a failing cell's trace id explain it. */
function keepLog(name: string, logLines: string[]): void {
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(`${resultsDir}api-${name}.log`, `${logLines.join('\n')}\n`);
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 250));
const retriesLogged = (logLines: string[], traceId: string) => logLines.filter((line) => line.includes(traceId) && /"retry":\d/.test(line)).length;
const breakerWaitsLogged = (logLines: string[], traceId: string) => logLines.filter((line) => line.includes(traceId) && /"breakerWait":\d/.test(line)).length;

beforeAll(async () => {
  cluster = await startPrimary();
  teardown.defer('destroy the cluster', () => cluster.destroy());
  // Sign-up hashes a password (scrypt, ~0.35 s): several at once would not fit a 2.5 s deadline.
  const api = await startScaledApi(cluster.urlFor(DATABASE), { REQUEST_DEADLINE_MS: '40000' });
  const stop = teardown.defer('stop the bootstrap API', () => api.stop());
  customers.baseUrl = api.url;
  const made = await customers.registerMany(operations.length);
  payee = made.pop()!;
  for (const operation of operations.filter((o) => o.operationId !== BOOTSTRAP.signUp)) owners.set(operation.operationId, made.pop()!);
  for (const operation of operations) {
    const { request, notes } = await requestFor(operation);
    const sent = await runCell(api, request, { label: 'healthy', boundMs: 10_000, timeoutMs: 10_000 });
    const failures = judgeSuccess(operation, sent.outcome, validator, 10_000);
    matrix.record('healthy', { operationId: operation.operationId, ...sent, failures, notes });
  }
  keepLog('bootstrap', api.logLines);
  await stop();
}, 300_000);

afterAll(async () => {
  matrix.notes.push(...customers.mintFailures.map((failure) => `minting failed: ${failure}`));
  matrix.notes.push(`load average at the end: ${load()}`);
  matrix.notes.push(`run time ${Math.round((Date.now() - startedAt) / 1000)} s; deadline ${Number(SCALED_CHAIN.REQUEST_DEADLINE_MS) / 1000} s, bound deadline + 2 s; recovery bound 1 s over the operation's warm-up time`);
  const path = matrix.write();
  console.log(`${matrix.render()}\n(written to ${path})`);
  await teardown.run();
}, 60_000);

describe('while the database is healthy', () => {
  it.each(operations.map((o) => [o.operationId] as const))('%s answers its contract (the harness builds a valid request)', (operationId) => {
    expect(matrix.get('healthy', operationId)?.failures).toEqual([]);
  });
});

for (const fault of faultsToRun) {
  describe(`under ${fault.title}`, () => {
    const hangUp = fault.hangUpAfterMs !== undefined;
    const built = new Map<string, { request: BuiltRequest; notes: string[] }>();
    const warmMs = new Map<string, number>();
    let api: Awaited<ReturnType<typeof startScaledApi>>;
    let lift: () => Promise<void> = async () => {};
    let stopApi: () => Promise<void> = async () => {};
    let closeProxy: () => Promise<void> = async () => {};
    let evidence: string | undefined;
    let lone: Sent | undefined;

    beforeAll(async () => {
      const proxy = await startTcpProxy({ host: '127.0.0.1', port: cluster.port });
      closeProxy = teardown.defer(`close the ${fault.id} proxy`, () => proxy.close());
      const url = cluster.urlFor(DATABASE);
      api = await startScaledApi(fault.viaProxy ? proxy.urlFor(url) : url, fault.apiEnv);
      stopApi = teardown.defer(`stop the ${fault.id} API`, () => api.stop());
      customers.baseUrl = api.url;
      for (const operation of operations) {
        const warm = await runCell(api, (await requestFor(operation)).request, { label: `${fault.id}-warm`, boundMs: 10_000, timeoutMs: 10_000 });
        warmMs.set(operation.operationId, warm.outcome.ms);
        if (warm.outcome.kind === 'no-answer' || warm.outcome.status >= 500)
          matrix.notes.push(`${fault.id} warm-up: ${operation.operationId} answered ${warm.outcome.kind === 'answer' ? warm.outcome.status : 'nothing'} (trace ${warm.traceId})`);
        built.set(operation.operationId, await requestFor(operation));
      }
      const context: FaultContext = {
        cluster,
        proxy,
        database: DATABASE,
        logLines: api.logLines,
        sendHolder: async () => sendRequest(api.url, (await requestFor(probe)).request, { traceId: newTraceId(), timeoutMs: 10_000 }),
      };
      lift = teardown.defer(`lift ${fault.id}`, await fault.inject(context));
      const { bounds } = api;
      const options = { label: fault.id, boundMs: bounds.answerMs, timeoutMs: bounds.clientTimeoutMs, hangUpAfterMs: fault.hangUpAfterMs };
      if (fault.id === 'refused') {
        // A stopped database, measured alone: the request waits at the circuit breaker for the
        // database to come back, spending no retry, and answers 503 at its deadline. 1 s after
        // the stop: in the first moments the API is still dropping its pooled connections.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        lone = await runCell(api, (await requestFor(signUp)).request, { ...options, label: 'refused-lone' });
      }
      const sent = new Map<string, Sent>();
      await Promise.all(operations.map(async (o) => sent.set(o.operationId, await runCell(api, built.get(o.operationId)!.request, options))));
      evidence = await fault.evidence?.(context);
      await settle();
      for (const operation of operations) {
        const cell = sent.get(operation.operationId)!;
        const loggedStatuses = loggedFor(api.logLines, cell.traceId, cell.sentAtEpochMs);
        const failures = judgeOutage(operation, expectationFor(operation, hangUp), { ...cell, loggedStatuses }, validator, bounds.answerMs);
        matrix.record(fault.id, { operationId: operation.operationId, ...cell, failures, notes: built.get(operation.operationId)!.notes });
      }
    }, 240_000);

    afterAll(async () => {
      await lift();
      if (api) keepLog(fault.id, api.logLines);
      await stopApi();
      await closeProxy();
    }, 60_000);

    it.each(operations.map((o) => [o.operationId, expectationFor(o, hangUp).why] as const))(
      '%s → %s, valid, within the deadline + 2 s, never a 500',
      (operationId) => {
        expect(matrix.get(fault.id, operationId)?.failures).toEqual([]);
      },
    );

    it('the fault was real', () => {
      expect(evidence).toBeUndefined();
    });

    if (fault.id === 'refused') {
      it('waits for the database at the circuit breaker, spending no retry, and answers 503 at its deadline', () => {
        expect(lone?.outcome.kind === 'answer' && lone.outcome.status).toBe(503);
        expect(retriesLogged(api.logLines, lone!.traceId), `retries logged for ${lone!.traceId}`).toBe(0);
        expect(breakerWaitsLogged(api.logLines, lone!.traceId), `waits for the database logged for ${lone!.traceId}`).toBeGreaterThan(0);
        expect(lone!.outcome.ms).toBeGreaterThanOrEqual(api.bounds.config.requestDeadlineMs - 100);
        expect(lone!.outcome.ms).toBeLessThanOrEqual(api.bounds.answerMs);
      });
    }

    if (fault.id === 'transient') {
      // 53300 says the server is up but full: it does not open the circuit breaker, so the retry budget rules.
      it('answers 503 at once (under 100 ms) while the retry budget is spent', async () => {
        const spend = { label: 'transient-spend', boundMs: 10_000, timeoutMs: 10_000 };
        await Promise.all(Array.from({ length: 12 }, async () => runCell(api, (await requestFor(signUp)).request, spend)));
        for (let i = 1; i <= 3; i++) {
          const { outcome, traceId } = await runCell(api, (await requestFor(signUp)).request, { ...spend, label: 'transient-spent' });
          await settle();
          expect(outcome.kind === 'answer' && outcome.status, `request ${i} (${traceId})`).toBe(503);
          expect(outcome.ms, `request ${i} (${traceId})`).toBeLessThan(api.bounds.budgetSpentMs);
          expect(retriesLogged(api.logLines, traceId), `retries logged for ${traceId}`).toBe(0);
        }
      });
    }

    describe('then the database comes back', () => {
      beforeAll(async () => {
        await lift();
        for (const operation of operations) {
          const { request, notes } = built.get(operation.operationId)!;
          const cell = await runCell(api, request, { label: `${fault.id}-back`, boundMs: 10_000, timeoutMs: 10_000 });
          const boundMs = api.bounds.recoveryMs + (warmMs.get(operation.operationId) ?? 0);
          matrix.record(`${fault.id}:back`, { operationId: operation.operationId, ...cell, failures: judgeSuccess(operation, cell.outcome, validator, boundMs), notes });
        }
      }, 120_000);

      it.each(operations.map((o) => [o.operationId] as const))('%s: the same request succeeds (or gets its own 4xx/501) within 1 s', (operationId) => {
        expect(matrix.get(`${fault.id}:back`, operationId)?.failures).toEqual([]);
      });
    });
  });
}
