/**
 * The data layer while a real PostgreSQL 15 primary is down: it fails fast and works within
 * 1 s of the database coming back; inside a request it waits out the outage at the open
 * circuit breaker, holding no connection, and answers once the database is back, logging
 * the hold at warn with the database's own failure; the wait ends at the deadline; and the retry budget caps the
 * total retries of a sustained outage.
 */
import { describe, expect, it } from 'vitest';
import { dataLayerOnPostgres } from '../../test/support/dataLayerOnPostgres.ts';
import { inRequest, memoryLogger } from '../../test/support/inRequest.ts';
import { createDataLayer } from './createDataLayer.ts';
import { exponential, retryBudget, classify } from './retry/index.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the data layer on PostgreSQL during an outage', () => {
  const setup = dataLayerOnPostgres({ replica: false });
  const { log, open } = setup;

  it('fails fast while the database is down and works within 1 s of it coming back', async () => {
    const fresh = await open();
    const layer = createDataLayer({ database: fresh, config: setup.config, logger: log.logger, policy: exponential({ maxRetries: 1, delayMs: 20, budget: retryBudget() }) });
    expect(await layer.read((db) => db.account.count())).toBeGreaterThanOrEqual(0); // pool holds live connections
    await setup.primary.stop();
    try {
      const started = Date.now();
      const error = await layer.read((db) => db.account.count()).then(() => undefined, (e: unknown) => e);
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(classify(error)?.kind).toMatch(/connection|adminShutdown|cannotConnectNow/);
    } finally {
      await setup.primary.start();
    }
    const back = Date.now();
    let works = false;
    while (!works && Date.now() - back < 1_000) {
      works = await layer.read((db) => db.account.count()).then(() => true, () => false);
    }
    expect(works).toBe(true);
    expect(Date.now() - back).toBeLessThan(1_000);
  });

  it('waits out an outage inside a request at the circuit breaker: the read waits for the database, holding no connection, and answers once it is back', async () => {
    const fresh = await open();
    const budget = retryBudget({ capacity: 10, perSecond: 0, perSuccess: 0 });
    const layer = createDataLayer({ database: fresh, config: setup.config, logger: log.logger, policy: exponential({ maxRetries: 4, delayMs: 20, budget }) });
    expect(await layer.read((db) => db.account.count())).toBeGreaterThanOrEqual(0);
    await setup.primary.stop();
    const started = Date.now();
    let startedAgainAt = 0;
    const read = inRequest(() => layer.read((db) => db.account.count()), { deadlineMs: 10_000 });
    try {
      await sleep(1_500);
      expect(fresh.breakers[0]!.snapshot()).toMatchObject({ state: expect.stringMatching(/^(open|half-open)$/), waiters: 1 });
    } finally {
      await setup.primary.start();
      startedAgainAt = Date.now();
    }
    await expect(read).resolves.toBeGreaterThanOrEqual(0);
    const answeredAt = Date.now();
    expect(answeredAt - started).toBeGreaterThanOrEqual(1_500);
    expect(answeredAt - startedAgainAt).toBeLessThan(200 + 700); // one probe interval, a login, the read
    expect(budget.state().spent).toBeLessThanOrEqual(1); // at most the failure that met the outage first
    expect(fresh.breakers[0]!.snapshot().probes).toBeLessThanOrEqual(Math.ceil((answeredAt - started) / 200) + 1);
  });

  it("logs a request held by the circuit breaker at warn with the database's failure, not the breaker's own code", async () => {
    const fresh = await open();
    const layer = createDataLayer({ database: fresh, config: setup.config, logger: log.logger });
    expect(await layer.read((db) => db.account.count())).toBeGreaterThanOrEqual(0);
    const requestLog = memoryLogger();
    await setup.primary.stop();
    const read = inRequest(() => layer.read((db) => db.account.count()), { deadlineMs: 10_000, logger: requestLog.logger });
    try {
      await sleep(1_000);
    } finally {
      await setup.primary.start();
    }
    await expect(read).resolves.toBeGreaterThanOrEqual(0);
    const held = requestLog.lines.filter((line) => line.msg === 'waiting for the database to answer again');
    expect(held.length).toBeGreaterThanOrEqual(1);
    for (const line of held) {
      expect(line.level).toBe(40);
      expect(line.code).toMatch(/^(ECONNREFUSED|57P0[1-3])$/);
    }
  });

  it('ends the wait at the deadline: a read during a long outage fails with the deadline, not before', async () => {
    const fresh = await open();
    const layer = createDataLayer({ database: fresh, config: setup.config, logger: log.logger, policy: exponential({ maxRetries: 4, delayMs: 20, budget: retryBudget() }) });
    await setup.primary.stop();
    try {
      const started = Date.now();
      const error = await inRequest(() => layer.read((db) => db.account.count()), { deadlineMs: 1_000 }).then(() => undefined, (e: unknown) => e);
      expect((error as Error).name).toBe('DeadlineExceeded');
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(Date.now() - started).toBeLessThan(1_500);
    } finally {
      await setup.primary.start();
    }
  });

  it('caps total retries with the budget during a sustained outage', async () => {
    const fresh = await open();
    const budget = retryBudget({ capacity: 5, perSecond: 0, perSuccess: 0 });
    const layer = createDataLayer({ database: fresh, config: setup.config, logger: log.logger, policy: exponential({ maxRetries: 4, delayMs: 5, maxDelayMs: 20, budget }) });
    let attempts = 0;
    await setup.primary.stop();
    try {
      for (let i = 0; i < 20; i++) {
        await layer.read(async (db) => {
          attempts += 1;
          return db.account.count();
        }).catch(() => undefined);
      }
    } finally {
      await setup.primary.start();
    }
    // 20 reads × 5 attempts would be 100 without the budget: 20 first attempts + 5 retries.
    // The first read spends 4 tokens, the second 1 and is refused its next; 18 more are refused at once.
    expect(attempts).toBe(25);
    expect(budget.state()).toMatchObject({ spent: 5, refused: 19 });
    const started = Date.now();
    await layer.read(() => Promise.reject(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).catch(() => undefined);
    expect(Date.now() - started).toBeLessThan(100); // spent budget: the first failure is final at once
  });
});
