/**
 * The SPA runs on the timeout chain the BFF that serves it resolved: the abort (and the
 * read budget, the session check) come from the page's `tidewater-timings` block
 * (bff/src/routes/spaRoute.ts writes it), with the contract's defaults when it is absent.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chainDefaults } from '@tidewater/contract/timeoutChain';
import { fakeWorld } from './fakeRequestEnvironment.ts';

/** The SPA's modules as loaded on a page whose head holds `block` (none when undefined). */
async function loadOnPage(block: string | undefined) {
  document.head.innerHTML = block ?? '';
  vi.resetModules();
  const timings = await import('./timings.ts');
  const { createResilientFetch } = await import('./resilientFetch.ts');
  return { timings, createResilientFetch };
}

const write = () => new Request('http://bank.test/api/accounts/a/deposits', { method: 'POST', body: '{}' });

afterEach(() => {
  document.head.innerHTML = '';
});

describe('the SPA timings', () => {
  it('are the served ones, and every request aborts at the served SPA_ABORT_MS', async () => {
    const { timings, createResilientFetch } = await loadOnPage(
      '<script type="application/json" id="tidewater-timings">{"spaAbortMs":70000,"spaReadBudgetMs":130000,"spaSessionCheckMs":7000}</script>',
    );
    expect([timings.SPA_ABORT_MS, timings.READ_BUDGET_MS, timings.SESSION_CHECK_MS, timings.SEND_SETTLES_AFTER_MS]).toEqual([70_000, 130_000, 7_000, 70_000]);
    const world = fakeWorld(['hang']);
    void createResilientFetch(world.env)(write()).catch(() => undefined);
    await Promise.resolve();
    expect(world.timers[0]?.ms).toBe(70_000);
  });

  it('are the defaults on a page that serves none, or serves nonsense', async () => {
    for (const block of [undefined, '<script type="application/json" id="tidewater-timings">{"spaAbortMs":"soon"</script>', '<script type="application/json" id="tidewater-timings">{"spaAbortMs":0}</script>']) {
      const { timings } = await loadOnPage(block);
      expect([timings.SPA_ABORT_MS, timings.READ_BUDGET_MS, timings.SESSION_CHECK_MS]).toEqual([
        chainDefaults.spaAbortMs,
        chainDefaults.spaReadBudgetMs,
        chainDefaults.spaSessionCheckMs,
      ]);
    }
  });
});
