import { describe, expect, it, vi } from 'vitest';
import { defaults } from '../../config.ts';
import { retryBudget } from './retryBudget.ts';
import {
  abortableSleep,
  exponential,
  none,
  policyFor,
  type ExecuteOptions,
  type ExponentialOptions,
} from './retryPolicy.ts';

const withCode = (code: string, syscall?: string) =>
  Object.assign(new Error(`failed: ${code}`), { code, syscall });
const deadlock = () => withCode('40P01');
const statementTimeout = () => withCode('57014');
const reset = () => withCode('ECONNRESET', 'read');
const refused = () => withCode('ECONNREFUSED', 'connect');

/** A unit of work that throws `errors` in turn, then answers 'ok'; counts its attempts. */
function work(errors: unknown[]) {
  const fn = vi.fn(async (attempt: number) => {
    if (attempt < errors.length) throw errors[attempt];
    return 'ok';
  });
  return fn;
}

/** An exponential policy with a fresh budget, instant sleeps and a fixed random. */
const policy = (options: ExponentialOptions = {}) =>
  exponential({ budget: retryBudget(), sleep: async () => undefined, random: () => 0, ...options });

const always = () => true;
// prettier-ignore
const cases: [string, { given: { errors: unknown[]; options?: ExponentialOptions; execute?: ExecuteOptions }; want: { attempts: number; ok: boolean } }][] = [
  ['a deadlock is rerun until it succeeds', { given: { errors: [deadlock(), deadlock()] }, want: { attempts: 3, ok: true } }],
  ['after maxRetries the last error is thrown', { given: { errors: Array.from({ length: 5 }, deadlock), options: { maxRetries: 2 } }, want: { attempts: 3, ok: false } }],
  ['an unknown error is thrown at once', { given: { errors: [new Error('bug')] }, want: { attempts: 1, ok: false } }],
  ['a statement timeout is not retried', { given: { errors: [statementTimeout()] }, want: { attempts: 1, ok: false } }],
  ['handle() opts a statement timeout in', { given: { errors: [statementTimeout()], options: { handle: (_e, c) => c?.kind === 'statementTimeout' } }, want: { attempts: 2, ok: true } }],
  ['handle() opts an unknown error in', { given: { errors: [new Error('flaky')], options: { handle: always }, execute: { isSafeToRetry: always } }, want: { attempts: 2, ok: true } }],
  ['a refused connection is retried (nothing was sent)', { given: { errors: [refused()] }, want: { attempts: 2, ok: true } }],
  ['a reset connection is not retried by default (it may have applied)', { given: { errors: [reset()] }, want: { attempts: 1, ok: false } }],
  ['a reset connection is retried when the caller says it is safe (a read)', { given: { errors: [reset()], execute: { isSafeToRetry: always } }, want: { attempts: 2, ok: true } }],
  ['the caller can refuse even a deadlock', { given: { errors: [deadlock()], execute: { isSafeToRetry: () => false } }, want: { attempts: 1, ok: false } }],
];

describe('exponential', () => {
  it.each(cases)('%s', async (_name, { given, want }) => {
    const fn = work(given.errors);
    const outcome = policy(given.options).execute(fn, given.execute);
    await (want.ok
      ? expect(outcome).resolves.toBe('ok')
      : expect(outcome).rejects.toBe(given.errors[want.attempts - 1]));
    expect(fn).toHaveBeenCalledTimes(want.attempts);
  });

  const steps = [0, 1, 2, 3].map((n) =>
    Math.min(defaults.dbRetryBaseDelayMs * 2 ** n, defaults.dbRetryMaxDelayMs),
  );
  // prettier-ignore
  const delays: [string, { given: ExponentialOptions; want: number[] }][] = [
    ['the shortest waits are 50 % of each step', { given: { delayMs: 50, random: () => 0 }, want: [25, 50, 100, 200] }],
    ['the longest waits are 100 % of each step', { given: { delayMs: 50, random: () => 1 }, want: [50, 100, 200, 400] }],
    ['steps stop at maxDelayMs', { given: { delayMs: 1_000, maxDelayMs: 3_000, random: () => 0.5 }, want: [750, 1_500, 2_250, 2_250] }],
    ['the defaults come from config.ts', { given: { maxRetries: undefined, random: () => 1 }, want: steps }],
  ];
  it.each(delays)('%s', async (_name, { given, want }) => {
    const onRetry = vi.fn();
    const errors = Array.from({ length: 10 }, deadlock);
    await expect(policy({ maxRetries: 4, ...given, onRetry }).execute(work(errors), {})).rejects.toBe(
      errors[4],
    );
    expect(onRetry.mock.calls.map(([, , delayMs]) => delayMs)).toEqual(want);
    expect(policy(given).maxRetries).toBe(given.maxRetries ?? defaults.dbMaxRetries);
  });

  it('reports each retry to onRetry with the error, its number and the classification', async () => {
    const onRetry = vi.fn();
    const errors = [deadlock(), refused()];
    await policy({ delayMs: 50, onRetry }).execute(work(errors));
    expect(onRetry.mock.calls).toEqual([
      [errors[0], 1, 25, { kind: 'deadlock', code: '40P01', confirmedNotApplied: true, retryable: true }],
      [
        errors[1],
        2,
        50,
        { kind: 'connection', code: 'ECONNREFUSED', confirmedNotApplied: true, retryable: true },
      ],
    ]);
  });

  it('stops retrying when the budget is spent, and refills it on success', async () => {
    const budget = retryBudget({ capacity: 1, perSecond: 0, perSuccess: 1 });
    await expect(policy({ budget }).execute(work([deadlock(), deadlock()]))).rejects.toThrow('40P01');
    expect(budget.state()).toMatchObject({ tokens: 0, spent: 1, refused: 1 });
    await expect(policy({ budget }).execute(work([]))).resolves.toBe('ok');
    expect(budget.state().tokens).toBe(1);
  });

  it('ends a wait as soon as the signal fires, with its reason', async () => {
    const controller = new AbortController();
    const deadline = new Error('deadline');
    setTimeout(() => controller.abort(deadline), 20);
    const started = Date.now();
    const slow = exponential({ budget: retryBudget(), delayMs: 10_000, maxDelayMs: 10_000 });
    await expect(slow.execute(work([deadlock()]), { signal: controller.signal })).rejects.toBe(deadline);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('starts no attempt after the signal fired', async () => {
    const fn = work([]);
    const signal = AbortSignal.abort(new Error('deadline'));
    await expect(policy().execute(fn, { signal })).rejects.toThrow('deadline');
    await expect(none().execute(fn, { signal })).rejects.toThrow('deadline');
    expect(fn).not.toHaveBeenCalled();
  });
});

describe('none and policyFor', () => {
  it('none() runs once and throws what it got', async () => {
    const fn = work([deadlock()]);
    await expect(none().execute(fn)).rejects.toThrow('40P01');
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['pglite', { given: 'pglite' as const, want: 0 }],
    ['postgres', { given: 'postgres' as const, want: defaults.dbMaxRetries }],
  ])('policyFor(%s)', (_name, { given, want }) => {
    expect(policyFor(given).maxRetries).toBe(want);
  });
});

describe('abortableSleep', () => {
  it('waits about the time asked', async () => {
    const started = Date.now();
    await abortableSleep(30);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('rejects at once when the signal already fired', async () => {
    await expect(abortableSleep(10_000, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
  });
});
