import { describe, expect, it } from 'vitest';
import { readServedTimings, servedTimingsId, withServedTimings } from './servedTimings.ts';
import { chainDefaults } from './timeoutChain.ts';

/** A stand-in for the page: the block's text by its id, as the browser would give it. */
function pageOf(html: string) {
  return {
    getElementById: (id: string) => {
      const match = new RegExp(`<script type="application/json" id="${id}">(.*?)</script>`).exec(html);
      return match ? { textContent: match[1] ?? null } : null;
    },
  };
}

const timings = { spaAbortMs: 70_000, spaReadBudgetMs: 130_000, spaSessionCheckMs: 7_000 };

describe('the SPA timings in the served page', () => {
  it('go before the first script, and read back as they were served', () => {
    const html = withServedTimings('<html><head><title>t</title><script type="module" src="/a.js"></script></head></html>', timings);
    expect(html.indexOf(servedTimingsId)).toBeLessThan(html.indexOf('src="/a.js"'));
    expect(readServedTimings(pageOf(html))).toEqual(timings);
  });

  it('go before </head>, else at the end, when the page has no script', () => {
    expect(withServedTimings('<head></head><body></body>', timings)).toMatch(/^<head><script type="application\/json"[^]*<\/script><\/head><body>/);
    expect(withServedTimings('<p>bare</p>', timings)).toMatch(/^<p>bare<\/p><script/);
  });

  it('carry only the SPA tier, and nothing that could end the element', () => {
    const html = withServedTimings('<head></head>', { ...timings, extra: '</script><script>alert(1)' } as typeof timings);
    expect(html).not.toContain('alert');
    expect(html.match(/<\/script>/g)).toHaveLength(1);
  });

  it('are the defaults, number by number, where the page has none or nonsense', () => {
    const defaults = { spaAbortMs: chainDefaults.spaAbortMs, spaReadBudgetMs: chainDefaults.spaReadBudgetMs, spaSessionCheckMs: chainDefaults.spaSessionCheckMs };
    expect(readServedTimings(undefined)).toEqual(defaults);
    expect(readServedTimings(pageOf('<p>no block</p>'))).toEqual(defaults);
    expect(readServedTimings({ getElementById: () => ({ textContent: '{not json' }) })).toEqual(defaults);
    expect(readServedTimings({ getElementById: () => ({ textContent: '{"spaAbortMs":-5,"spaReadBudgetMs":130000}' }) })).toEqual({ ...defaults, spaReadBudgetMs: 130_000 });
  });
});
