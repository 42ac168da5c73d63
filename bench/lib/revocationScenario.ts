/**
 * revocation (adr/0064, adr/0072): the cost of the access-token revocation check. Every
 * authenticated request asks whether its session (refresh family) is alive; each process
 * trusts an answer for ACCESS_TOKEN_RECHECK_SECONDS (2 s), then reads again (one indexed
 * read of `refresh_tokens`). The baseline is the same API with the recheck at the token's
 * whole lifetime (900 s): each session read once, then trusted, as before adr/0064.
 *
 * The load is `GET /api/accounts` by `sessions` signed-in sessions of one customer with two
 * accounts, each request under one of them at random, so each process rereads about
 * sessions / 2 families a second. Two pairs of APIs of one worker each (one started on
 * first, one off first; bench/METHOD.md), each measured side by side in interleaved
 * one-second slices after a warm-up, with each side's API and PostgreSQL CPU per request. Ratios: on/off p50, off/on throughput, CPU on/off.
 */
import type { ApiProcess } from '@tidewater/test-support/apiProcess';
import { startApi } from '@tidewater/test-support/apiProcess';
import { send } from './http.ts';
import { comparison, type CpuMeters, type Operation } from './load.ts';
import { cpuMsOfTrees } from './processCpu.ts';
import { ratio, ratioOf, type ScenarioResult } from './report.ts';
import { apiEnv, backendMeter, describe, listAccounts, type Bench, type Size } from './scenarios.ts';

/** 50: sessions the load spreads over; 25 rereads a second per process at the default 2 s. */
const sessions = 50;
/** The default recheck (identityDefaults.accessTokenRecheckSeconds) and the baseline's: the access token's lifetime. */
const recheck = { on: '2', off: '900' } as const;

/** `count` sessions of one new customer with two accounts (one sign-up, then sign-ins: each a new refresh family). */
async function sessionsOf(baseUrl: string, count: number): Promise<string[]> {
  const json = { 'content-type': 'application/json' };
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const visitor = { email: `revocation${stamp}@example.com`, password: 'correct horse battery', displayName: 'Revocation', handle: `rv${stamp}`.slice(0, 20), pin: '2468' };
  const registered = await send(`${baseUrl}/api/auth/register`, { method: 'POST', headers: json, body: JSON.stringify(visitor) });
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}: ${registered.text}`);
  const tokens: string[] = [];
  while (tokens.length < count) {
    // Two at a time: the API hashes two passwords at once (HASHING_CONCURRENCY) and queues 8.
    const signIns = await Promise.all([0, 1].map(() => send(`${baseUrl}/api/auth/token`, { method: 'POST', headers: json, body: JSON.stringify({ email: visitor.email, password: visitor.password }) })));
    for (const answer of signIns) if (answer.status === 200 || answer.status === 201) tokens.push((JSON.parse(answer.text) as { accessToken: string }).accessToken);
  }
  const token = tokens[0]!;
  const opened = await send(`${baseUrl}/api/accounts`, { method: 'POST', headers: { ...json, authorization: `Bearer ${token}` }, body: JSON.stringify({ name: 'Second' }) });
  if (opened.status !== 201) throw new Error(`opening an account answered ${opened.status}: ${opened.text}`);
  return tokens.slice(0, count);
}

/** A GET under one of `tokens` at random. */
const anySession = (baseUrl: string, tokens: string[]): Operation => (client) => listAccounts(baseUrl, tokens[Math.floor(Math.random() * tokens.length)]!)(client);

/** revocation (see the module's comment). */
export async function revocationScenario(bench: Bench, size: Size): Promise<ScenarioResult> {
  const sliceMs = 1_000;
  const tokens = await sessionsOf(bench.api.url, sessions);
  const gets = comparison();
  // Two fresh pairs, one started on first and one off first, pooled: two processes of the same
  // code differ by a few per cent, and with one pair the start order showed (bench/METHOD.md).
  for (const order of [['on', 'off'], ['off', 'on']] as const) {
    const started: Partial<Record<'on' | 'off', ApiProcess>> = {};
    try {
      for (const side of order) {
        const env = { ...apiEnv, API_WORKERS: '1', DATABASE_URL: bench.databaseUrl, PGAPPNAME: `bench-revocation-${side}`, ACCESS_TOKEN_RECHECK_SECONDS: recheck[side] };
        started[side] = await startApi(env);
      }
      const { on, off } = started as Record<'on' | 'off', ApiProcess>;
      const getOn = anySession(on.url, tokens);
      const getOff = anySession(off.url, tokens);
      await comparison().measure(size.clients, Math.max(2, size.warmUpSeconds / 3) * 1000, sliceMs, getOn, getOff);
      const backends = { on: backendMeter(bench.pool, 'bench-revocation-on'), off: backendMeter(bench.pool, 'bench-revocation-off') };
      const meters: CpuMeters = {
        api: [() => cpuMsOfTrees([on.child.pid!])[0]!, () => cpuMsOfTrees([off.child.pid!])[0]!],
        database: [backends.on.read, backends.off.read],
      };
      await gets.measure(size.clients, size.seconds * 1000, sliceMs, getOn, getOff, meters);
    } finally {
      for (const server of Object.values(started)) await server.stop();
    }
  }
  const [getOn, getOff] = gets.results();
  const against = `the same API, recheck ${recheck.off} s (each session read once)`;
  return {
    name: 'revocation',
    ratios: [
      ratioOf('GET /api/accounts, 50 sessions: p50 on/off', [ratio(getOn.p50, getOff.p50)], against, '≤ 1.05'),
      ratioOf('GET /api/accounts, 50 sessions: throughput off/on', [ratio(getOff.throughput, getOn.throughput)], against, '≤ 1.05'),
      ratioOf('GET /api/accounts, 50 sessions: API CPU per request on/off', [ratio(getOn.cpuMsPerOp!, getOff.cpuMsPerOp!)], against),
      ratioOf('GET /api/accounts, 50 sessions: database CPU per request on/off', [ratio(getOn.databaseCpuMsPerOp!, getOff.databaseCpuMsPerOp!)], against),
    ],
    figures: [
      { label: `GET /api/accounts, recheck ${recheck.on} s`, value: getOn.throughput, unit: 'requests/s' },
      { label: `GET /api/accounts, recheck ${recheck.off} s`, value: getOff.throughput, unit: 'requests/s' },
    ],
    notes: [
      `${sessions} sessions of one customer, a random one per request; two pairs of APIs (on first, off first), one worker each, warmed side by side, then interleaved slices of ${sliceMs} ms for ${size.seconds} s; on: ACCESS_TOKEN_RECHECK_SECONDS=${recheck.on} (about ${sessions / Number(recheck.on)} rereads a second), off: ${recheck.off}`,
      `${describe('recheck on', getOn)}; ${describe('recheck off', getOff)}`,
    ],
  };
}
