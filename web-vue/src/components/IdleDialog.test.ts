import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../stores/session.ts';
import IdleDialog from './IdleDialog.vue';

afterEach(() => vi.useRealTimers());

describe('IdleDialog', () => {
  it('opens in the last 60 s with "Stay signed in" focused', async () => {
    vi.useFakeTimers();
    const pinia = createPinia();
    setActivePinia(pinia);
    const session = useSessionStore();
    session.$patch({ status: 'signedIn', idleEndsAt: Date.now() + 65_000 });
    const wrapper = mount(IdleDialog, { global: { plugins: [pinia] }, attachTo: document.body });
    const dialog = wrapper.get('dialog').element as HTMLDialogElement;
    expect(dialog.open).toBe(false);
    await vi.advanceTimersByTimeAsync(6_000);
    expect(dialog.open).toBe(true);
    expect(document.activeElement?.textContent).toBe('Stay signed in');
    expect(wrapper.text()).toContain('0:59');
    wrapper.unmount();
  });
});
