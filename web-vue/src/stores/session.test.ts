// @vitest-environment node
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { configureRequests, setRequestHooks } from '../api/instance.ts';
import { bareResponse, connectionRefused, fakeWorld, okResponse, problemResponse, type FakeWorld, type ScriptedAnswer } from '../api/fakeRequestEnvironment.ts';
import { sessionMessages } from '../messages.ts';
import { useAccountsStore } from './accounts.ts';
import { useSessionStore, type SessionStatus } from './session.ts';

const user = { id: 'u1', email: 'ada@example.com', displayName: 'Ada Lovelace', handle: 'ada_l', primaryAccountId: 'a1', createdAt: '2026-11-29T10:00:00Z' };
const signedIn = { authenticated: true, user, csrfToken: 'csrf-1', idleTimeoutSeconds: 900, idleExpiresInSeconds: 900 };
const signedOut = { authenticated: false, user: null, csrfToken: 'csrf-0', idleTimeoutSeconds: 900, idleExpiresInSeconds: null };
const outage = () => problemResponse(503, { errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 10 }, { 'Retry-After': '10' });
const bffOutage = () => problemResponse(503, { errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 5 });

function world(answers: ScriptedAnswer[]): FakeWorld {
  const fake = fakeWorld(answers);
  configureRequests(fake.env, 'http://bank.test');
  return fake;
}

async function signedInStore() {
  world([okResponse(signedIn)]);
  const session = useSessionStore();
  await session.start();
  expect(session.status).toBe('signedIn');
  return session;
}

beforeEach(() => {
  setActivePinia(createPinia());
  setRequestHooks({ csrfToken: () => null, onBffAnswer: () => undefined, onUnauthenticated: () => undefined });
});

describe('the start-up check: only a 4xx means signed out', () => {
  const cases: Array<[string, { answers: ScriptedAnswer[]; want: SessionStatus }]> = [
    ['signed in', { answers: [okResponse(signedIn)], want: 'signedIn' }],
    ['not signed in', { answers: [okResponse(signedOut)], want: 'signedOut' }],
    ['a 401', { answers: [problemResponse(401, { errorCode: 'UNAUTHENTICATED' })], want: 'signedOut' }],
    ['a 403', { answers: [problemResponse(403, { errorCode: 'FORBIDDEN' })], want: 'signedOut' }],
    ['a 503 (its wait passes the 6 s budget: no retry)', { answers: [outage()], want: 'unavailable' }],
    ['a proxy 502 page', { answers: [bareResponse(502, '<html/>')], want: 'unavailable' }],
    ['a 500', { answers: [problemResponse(500, { errorCode: 'INTERNAL' })], want: 'unavailable' }],
    ['a lost connection, twice', { answers: [connectionRefused(), connectionRefused()], want: 'unavailable' }],
    ['a lost connection, then an answer', { answers: [connectionRefused(), okResponse(signedIn)], want: 'signedIn' }],
  ];
  it.each(cases)('%s', async (_name, { answers, want }) => {
    world(answers);
    const session = useSessionStore();
    await session.start();
    expect(session.status).toBe(want);
  });

  it('no answer within 6 s is unavailable, not signed out', async () => {
    const fake = world(['hang']);
    const session = useSessionStore();
    const starting = session.start();
    await Promise.resolve();
    expect(fake.timers[0]?.ms).toBe(6_000);
    fake.fireAbortTimer();
    await starting;
    expect(session.status).toBe('unavailable');
    expect(session.startProblem?.code).toBe('TIMED_OUT');
  });

  it('"Try again" asks once more', async () => {
    world([outage(), okResponse(signedIn)]);
    const session = useSessionStore();
    await session.start();
    expect(session.status).toBe('unavailable');
    await session.start();
    expect(session.status).toBe('signedIn');
  });
});

describe('sign-out: only a 204 or a 401 ends the session', () => {
  const cases: Array<[string, { answer: ScriptedAnswer; ended: boolean }]> = [
    ['204', { answer: new Response(null, { status: 204 }), ended: true }],
    ['401 (already gone)', { answer: problemResponse(401, { errorCode: 'UNAUTHENTICATED' }), ended: true }],
    ['the BFF 503', { answer: bffOutage(), ended: false }],
    ['a proxy 503', { answer: bareResponse(503, ''), ended: false }],
    ['a 500', { answer: problemResponse(500, { errorCode: 'INTERNAL' }), ended: false }],
    ['a 403 (CSRF)', { answer: problemResponse(403, { errorCode: 'FORBIDDEN' }), ended: false }],
    ['a lost connection', { answer: connectionRefused(), ended: false }],
  ];
  it.each(cases)('%s', async (_name, { answer, ended }) => {
    const session = await signedInStore();
    world([answer]);
    await session.signOut();
    expect(session.status).toBe(ended ? 'signedOut' : 'signedIn');
    expect(session.signOutFailure).toBe(ended ? null : sessionMessages.signOutFailed);
    expect(session.user).toEqual(ended ? null : user);
  });

  it('sends the CSRF token with the sign-out', async () => {
    const session = await signedInStore();
    setRequestHooks({ csrfToken: () => session.csrfToken });
    const fake = world([new Response(null, { status: 204 })]);
    await session.signOut();
    expect(fake.sent[0]?.headers.get('X-CSRF-Token')).toBe('csrf-1');
  });

  it('takes the signed-out visitor\'s CSRF token after signing out, for the next sign-in', async () => {
    const session = await signedInStore();
    world([new Response(null, { status: 204 }), okResponse(signedOut)]);
    await session.signOut();
    expect(session.status).toBe('signedOut');
    expect(session.csrfToken).toBe('csrf-0');
  });

  it('clears the accounts when the session ends', async () => {
    const session = await signedInStore();
    const accounts = useAccountsStore();
    world([okResponse({ items: [{ id: 'a1', name: 'Everyday', currency: 'EUR', balanceMinor: 100, status: 'open', isPrimary: true, openedAt: '', closedAt: null, idempotencyKey: null }] })]);
    await accounts.load();
    expect(accounts.items).toHaveLength(1);
    world([new Response(null, { status: 204 })]);
    await session.signOut();
    await Promise.resolve();
    expect(accounts.items).toHaveLength(0);
  });
});

describe('the inactivity clock', () => {
  it('"Stay signed in" that meets an outage keeps the session', async () => {
    const session = await signedInStore();
    world([bffOutage()]);
    const { error } = await session.staySignedIn();
    expect(error?.code).toBe('SERVICE_UNAVAILABLE');
    expect(session.status).toBe('signedIn');
  });

  it('"Stay signed in" answered 401 ends it as expired', async () => {
    const session = await signedInStore();
    world([problemResponse(401, { errorCode: 'UNAUTHENTICATED' })]);
    await session.staySignedIn();
    expect(session.status).toBe('signedOut');
    expect(session.endedBecause).toBe('expired');
  });

  it('at 0:00 it ends as expired even when the check fails', async () => {
    const session = await signedInStore();
    world([bffOutage()]);
    await session.idleRanOut();
    expect(session.status).toBe('signedOut');
    expect(session.endedBecause).toBe('expired');
  });

  it('at 0:00 it stays when the BFF says the session lives (another tab kept it)', async () => {
    const session = await signedInStore();
    world([okResponse({ ...signedIn, idleExpiresInSeconds: 600 })]);
    await session.idleRanOut();
    expect(session.status).toBe('signedIn');
  });
});

describe('answers to the API never sign anyone out on a 5xx', () => {
  const cases: Array<[string, { answer: ScriptedAnswer; status: SessionStatus }]> = [
    ['a 503 twice', { answer: outage(), status: 'signedIn' }],
    ['a 500', { answer: problemResponse(500, { errorCode: 'INTERNAL' }), status: 'signedIn' }],
    ['a 401 UNAUTHENTICATED', { answer: problemResponse(401, { errorCode: 'UNAUTHENTICATED' }), status: 'signedOut' }],
  ];
  it.each(cases)('%s', async (_name, { answer, status }) => {
    const session = await signedInStore();
    setRequestHooks({ onUnauthenticated: () => session.sessionGone() });
    world([answer, outage()]);
    await useAccountsStore().load();
    expect(session.status).toBe(status);
  });

  it('a step-up 401 (AUTHORIZATION_INVALID) is not a sign-out', async () => {
    const session = await signedInStore();
    setRequestHooks({ onUnauthenticated: () => session.sessionGone() });
    world([problemResponse(401, { errorCode: 'AUTHORIZATION_INVALID' })]);
    await useAccountsStore().load();
    expect(session.status).toBe('signedIn');
  });
});
