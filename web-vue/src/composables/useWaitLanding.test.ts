import { describe, expect, it } from 'vitest';
import { focusIsUnmoved } from './useWaitLanding.ts';

describe('focusIsUnmoved: focus goes back to Retry unless the visitor moved it', () => {
  const body = document.body;
  const stop = document.createElement('button');
  const elsewhere = document.createElement('a');
  const removed = document.createElement('button');
  body.append(stop, elsewhere);

  const cases: Array<[string, { armedAt: Element | null; active: Element | null; want: boolean }]> = [
    ['still on the button they pressed', { armedAt: stop, active: stop, want: true }],
    ['lost to the body when that button went away', { armedAt: removed, active: body, want: true }],
    ['nothing focused', { armedAt: stop, active: null, want: true }],
    ['moved to a link since', { armedAt: stop, active: elsewhere, want: false }],
  ];
  it.each(cases)('%s', (_name, { armedAt, active, want }) => {
    expect(focusIsUnmoved(armedAt, active, body)).toBe(want);
  });
});
