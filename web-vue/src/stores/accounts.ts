/**
 * The customer's accounts: list, one, open, rename, close, make primary. Every action
 * resolves to `{ data } | { error }` and updates the list only on data. The list is
 * cleared the moment the session ends, so no balance stays on screen.
 */
import { defineStore } from 'pinia';
import { computed, ref, watch } from 'vue';
import type { components } from '@tidewater/spec/openapi';
import { useClients } from '../api/instance.ts';
import { settle, type Result } from '../api/result.ts';
import { useSessionStore } from './session.ts';

/** One account, as the API describes it. */
export type Account = components['schemas']['Account'];

export const useAccountsStore = defineStore('accounts', () => {
  const items = ref<Account[]>([]);
  const loaded = ref(false);
  /** When each account's balance was last read from the bank (ms since the epoch): what a page says while it may be stale. */
  const readAt = ref<Record<string, number>>({});
  const session = useSessionStore();

  watch(
    () => session.status,
    (status) => {
      if (status !== 'signedIn') clear();
    },
  );

  function clear(): void {
    items.value = [];
    loaded.value = false;
    readAt.value = {};
  }

  function upsert(account: Account): void {
    const index = items.value.findIndex((item) => item.id === account.id);
    if (account.isPrimary) items.value = items.value.map((item) => ({ ...item, isPrimary: item.id === account.id }));
    if (index === -1) items.value = [...items.value, account];
    else items.value = items.value.map((item) => (item.id === account.id ? account : item));
  }

  /** GET /api/accounts, every page (100 at a time): the store holds them all or, on a failed page, keeps what it had. */
  async function load(signal?: AbortSignal): Promise<Result<Account[]>> {
    const all: Account[] = [];
    let cursor: string | undefined;
    do {
      const query = cursor === undefined ? { limit: 100 } : { limit: 100, cursor };
      const { data, error } = await settle(() => useClients().api.GET('/api/accounts', { params: { query }, signal }));
      if (error) return { error };
      all.push(...data.items);
      cursor = data.nextCursor ?? undefined;
    } while (cursor !== undefined);
    items.value = all;
    loaded.value = true;
    const now = Date.now();
    readAt.value = Object.fromEntries(all.map((account) => [account.id, now]));
    return { data: all };
  }

  /** GET /api/accounts/{accountId}. */
  async function loadOne(accountId: string, signal?: AbortSignal): Promise<Result<Account>> {
    const result = await settle(() => useClients().api.GET('/api/accounts/{accountId}', { params: { path: { accountId } }, signal }));
    if (result.data) {
      upsert(result.data);
      readAt.value = { ...readAt.value, [accountId]: Date.now() };
    }
    return result;
  }

  /** POST /api/accounts with the Idempotency-Key the dashboard holds until the answer is known: a retry never opens a second account. */
  async function open(name: string, key: string): Promise<Result<Account>> {
    const result = await settle(() => useClients().api.POST('/api/accounts', { params: { header: { 'Idempotency-Key': key } }, body: { name } }));
    if (result.data) upsert(result.data);
    return result;
  }

  /** PATCH /api/accounts/{accountId}. */
  async function rename(accountId: string, name: string): Promise<Result<Account>> {
    const result = await settle(() => useClients().api.PATCH('/api/accounts/{accountId}', { params: { path: { accountId } }, body: { name } }));
    if (result.data) upsert(result.data);
    return result;
  }

  /** POST /api/accounts/{accountId}/close. */
  async function close(accountId: string): Promise<Result<Account>> {
    const result = await settle(() => useClients().api.POST('/api/accounts/{accountId}/close', { params: { path: { accountId } } }));
    if (result.data) upsert(result.data);
    return result;
  }

  /** POST /api/accounts/{accountId}/primary. */
  async function makePrimary(accountId: string): Promise<Result<Account>> {
    const result = await settle(() => useClients().api.POST('/api/accounts/{accountId}/primary', { params: { path: { accountId } } }));
    if (result.data) upsert(result.data);
    return result;
  }

  return {
    items,
    loaded,
    readAt,
    openAccounts: computed(() => items.value.filter((account) => account.status === 'open')),
    byId: (accountId: string) => items.value.find((account) => account.id === accountId),
    load,
    loadOne,
    open,
    rename,
    close,
    makePrimary,
    clear,
  };
});
