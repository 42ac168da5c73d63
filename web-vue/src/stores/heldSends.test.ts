import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { effectScope, nextTick, reactive } from 'vue';
import type { Result } from '../api/result.ts';
import { useKeyedSend } from '../composables/useKeyedSend.ts';
import { HELD_SEND_LIFETIME_MS, heldSendsEntry, putHeldSend, readHeldSends, type HeldSendRecord } from './heldSendRecords.ts';
import { useHeldSendsStore } from './heldSends.ts';
import { useSessionStore } from './session.ts';

type User = NonNullable<ReturnType<typeof useSessionStore>['user']>;
const customer = (id: string) => ({ id, email: `${id}@example.com`, displayName: 'Ada', handle: id, primaryAccountId: null, createdAt: '2026-12-05T00:00:00Z' }) as User;

async function signIn(id: string | null): Promise<void> {
  useSessionStore().$patch(id === null ? { status: 'signedOut', user: null } : { status: 'signedIn', user: customer(id) });
  await nextTick();
}

/** A deposit page whose send answers `answer`; `onSend` sees the browser's storage as the request leaves. */
function depositPage(answer: () => Promise<Result<{ id: string }>>, onSend: () => void = () => undefined) {
  const scope = effectScope();
  const send = scope.run(() =>
    useKeyedSend(
      async (_payload: { amountMinor: number }) => {
        onSend();
        return answer();
      },
      { holdAs: 'deposit:a1', operation: 'deposit', accountOf: () => 'a1', context: 'moneySend', kind: 'deposit', keep: () => ({ form: reactive({ amount: '' }) }), newKey: () => 'key-1' },
    ),
  )!;
  return { send, leave: () => scope.stop() };
}

const outage = { error: { code: 'SERVICE_UNAVAILABLE' as const, status: 503 } };

beforeEach(async () => {
  localStorage.clear();
  setActivePinia(createPinia());
  await signIn('u1');
});

describe('a held send outlives its page (adr/0051)', () => {
  it('is in the browser, with its key, payload and account, before the request leaves', async () => {
    let seen: HeldSendRecord[] = [];
    const page = depositPage(
      async () => outage,
      () => (seen = readHeldSends(localStorage, 'u1')),
    );
    await page.send.submit({ amountMinor: 1234 });
    expect(seen).toMatchObject([{ key: 'key-1', operation: 'deposit', holdAs: 'deposit:a1', accountId: 'a1', payload: { amountMinor: 1234 }, checkFirst: false }]);
    expect(readHeldSends(localStorage, 'u1')).toHaveLength(1);
  });

  it('is forgotten once an answer settles it, and the outcome is known to the store', async () => {
    const page = depositPage(async () => ({ data: { id: 'tx' } }));
    await page.send.submit({ amountMinor: 1234 });
    expect(localStorage.getItem(heldSendsEntry('u1'))).toBeNull();
    expect(useHeldSendsStore().outcomes.get('key-1')).toEqual({ kind: 'landed', data: { id: 'tx' } });
  });

  it('a known refusal forgets it too; a lost connection keeps it, to be checked first', async () => {
    const refused = depositPage(async () => ({ error: { code: 'VALIDATION_FAILED', status: 400 } }));
    await refused.send.submit({ amountMinor: 1 });
    expect(readHeldSends(localStorage, 'u1')).toEqual([]);
    refused.leave();
    setActivePinia(createPinia());
    await signIn('u1');
    const lost = depositPage(async () => ({ error: { code: 'CONNECTION_FAILED', status: null } }));
    await lost.send.submit({ amountMinor: 2 });
    expect(readHeldSends(localStorage, 'u1')).toMatchObject([{ key: 'key-1', checkFirst: true }]);
  });

  it('comes back for the same customer after sign-out and sign-in; another customer never sees it', async () => {
    const page = depositPage(async () => outage);
    await page.send.submit({ amountMinor: 1234 });
    page.leave();
    const held = useHeldSendsStore();
    expect(held.records).toHaveLength(1);
    await signIn(null);
    expect(held.records).toEqual([]);
    expect(held.count).toBe(0);
    await signIn('u2');
    expect(held.records).toEqual([]);
    await signIn(null);
    await signIn('u1');
    expect(held.records.map((record) => record.key)).toEqual(['key-1']);
  });

  it('a new page of the same kind shows it as another send, in place of a new key', async () => {
    const first = depositPage(async () => outage);
    await first.send.submit({ amountMinor: 1234 });
    first.leave();
    useHeldSendsStore().drop('deposit:a1'); // as after a reload: nothing kept in the tab
    const again = depositPage(async () => ({ data: { id: 'tx' } }));
    expect(again.send.restored).toBe(false);
    expect(again.send.others.value.map((record) => record.key)).toEqual(['key-1']);
  });

  it('an outcome learnt elsewhere settles the page that holds the key', async () => {
    const page = depositPage(async () => outage);
    await page.send.submit({ amountMinor: 1234 });
    expect(page.send.phase.value).toBe('unsettled');
    useHeldSendsStore().settle('key-1', { kind: 'landed', data: { id: 'tx-elsewhere' } });
    await nextTick();
    expect(page.send.phase.value).toBe('succeeded');
    expect(page.send.data.value).toEqual({ id: 'tx-elsewhere' });
    expect(page.send.holdsKey.value).toBe(false);
  });
});

describe('a landed send is one truth for every tab (adr/0065)', () => {
  it('the page that showed its answer shows no second receipt; a review of the same deposit is asked', async () => {
    const page = depositPage(async () => ({ data: { id: 'tx-1' } }));
    await page.send.submit({ amountMinor: 5555 });
    const held = useHeldSendsStore();
    expect(held.receipts).toEqual([]);
    expect(held.landedLike({ operation: 'deposit', accountId: 'a1', payload: { amountMinor: 5555 } })).toMatchObject({ key: 'key-1', movementId: 'tx-1' });
    expect(held.landedLike({ operation: 'deposit', accountId: 'a1', payload: { amountMinor: 5556 } })).toBeUndefined();
  });

  it('an outcome learnt by a check stands as a receipt until dismissed, also after a reload', async () => {
    const page = depositPage(async () => outage);
    await page.send.submit({ amountMinor: 1234 });
    page.leave();
    const held = useHeldSendsStore();
    held.settle('key-1', { kind: 'landed', found: [{ id: 'mv-1' }] });
    expect(held.receipts).toMatchObject([{ key: 'key-1', movementId: 'mv-1', dismissed: false }]);
    setActivePinia(createPinia()); // a reload
    await signIn('u1');
    expect(useHeldSendsStore().receipts.map((entry) => entry.key)).toEqual(['key-1']);
    useHeldSendsStore().dismiss('key-1');
    expect(useHeldSendsStore().receipts).toEqual([]);
    expect(useHeldSendsStore().landedLike({ operation: 'deposit', accountId: 'a1', payload: { amountMinor: 1234 } })?.key).toBe('key-1');
  });
});

describe('signed out while a send is on its way (adr/0074)', () => {
  /** A deposit page whose answer comes when `answer` is called. */
  function heldBack() {
    let release: (result: Result<{ id: string }>) => void = () => undefined;
    const page = depositPage(() => new Promise((resolve) => (release = resolve)));
    return { page, answer: (result: Result<{ id: string }>) => release(result) };
  }

  it('an answer that comes while nobody is signed in is not told; the record waits for its customer', async () => {
    const { page, answer } = heldBack();
    const sent = page.send.submit({ amountMinor: 4444 });
    await nextTick();
    page.leave();
    await signIn(null);
    answer({ data: { id: 'tx-44' } });
    await sent;
    const held = useHeldSendsStore();
    expect(held.announcement).toBeNull();
    await signIn('u1');
    expect(held.records.map((record) => record.key)).toEqual(['key-1']);
    held.settle('key-1', { kind: 'landed', data: { id: 'tx-44' } });
    expect(held.announcement?.text).toBe('Deposit of €44.44 into your account: it went through.');
    expect(held.receipts).toMatchObject([{ key: 'key-1', movementId: 'tx-44' }]);
  });

  it('an answer that comes once the customer is back, their page gone, stands as a named receipt', async () => {
    const { page, answer } = heldBack();
    const sent = page.send.submit({ amountMinor: 4444 });
    await nextTick();
    page.leave();
    await signIn(null);
    await signIn('u1');
    answer({ data: { id: 'tx-44' } });
    await sent;
    const held = useHeldSendsStore();
    expect(held.announcement?.text).toBe('Deposit of €44.44 into your account: it went through.');
    expect(held.receipts).toMatchObject([{ key: 'key-1', movementId: 'tx-44' }]);
  });
});

describe('signed out while a send is on its way: the answer comes during the sign-out (adr/0074)', () => {
  it('the page about to close does not count as showing it: it stands as a receipt after the next sign-in', async () => {
    let release: (result: Result<{ id: string }>) => void = () => undefined;
    const page = depositPage(() => new Promise((resolve) => (release = resolve)));
    const sent = page.send.submit({ amountMinor: 4444 });
    await nextTick();
    useSessionStore().$patch({ signingOut: true });
    release({ data: { id: 'tx-44' } });
    await sent;
    page.leave();
    useSessionStore().$patch({ signingOut: false });
    await signIn(null);
    await signIn('u1');
    expect(useHeldSendsStore().receipts).toMatchObject([{ key: 'key-1', movementId: 'tx-44' }]);
  });
});

describe('heldSendRecords', () => {
  const record: HeldSendRecord = { key: 'k', operation: 'deposit', holdAs: 'deposit:a', accountId: 'a', payload: { amountMinor: 1 }, firstSentAt: 1_000, checkFirst: false };
  it('drops a record past its lifetime, and keeps the first-sent time of a key sent again', () => {
    putHeldSend(localStorage, 'u', record, 1_000);
    putHeldSend(localStorage, 'u', { ...record, firstSentAt: 5_000 }, 5_000);
    expect(readHeldSends(localStorage, 'u', 5_000)).toEqual([record]);
    expect(readHeldSends(localStorage, 'u', 1_000 + HELD_SEND_LIFETIME_MS)).toEqual([]);
  });
  it('reads nothing from an entry that is not ours', () => {
    localStorage.setItem(heldSendsEntry('u'), '{not json');
    expect(readHeldSends(localStorage, 'u')).toEqual([]);
    localStorage.setItem(heldSendsEntry('u'), JSON.stringify([{ key: 1 }, record]));
    expect(readHeldSends(localStorage, 'u', 2_000)).toEqual([record]);
  });
});
