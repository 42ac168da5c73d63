// @vitest-environment node
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { configureRequests, setRequestHooks } from '../api/instance.ts';
import { fakeWorld, okResponse, problemResponse, type FakeWorld, type ScriptedAnswer } from '../api/fakeRequestEnvironment.ts';
import { usePayeesStore } from './payees.ts';
import { useSessionStore } from './session.ts';

const match = { result: 'match', name: 'Grace Hopper' };
const noMatch = { result: 'no_match' };

function world(answers: ScriptedAnswer[]): FakeWorld {
  const fake = fakeWorld(answers);
  configureRequests(fake.env, 'http://bank.test');
  return fake;
}

beforeEach(() => {
  setActivePinia(createPinia());
  setRequestHooks({ csrfToken: () => null, onBffAnswer: () => undefined, onUnauthenticated: () => undefined });
});

describe('payees: confirmation of payee and saved payees', () => {
  it('asks the bank every time, with the name expected', async () => {
    const fake = world([okResponse(match), okResponse(match), okResponse(noMatch)]);
    const payees = usePayeesStore();
    expect((await payees.check('grace_h', 'Grace Hopper')).data).toEqual(match);
    expect((await payees.check('grace_h', 'Grace Hopper')).data).toEqual(match);
    expect((await payees.check('nobody', 'Grace Hopper')).data).toEqual(noMatch);
    expect(fake.sent.map((request) => `${new URL(request.url).pathname}${new URL(request.url).search}`)).toEqual([
      '/api/payees/grace_h?name=Grace%20Hopper',
      '/api/payees/grace_h?name=Grace%20Hopper',
      '/api/payees/nobody?name=Grace%20Hopper',
    ]);
  });

  it('forgets the saved payees when the session ends, and keeps them when a read fails', async () => {
    const saved = { items: [{ kind: 'handle', handle: 'grace_h', name: 'Grace Hopper', lastPaidAt: '2026-11-30T09:12:00.000Z' }] };
    world([okResponse(saved), problemResponse(503, { errorCode: 'SERVICE_UNAVAILABLE' })]);
    const session = useSessionStore();
    session.$patch({ status: 'signedIn' });
    const payees = usePayeesStore();
    await payees.loadSaved();
    expect(payees.saved).toEqual(saved.items);
    await payees.loadSaved();
    expect(payees.saved).toEqual(saved.items);
    session.$patch({ status: 'signedOut' });
    await Promise.resolve();
    expect(payees.saved).toBeNull();
  });
});
