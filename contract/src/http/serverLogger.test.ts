import { describe, expect, it } from 'vitest';
import { logFormat } from './serverLogger.ts';

describe('logFormat (adr/0053)', () => {
  it.each([
    ['a terminal', {}, true, 'pretty'],
    ['a pipe or a file', {}, false, 'json'],
    ['LOG_FORMAT=json on a terminal', { LOG_FORMAT: 'json' }, true, 'json'],
    ['LOG_FORMAT=pretty through a pipe', { LOG_FORMAT: 'pretty' }, false, 'pretty'],
    ['an unknown LOG_FORMAT', { LOG_FORMAT: 'xml' }, false, 'json'],
  ] as const)('%s', (_, env, terminal, want) => {
    expect(logFormat(env, terminal)).toBe(want);
  });
});
