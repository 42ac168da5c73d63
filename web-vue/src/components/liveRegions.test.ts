import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h, nextTick } from 'vue';
import { createMemoryHistory, createRouter } from 'vue-router';
import type { Result } from '../api/result.ts';
import { useRead } from '../composables/useRead.ts';
import PublicLayout from '../layouts/PublicLayout.vue';
import { waitHints } from '../messages.ts';
import SignInPage from '../pages/SignInPage.vue';
import { usePageAlertStore } from '../stores/pageAlert.ts';
import WaitHint from './WaitHint.vue';

beforeEach(() => setActivePinia(createPinia()));
afterEach(() => vi.useRealTimers());

describe('live regions exist, empty, from the first render', () => {
  it('a page has one role="alert" and its role="status" regions, all empty', async () => {
    const pinia = createPinia();
    setActivePinia(pinia);
    const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/', component: SignInPage }, { path: '/sign-up', component: SignInPage }] });
    await router.push('/');
    const wrapper = mount(defineComponent({ render: () => h(PublicLayout, null, { default: () => h(SignInPage) }) }), {
      global: { plugins: [pinia, router] },
      attachTo: document.body,
    });
    const alerts = wrapper.findAll('[role="alert"]');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.text()).toBe('');
    const statuses = wrapper.findAll('[role="status"]');
    expect(statuses.length).toBeGreaterThan(0);
    for (const status of statuses) expect(status.text()).toBe('');

    // The same region later speaks: it is filled, not added.
    const region = alerts[0]!.element;
    usePageAlertStore().show('The service is temporarily unavailable. Please try again later.');
    await nextTick();
    expect(wrapper.find('[role="alert"]').element).toBe(region);
    expect(region.textContent).toContain('temporarily unavailable');
    wrapper.unmount();
  });
});

describe('wait hints follow the wait', () => {
  it('nothing for 5 s, then "Taking longer than usual…", "Still trying…" from 20 s, and "Loaded." unseen', async () => {
    vi.useFakeTimers();
    let answer: (result: Result<string>) => void = () => undefined;
    const Harness = defineComponent({
      setup() {
        const read = useRead<string>(() => new Promise((resolve) => (answer = resolve)));
        void read.run();
        return () => h('div', [h(WaitHint, { text: read.hint.value, unseen: read.hintIsUnseen.value }), read.canStop.value ? h('button', 'Stop') : null]);
      },
    });
    const wrapper = mount(Harness);
    const status = () => wrapper.get('[role="status"]');
    await vi.advanceTimersByTimeAsync(4_999);
    expect(status().text()).toBe('');
    await vi.advanceTimersByTimeAsync(1);
    expect(status().text()).toBe(waitHints.slow);
    expect(wrapper.find('button').exists()).toBe(false);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(status().text()).toBe(waitHints.still);
    expect(wrapper.find('button').text()).toBe('Stop');
    answer({ data: 'done' });
    await flushPromises();
    expect(status().text()).toBe(waitHints.loaded);
    expect(status().classes()).toContain('visually-hidden');
  });

  it('a fast read says nothing at all', async () => {
    vi.useFakeTimers();
    const Harness = defineComponent({
      setup() {
        const read = useRead<string>(async () => ({ data: 'quick' }));
        void read.run();
        return () => h(WaitHint, { text: read.hint.value });
      },
    });
    const wrapper = mount(Harness);
    await flushPromises();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(wrapper.get('[role="status"]').text()).toBe('');
  });
});
