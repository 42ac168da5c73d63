/**
 * API_WORKERS (adr/0016): two workers under one node:cluster primary both answer on the
 * one port, each request's log line names the worker's pid, a crashed worker is replaced,
 * and SIGTERM to the primary ends every worker; a worker that cannot start ends the whole API.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiProcess } from '@tidewater/test-support/apiProcess';
import { scrapeMetrics, sumOf } from '@tidewater/test-support/metrics';
import { startPrimary, type PgCluster } from '@tidewater/test-support/pgCluster';

/** The W3C trace id (32 hex digits, adr/0018) of probe `i`, recognisable by its prefix. */
const PROBE_PREFIX = '0f0f0f0f0f0f0f0f0f0f0f0f';
const probeTraceId = (i: number) => `${PROBE_PREFIX}${i.toString(16).padStart(8, '0')}`;

/** One GET on a connection of its own (a kept-alive connection would stay with one worker). */
function getOnce(url: string, traceId: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { connection: 'close', 'x-trace-id': traceId } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const parsed = (api: ApiProcess) => api.logLines.flatMap((line) => (line.startsWith('{') ? [JSON.parse(line) as Record<string, unknown>] : []));

describe('API_WORKERS=2', () => {
  let cluster: PgCluster;
  let api: ApiProcess;
  beforeAll(async () => {
    cluster = await startPrimary();
    api = await startApi({ DATABASE_URL: cluster.urlFor('tidewater'), API_WORKERS: '2' });
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    await cluster?.destroy();
  });

  it('answers from both workers, replaces a crashed one, and SIGTERM to the primary ends them all', async () => {
    const listening = () => new Set(parsed(api).filter((l) => String(l.msg).startsWith('API listening')).map((l) => l.pid as number));
    for (let waited = 0; listening().size < 2 && waited < 60_000; waited += 200) await new Promise((r) => setTimeout(r, 200));
    const workers = listening();
    expect(workers.size).toBe(2);
    expect(workers.has(api.child.pid!)).toBe(false); // the primary serves nothing itself
    // The second worker starts only once the first listens, its migrations applied: side by
    // side they would both migrate, which a transaction pooler cannot serialise (adr/0060).
    const lines = parsed(api);
    const firstListening = lines.findIndex((l) => String(l.msg).startsWith('API listening'));
    const secondStarts = lines.findIndex((l) => workers.has(l.pid as number) && l.pid !== lines[firstListening]!.pid);
    expect(secondStarts).toBeGreaterThan(firstListening);

    const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => getOnce(`${api.url}/api/accounts`, probeTraceId(i))));
    expect(new Set(statuses)).toEqual(new Set([401]));
    await new Promise((r) => setTimeout(r, 300));
    const answeredBy = new Set(parsed(api).filter((l) => String(l.traceId).startsWith(PROBE_PREFIX)).map((l) => l.pid as number));
    expect(answeredBy).toEqual(workers);

    // One scrape counts the requests of every worker: the primary serves their sum (adr/0017).
    const samples = await scrapeMetrics(api.metricsUrl, 10_000);
    expect(sumOf(samples, 'tidewater_http_request_duration_seconds_count', { operation: 'listAccounts', status: '401' })).toBe(40);
    expect(sumOf(samples, 'tidewater_readiness_gate_open', { gate: 'primary' })).toBe(1); // the least of the workers', not their sum

    // A worker that crashes while serving is replaced; the API keeps answering meanwhile.
    const [crashed] = [...workers];
    process.kill(crashed!, 'SIGKILL');
    for (let waited = 0; listening().size < 3 && waited < 60_000; waited += 200) await new Promise((r) => setTimeout(r, 200));
    expect(listening().size).toBe(3);
    expect(parsed(api).some((l) => l.msg === 'an API worker ended: starting another' && l.workerPid === crashed)).toBe(true);
    expect(await getOnce(`${api.url}/api/health`, probeTraceId(999))).toBe(200);
    const all = [...listening()];

    await api.stop();
    expect(api.child.exitCode).toBe(0);
    for (let waited = 0; all.some(alive) && waited < 5_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    expect(all.filter(alive)).toEqual([]);
  }, 120_000);

  it('ends the whole API, exit 1, when a worker cannot start', async () => {
    // A database nobody listens on: each worker gives up opening it before it listens.
    const failed = startApi({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/tidewater', API_WORKERS: '2', DB_CONNECT_TIMEOUT_MS: '500' }, 60_000);
    await expect(failed).rejects.toThrow(/exited with 1 before it was ready[\s\S]*an API worker ended before it listened/);
  }, 90_000);
});
