/**
 * An account's movements, newest first, a page at a time (`nextCursor`). Each page is
 * its own read: retried once within its own 120 s.
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { components } from '@tidewater/spec/openapi';
import { useClients } from '../api/instance.ts';
import { settle, type Result } from '../api/result.ts';

type Transaction = components['schemas']['Transaction'];

/** How many movements one page shows. */
const PAGE_SIZE = 20;
/** How many the dashboard's recent activity shows. */
const RECENT_SIZE = 5;

export const useTransactionsStore = defineStore('transactions', () => {
  const accountId = ref<string | null>(null);
  const items = ref<Transaction[]>([]);
  const nextCursor = ref<string | null>(null);

  /** Loads the first page of `forAccount` (replacing what was shown), or the next page. */
  async function loadPage(forAccount: string, more: boolean, signal?: AbortSignal): Promise<Result<Transaction[]>> {
    const cursor = more && accountId.value === forAccount ? (nextCursor.value ?? undefined) : undefined;
    const { data, error } = await settle(() =>
      useClients().api.GET('/api/transactions', { params: { query: { accountId: forAccount, cursor, limit: PAGE_SIZE } }, signal }),
    );
    if (error) return { error };
    items.value = cursor ? [...items.value, ...data.items] : data.items;
    accountId.value = forAccount;
    nextCursor.value = data.nextCursor;
    return { data: data.items };
  }

  /** The dashboard's recent activity: the newest movements of one account (its own state, so an account's page keeps its pages). */
  const recent = ref<{ accountId: string; items: Transaction[] } | null>(null);

  /** Loads the newest few movements of `forAccount` into `recent`. */
  async function loadRecent(forAccount: string, signal?: AbortSignal): Promise<Result<Transaction[]>> {
    const { data, error } = await settle(() =>
      useClients().api.GET('/api/transactions', { params: { query: { accountId: forAccount, limit: RECENT_SIZE } }, signal }),
    );
    if (error) return { error };
    recent.value = { accountId: forAccount, items: data.items };
    return { data: data.items };
  }

  function clear(): void {
    accountId.value = null;
    items.value = [];
    nextCursor.value = null;
    recent.value = null;
  }

  return { accountId, items, nextCursor, recent, loadPage, loadRecent, clear };
});
