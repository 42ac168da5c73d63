// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ConnectionFailed, RequestStopped, RequestTimedOut } from './requestErrors.ts';
import { createResilientFetch } from './resilientFetch.ts';
import {
  bareResponse,
  connectionRefused,
  fakeWorld,
  okResponse,
  problemResponse,
  type ScriptedAnswer,
} from './fakeRequestEnvironment.ts';
import { READ_BUDGET_MS, SPA_ABORT_MS } from './timings.ts';

const read = (signal?: AbortSignal) => new Request('http://bank.test/api/accounts', { signal });
const write = () =>
  new Request('http://bank.test/api/accounts/a/deposits', { method: 'POST', body: '{"amountMinor":1}', headers: { 'Content-Type': 'application/json' } });

describe('a read is retried once, after the wait its answer names', () => {
  const cases: Array<[string, { first: ScriptedAnswer; waitMs: number }]> = [
    ['503 body retryAfterSeconds wins over Retry-After', { first: problemResponse(503, { errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 7 }, { 'Retry-After': '3' }), waitMs: 7_000 }],
    ['503 Retry-After header when the body names none', { first: problemResponse(503, { errorCode: 'SERVICE_UNAVAILABLE' }, { 'Retry-After': '3' }), waitMs: 3_000 }],
    ['BFF 503 with retryAfterSeconds 0', { first: problemResponse(503, { errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 0 }), waitMs: 0 }],
    ['a proxy 503 page with Retry-After', { first: bareResponse(503, '<h1>503</h1>', { 'Retry-After': '2' }), waitMs: 2_000 }],
    ['a proxy 503 page naming nothing: 5 s', { first: bareResponse(503, '<h1>503</h1>'), waitMs: 5_000 }],
    ['an empty 502: 5 s', { first: bareResponse(502, ''), waitMs: 5_000 }],
    ['a JSON 504: 5 s', { first: problemResponse(504, { errorCode: 'INTERNAL' }), waitMs: 5_000 }],
    ['a failed connection: 1 s', { first: connectionRefused(), waitMs: 1_000 }],
  ];
  it.each(cases)('%s', async (_name, { first, waitMs }) => {
    const world = fakeWorld([first, okResponse()]);
    const response = await createResilientFetch(world.env)(read());
    expect(response.status).toBe(200);
    expect(world.sent).toHaveLength(2);
    expect(world.sleeps).toEqual([waitMs]);
  });
});

describe('what a read does not retry', () => {
  const cases: Array<[string, { first: ScriptedAnswer; status?: number; throws?: unknown }]> = [
    ['a 502 HTML page', { first: bareResponse(502, '<html>bad gateway</html>'), status: 502 }],
    ['a 500', { first: problemResponse(500, { errorCode: 'INTERNAL' }), status: 500 }],
    ['a 501', { first: problemResponse(501, { errorCode: 'NOT_IMPLEMENTED' }), status: 501 }],
    ['a 404', { first: problemResponse(404, { errorCode: 'ACCOUNT_NOT_FOUND' }), status: 404 }],
    ['a 401', { first: problemResponse(401, { errorCode: 'UNAUTHENTICATED' }), status: 401 }],
    ['a success', { first: okResponse(), status: 200 }],
  ];
  it.each(cases)('%s', async (_name, { first, status }) => {
    const world = fakeWorld([first]);
    const response = await createResilientFetch(world.env)(read());
    expect(response.status).toBe(status);
    expect(world.sent).toHaveLength(1);
    expect(world.sleeps).toEqual([]);
  });

  it('a second failure is the answer: only one retry', async () => {
    const outage = () => problemResponse(503, { errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 1 });
    const world = fakeWorld([outage(), outage(), okResponse()]);
    const response = await createResilientFetch(world.env)(read());
    expect(response.status).toBe(503);
    expect(world.sent).toHaveLength(2);
  });

  it('the look-up by key is sent once (retryReads: false)', async () => {
    const world = fakeWorld([problemResponse(503, { errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 1 })]);
    const response = await createResilientFetch(world.env)(read(), { retryReads: false });
    expect(response.status).toBe(503);
    expect(world.sent).toHaveLength(1);
  });
});

describe('the watcher hears a read wait for its retry the instant its first attempt fails (adr/0074)', () => {
  const cases: Array<[string, { answers: ScriptedAnswer[]; heard: string[] }]> = [
    ['a 503: unavailable, before the retry is sent', { answers: [problemResponse(503, { errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 1 }), okResponse()], heard: ['unavailable after 1 attempt'] }],
    ['no connection: unreachable', { answers: [connectionRefused(), okResponse()], heard: ['unreachable after 1 attempt'] }],
    ['a success: nothing', { answers: [okResponse()], heard: [] }],
    ['a 404: nothing (no retry)', { answers: [problemResponse(404, { errorCode: 'ACCOUNT_NOT_FOUND' })], heard: [] }],
  ];
  it.each(cases)('%s', async (_name, { answers, heard }) => {
    const world = fakeWorld(answers);
    const said: string[] = [];
    await createResilientFetch(world.env, {}, { readRetrying: (cause) => said.push(`${cause} after ${world.sent.length} attempt`) })(read());
    expect(said).toEqual(heard);
  });

  it('a write is never reported: it is never retried', async () => {
    const world = fakeWorld([problemResponse(503, { errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 1 })]);
    const said: string[] = [];
    await createResilientFetch(world.env, {}, { readRetrying: (cause) => said.push(cause) })(write());
    expect(said).toEqual([]);
  });
});

describe('a write is never retried', () => {
  const cases: Array<[string, { first: ScriptedAnswer; status?: number; throws?: new (...args: never[]) => Error }]> = [
    ['a 503 with a wait', { first: problemResponse(503, { errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 1, applied: false }), status: 503 }],
    ['an empty 502', { first: bareResponse(502, ''), status: 502 }],
    ['a failed connection', { first: connectionRefused(), throws: ConnectionFailed }],
  ];
  it.each(cases)('%s', async (_name, { first, status, throws }) => {
    const world = fakeWorld([first, okResponse({}, 201)]);
    const sending = createResilientFetch(world.env)(write());
    if (throws) await expect(sending).rejects.toBeInstanceOf(throws);
    else expect((await sending).status).toBe(status);
    expect(world.sent).toHaveLength(1);
    expect(world.sleeps).toEqual([]);
  });

  it('is aborted at 65 s and throws RequestTimedOut', async () => {
    const world = fakeWorld(['hang']);
    const sending = createResilientFetch(world.env)(write());
    await Promise.resolve();
    expect(world.timers[0]?.ms).toBe(SPA_ABORT_MS);
    world.fireAbortTimer();
    await expect(sending).rejects.toBeInstanceOf(RequestTimedOut);
    expect(world.sent).toHaveLength(1);
  });
});

describe('the 65 s abort and the 120 s budget', () => {
  it('a read is never retried after its own 65 s abort', async () => {
    const world = fakeWorld(['hang', okResponse()]);
    const reading = createResilientFetch(world.env)(read());
    await Promise.resolve();
    expect(world.timers[0]?.ms).toBe(SPA_ABORT_MS);
    world.fireAbortTimer();
    await expect(reading).rejects.toBeInstanceOf(RequestTimedOut);
    expect(world.sent).toHaveLength(1);
  });

  it('no retry when the wait would pass 120 s from the first attempt', async () => {
    const world = fakeWorld([
      { tookMs: 60_000, answer: problemResponse(503, { errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 60 }) },
      okResponse(),
    ]);
    const response = await createResilientFetch(world.env)(read());
    expect(response.status).toBe(503);
    expect(world.sent).toHaveLength(1);
    expect(world.sleeps).toEqual([]);
  });

  it('a retry that starts inside the budget is cut to what is left of it', async () => {
    const world = fakeWorld([
      { tookMs: 64_000, answer: problemResponse(503, { errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 50 }) },
      'hang',
    ]);
    const reading = createResilientFetch(world.env)(read());
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(world.sent).toHaveLength(2);
    expect(world.timers.at(-1)?.ms).toBe(READ_BUDGET_MS - 64_000 - 50_000);
    world.fireAbortTimer();
    await expect(reading).rejects.toBeInstanceOf(RequestTimedOut);
  });

  it('a custom budget (the start-up session check) applies too', async () => {
    const world = fakeWorld([problemResponse(503, { errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 10 }), okResponse()]);
    const response = await createResilientFetch(world.env)(read(), { abortAfterMs: 6_000, readBudgetMs: 6_000 });
    expect(response.status).toBe(503);
    expect(world.timers[0]?.ms).toBe(6_000);
    expect(world.sent).toHaveLength(1);
  });
});

describe('jitter adds up to a fifth of the wait', () => {
  const cases: Array<[string, { die: number; waitMs: number }]> = [
    ['the lowest die adds nothing', { die: 0, waitMs: 10_000 }],
    ['half the die adds a tenth', { die: 0.5, waitMs: 11_000 }],
    ['the highest die stays below a fifth', { die: 0.999_999, waitMs: 11_999.998 }],
  ];
  it.each(cases)('%s', async (_name, { die, waitMs }) => {
    const world = fakeWorld([problemResponse(503, { errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 10 }), okResponse()], die);
    await createResilientFetch(world.env)(read());
    expect(world.sleeps[0]).toBeCloseTo(waitMs, 3);
    expect(world.sleeps[0]).toBeGreaterThanOrEqual(10_000);
    expect(world.sleeps[0]).toBeLessThan(12_000);
  });
});

describe('the visitor can stop a read', () => {
  it('while it waits for its retry', async () => {
    const stop = new AbortController();
    const world = fakeWorld([problemResponse(503, { errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 10 }), okResponse()]);
    world.env.sleep = async () => stop.abort();
    await expect(createResilientFetch(world.env)(read(stop.signal))).rejects.toBeInstanceOf(RequestStopped);
    expect(world.sent).toHaveLength(1);
  });

  it('while it is in flight', async () => {
    const stop = new AbortController();
    const world = fakeWorld(['hang']);
    const reading = createResilientFetch(world.env)(read(stop.signal));
    await Promise.resolve();
    stop.abort();
    await expect(reading).rejects.toBeInstanceOf(RequestStopped);
  });
});
