import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { components } from '@tidewater/spec/openapi';
import MovementList from './MovementList.vue';

type Transaction = components['schemas']['Transaction'];

function movement(id: string, createdAt: Date, amountMinor: number, extra: Partial<Transaction> = {}): Transaction {
  return { id, accountId: 'a1', kind: amountMinor < 0 ? 'external_out' : 'deposit', amountMinor, balanceAfterMinor: 10_000, createdAt: createdAt.toISOString(), ...extra } as Transaction;
}

describe('MovementList', () => {
  it('groups movements by day, newest first, each day heading its rows', () => {
    const now = new Date();
    const today = new Date(now.getFullYear(), now.getMonth(), now.getDate(), 9, 30);
    const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1, 18, 5);
    const older = new Date(2026, 10, 3, 12, 0);
    const wrapper = mount(MovementList, {
      props: {
        caption: 'Movements',
        items: [
          movement('m1', today, -4_250, { counterparty: 'Grace Hopper (MT84MALT011000012345MTLCAST001S)' }),
          movement('m2', today, 1_000),
          movement('m3', yesterday, 2_000),
          movement('m4', older, 3_000),
        ],
      },
    });
    const days = wrapper.findAll('tbody');
    expect(days.map((day) => day.get('th[scope="rowgroup"]').text())).toEqual(['Today', 'Yesterday', 'Tuesday 3 November 2026']);
    expect(days.map((day) => day.findAll('tr.movements__row').length)).toEqual([2, 1, 1]);
    expect(days[0]!.get('tr.movements__row').text()).toContain('MT84MALT011000012345MTLCAST001S');
    expect(days[0]!.get('time').attributes('datetime')).toBe(today.toISOString());
  });
});
