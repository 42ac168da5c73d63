import { describe, expect, it } from 'vitest';
import type { RequestRecord } from './clients.ts';
import { unavailableAgainstFaults } from './report.ts';
import type { MetricsScrape } from './scrapes.ts';

const request = (what: RequestRecord['what'], status: number, sentAt: number, ms: number): RequestRecord =>
  ({ client: 0, what, replay: false, status, traceId: 't', sentAt, ms });
const scrape = (at: number, hashingQueue: number): MetricsScrape =>
  ({ at, retries: {}, budgetTokens: 0, unavailable: { hashing_queue: hashingQueue }, pool: {}, probes: 0, gatesOpen: 1, replicaFallbacks: 0 });

describe('the soak report against the fault bands (adr/0053)', () => {
  const faults = [{ kind: 'stop' as const, startedAt: 10_000, healedAt: 20_000 }];

  it('counts step-up 503s that overlapped a fault apart from those that did not, and nothing else', () => {
    const requests = [
      request('stepUp', 503, 9_000, 1_500), // reaches into the fault
      request('stepUp', 503, 15_000, 100),
      request('stepUp', 503, 25_000, 100), // outside
      request('stepUp', 201, 26_000, 100),
      request('withdraw', 503, 27_000, 100),
    ];
    expect(unavailableAgainstFaults({ requests, faults }).stepUps).toEqual({ inFaults: 2, outside: 1 });
  });

  it('places each scrape interval\'s hashing_queue 503s in or out of the bands', () => {
    const scrapes = [scrape(8_000, 0), scrape(9_000, 2), scrape(11_000, 5), scrape(30_000, 5), scrape(31_000, 9)];
    expect(unavailableAgainstFaults({ requests: [], faults, scrapes }).hashingQueue).toEqual({ inFaults: 3, outside: 6 });
  });
});
