// @vitest-environment node
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { configureRequests, setRequestHooks } from '../api/instance.ts';
import { fakeWorld, okResponse, problemResponse, type FakeWorld, type ScriptedAnswer } from '../api/fakeRequestEnvironment.ts';
import { usePayeesStore } from './payees.ts';
import { useSessionStore } from './session.ts';

const grace = { handle: 'grace_h', displayName: 'Grace Hopper' };

function world(answers: ScriptedAnswer[]): FakeWorld {
  const fake = fakeWorld(answers);
  configureRequests(fake.env, 'http://bank.test');
  return fake;
}

beforeEach(() => {
  setActivePinia(createPinia());
  setRequestHooks({ csrfToken: () => null, onBffAnswer: () => undefined, onUnauthenticated: () => undefined });
});

describe('payees: who a handle belongs to', () => {
  it('asks the bank once for a name it found, and again for a handle nobody had', async () => {
    const fake = world([okResponse(grace), problemResponse(404, { errorCode: 'PAYEE_NOT_FOUND' }), problemResponse(404, { errorCode: 'PAYEE_NOT_FOUND' })]);
    const payees = usePayeesStore();
    expect((await payees.lookUp('grace_h')).data).toEqual(grace);
    expect((await payees.lookUp('grace_h')).data).toEqual(grace);
    expect((await payees.lookUp('nobody')).error?.code).toBe('PAYEE_NOT_FOUND');
    expect((await payees.lookUp('nobody')).error?.code).toBe('PAYEE_NOT_FOUND');
    expect(fake.sent.map((request) => new URL(request.url).pathname)).toEqual(['/api/payees/grace_h', '/api/payees/nobody', '/api/payees/nobody']);
  });

  it('forgets the names it found when the session ends', async () => {
    const fake = world([okResponse(grace), okResponse(grace)]);
    const session = useSessionStore();
    session.$patch({ status: 'signedIn' });
    const payees = usePayeesStore();
    await payees.lookUp('grace_h');
    session.$patch({ status: 'signedOut' });
    await Promise.resolve();
    await payees.lookUp('grace_h');
    expect(fake.sent).toHaveLength(2);
  });
});
