import { describe, expect, it } from 'vitest';
import {
  RETRY_BUDGET_DEFAULTS,
  retryBudget,
  type RetryBudgetOptions,
  type RetryBudgetState,
} from './retryBudget.ts';

/** One step of a scenario: spend a token, record a success, or move the fake clock. */
type Step = 'spend' | 'success' | { advanceMs: number };

const spend = (times: number): Step[] => Array<Step>(times).fill('spend');
const succeed = (times: number): Step[] => Array<Step>(times).fill('success');

/** Runs the steps on a budget with a fake clock; answers each spend's result and the final state. */
function run(steps: Step[], options: RetryBudgetOptions = {}) {
  let clock = 1_000;
  const budget = retryBudget({ ...options, now: () => clock });
  const spends: boolean[] = [];
  for (const step of steps) {
    if (step === 'spend') spends.push(budget.trySpend());
    else if (step === 'success') budget.recordSuccess();
    else clock += step.advanceMs;
  }
  return { spends, state: budget.state() };
}

const no = false;
const yes = true;
const cases: [
  string,
  {
    given: { steps: Step[]; options?: RetryBudgetOptions };
    want: { spends: boolean[]; state: Partial<RetryBudgetState> };
  },
][] = [
  [
    'starts full and allows a burst of 10',
    {
      given: { steps: spend(11) },
      want: { spends: [...Array(10).fill(yes), no], state: { tokens: 0, spent: 10, refused: 1 } },
    },
  ],
  [
    'ten successes earn one retry (0.1 each, no float drift)',
    {
      given: { steps: [...spend(10), ...succeed(9), 'spend', 'success', 'spend'] },
      want: { spends: [...Array(10).fill(yes), no, yes], state: { tokens: 0, spent: 11, refused: 1 } },
    },
  ],
  [
    'time refills 0.5 token per second',
    {
      given: { steps: [...spend(10), { advanceMs: 1_999 }, 'spend', { advanceMs: 1 }, 'spend'] },
      want: { spends: [...Array(10).fill(yes), no, yes], state: { spent: 11, refused: 1 } },
    },
  ],
  [
    'never holds more than its capacity',
    {
      given: { steps: [{ advanceMs: 3_600_000 }, ...succeed(100)] },
      want: { spends: [], state: { tokens: 10, capacity: 10 } },
    },
  ],
  [
    'a clock that steps back takes nothing away',
    {
      given: { steps: ['spend', { advanceMs: -60_000 }, 'spend'] },
      want: { spends: [yes, yes], state: { tokens: 8 } },
    },
  ],
  [
    'options override the defaults',
    {
      given: { steps: spend(3), options: { capacity: 2, perSecond: 0 } },
      want: { spends: [yes, yes, no], state: { capacity: 2, refused: 1 } },
    },
  ],
];

describe('retryBudget', () => {
  it.each(cases)('%s', (_name, { given, want }) => {
    const { spends, state } = run(given.steps, given.options);
    expect(spends).toEqual(want.spends);
    expect(state).toMatchObject(want.state);
  });

  it('documents its defaults: 10 tokens, 0.1 per success, 0.5 per second', () => {
    expect(RETRY_BUDGET_DEFAULTS).toEqual({ capacity: 10, perSuccess: 0.1, perSecond: 0.5 });
  });
});
