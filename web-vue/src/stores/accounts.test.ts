// @vitest-environment node
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { configureRequests, setRequestHooks } from '../api/instance.ts';
import { fakeWorld, okResponse, problemResponse, type FakeWorld, type ScriptedAnswer } from '../api/fakeRequestEnvironment.ts';
import { useAccountsStore } from './accounts.ts';

const account = (id: string) => ({ id, name: id, currency: 'EUR', balanceMinor: 0, status: 'open', isPrimary: id === 'a1', openedAt: '2026-11-29T10:00:00Z', closedAt: null, idempotencyKey: null });

function world(answers: ScriptedAnswer[]): FakeWorld {
  const fake = fakeWorld(answers);
  configureRequests(fake.env, 'http://bank.test');
  return fake;
}

beforeEach(() => {
  setActivePinia(createPinia());
  setRequestHooks({ csrfToken: () => null, onBffAnswer: () => undefined, onUnauthenticated: () => undefined });
});

describe('loading the accounts (GET /api/accounts is paged)', () => {
  it('follows nextCursor to the last page and holds every account', async () => {
    const fake = world([
      okResponse({ items: [account('a1'), account('a2')], nextCursor: 'page-2' }),
      okResponse({ items: [account('a3')], nextCursor: null }),
    ]);
    const accounts = useAccountsStore();
    const result = await accounts.load();
    expect(result.data?.map((item) => item.id)).toEqual(['a1', 'a2', 'a3']);
    expect(accounts.items.map((item) => item.id)).toEqual(['a1', 'a2', 'a3']);
    const queries = fake.sent.map((request) => new URL(request.url).search);
    expect(queries).toEqual(['?limit=100', '?limit=100&cursor=page-2']);
  });

  it('keeps what it held when a later page fails', async () => {
    world([okResponse({ items: [account('a1')], nextCursor: null })]);
    const accounts = useAccountsStore();
    await accounts.load();
    world([
      okResponse({ items: [account('a1'), account('a2')], nextCursor: 'page-2' }),
      problemResponse(404, { errorCode: 'NOT_FOUND' }),
    ]);
    const result = await accounts.load();
    expect(result.error?.status).toBe(404);
    expect(accounts.items.map((item) => item.id)).toEqual(['a1']);
  });
});
