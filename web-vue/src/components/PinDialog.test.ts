import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { describe, expect, it, vi } from 'vitest';
import type { Result } from '../api/result.ts';
import { PIN_HELD_OPEN } from '../messages.ts';
import { useTransfersStore, type ApprovedPayment } from '../stores/transfers.ts';
import PinDialog from './PinDialog.vue';

const payment: ApprovedPayment = { operation: 'withdraw', fromAccountId: '3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a', amountMinor: 500 };

describe('PinDialog while its check is with the bank', () => {
  it('answers Escape and Cancel with why it stays open, and closes once the bank has answered', async () => {
    const pinia = createPinia();
    setActivePinia(pinia);
    let answer: (result: Result<never>) => void = () => undefined;
    vi.spyOn(useTransfersStore(), 'verifyPin').mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const wrapper = mount(PinDialog, { props: { open: true, payment, fromName: 'Everyday' }, global: { plugins: [pinia] }, attachTo: document.body });
    await flushPromises();
    const dialog = wrapper.get('dialog').element as HTMLDialogElement;
    await wrapper.get('#pin-input').setValue('4821');
    await wrapper.get('form').trigger('submit');
    expect(wrapper.get('[role="status"]').text()).toBe('');

    dialog.dispatchEvent(new Event('cancel', { cancelable: true }));
    await flushPromises();
    expect(dialog.open).toBe(true);
    expect(wrapper.get('[role="status"]').text()).toBe(PIN_HELD_OPEN);
    await wrapper.findAll('button').find((button) => button.text() === 'Cancel')!.trigger('click');
    expect(dialog.open).toBe(true);
    expect(wrapper.get('[role="status"]').text()).toBe(PIN_HELD_OPEN);

    answer({ error: { code: 'SERVICE_UNAVAILABLE', status: 503 } as never });
    await flushPromises();
    expect(wrapper.get('[role="status"]').text()).toBe('');
    await wrapper.findAll('button').find((button) => button.text() === 'Cancel')!.trigger('click');
    await flushPromises();
    expect(wrapper.emitted('update:open')?.at(-1)).toEqual([false]);
    wrapper.unmount();
  });
});

describe('PinDialog after a failed check', () => {
  it("keeps the outage's sentence until the visitor types the PIN again, then clears it", async () => {
    const pinia = createPinia();
    setActivePinia(pinia);
    vi.spyOn(useTransfersStore(), 'verifyPin').mockResolvedValue({ error: { code: 'SERVICE_UNAVAILABLE', status: 503 } as never });
    const wrapper = mount(PinDialog, { props: { open: true, payment, fromName: 'Everyday' }, global: { plugins: [pinia] }, attachTo: document.body });
    await flushPromises();
    await wrapper.get('#pin-input').setValue('4821');
    await wrapper.get('form').trigger('submit');
    await flushPromises();
    expect(wrapper.find('#pin-input-error').text()).toContain('temporarily unavailable');
    await wrapper.get('#pin-input').setValue('4');
    expect(wrapper.find('#pin-input-error').exists()).toBe(false);
    expect(wrapper.get('#pin-input').attributes('aria-invalid')).toBeUndefined();
    wrapper.unmount();
  });
});
