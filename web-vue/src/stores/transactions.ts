/**
 * An account's movements, newest first, a page at a time (`nextCursor`). Each page is
 * its own read: retried once within its own 120 s. A search narrows the list (text,
 * amount, direction, days; adr/0071): the next page is asked with the filters its first
 * page was, since the cursor marks only a position.
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { components } from '@tidewater/spec/openapi';
import { useClients } from '../api/instance.ts';
import { settle, type Result } from '../api/result.ts';

type Transaction = components['schemas']['Transaction'];

/** A search of the movements, as the API takes it; every member optional (none: the whole list). */
export interface MovementFilters {
  q?: string;
  amountMinor?: number;
  direction?: 'in' | 'out';
  /** `YYYY-MM-DD`, a day in the bank's time zone (Europe/Amsterdam). */
  from?: string;
  to?: string;
}

/** How many movements one page shows. */
const PAGE_SIZE = 20;
/** How many the dashboard's recent activity shows. */
const RECENT_SIZE = 5;

export const useTransactionsStore = defineStore('transactions', () => {
  const accountId = ref<string | null>(null);
  const items = ref<Transaction[]>([]);
  const nextCursor = ref<string | null>(null);
  /** The search the next first page is asked with. */
  const filters = ref<MovementFilters>({});
  /** The search the list shown was asked with (the next page asks with it too). */
  const shownFilters = ref<MovementFilters>({});

  /** Loads the first page of `forAccount` under `filters` (replacing what was shown), or the next page of what is shown. */
  async function loadPage(forAccount: string, more: boolean, signal?: AbortSignal): Promise<Result<Transaction[]>> {
    const cursor = more && accountId.value === forAccount ? (nextCursor.value ?? undefined) : undefined;
    const search = cursor ? shownFilters.value : { ...filters.value };
    const { data, error } = await settle(() =>
      useClients().api.GET('/api/transactions', { params: { query: { accountId: forAccount, cursor, limit: PAGE_SIZE, ...search } }, signal }),
    );
    if (error) return { error };
    items.value = cursor ? [...items.value, ...data.items] : data.items;
    accountId.value = forAccount;
    nextCursor.value = data.nextCursor;
    shownFilters.value = search;
    return { data: data.items };
  }

  /** Whether the list shown is narrowed by a search. */
  function isFiltered(): boolean {
    return Object.keys(shownFilters.value).length > 0;
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
    filters.value = {};
    shownFilters.value = {};
  }

  return { accountId, items, nextCursor, filters, shownFilters, recent, loadPage, loadRecent, isFiltered, clear };
});
