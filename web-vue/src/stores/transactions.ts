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

  function clear(): void {
    accountId.value = null;
    items.value = [];
    nextCursor.value = null;
  }

  return { accountId, items, nextCursor, loadPage, clear };
});
