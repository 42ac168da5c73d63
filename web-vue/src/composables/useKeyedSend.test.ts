import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { effectScope, reactive } from 'vue';
import type { ApiProblem } from '../api/apiProblem.ts';
import type { Result } from '../api/result.ts';
import { sendMessages } from '../messages.ts';
import { useHeldSendsStore } from '../stores/heldSends.ts';
import { usePageAlertStore } from '../stores/pageAlert.ts';
import { useSessionStore } from '../stores/session.ts';
import { judgeOpenProblem } from './sendOutcome.ts';
import { useKeyedSend } from './useKeyedSend.ts';

interface Payload {
  amountMinor: number;
}

beforeEach(() => {
  setActivePinia(createPinia());
  useSessionStore().$patch({ status: 'signedIn' });
});

/** A page: mounts (a scope) a deposit send answering from `answers`, recording the keys sent. */
function depositPage(answers: Array<Result<{ id: string }>>, sentKeys: string[]) {
  let counter = sentKeys.length;
  const scope = effectScope();
  const send = scope.run(() =>
    useKeyedSend(
      async (_payload: Payload, key: string) => {
        sentKeys.push(key);
        return answers.shift() ?? { data: { id: 'tx' } };
      },
      { holdAs: 'deposit:a1', operation: 'deposit', accountOf: () => 'a1', context: 'moneySend', kind: 'deposit', keep: () => ({ form: reactive({ amount: '' }) }), newKey: () => `key-${++counter}` },
    ),
  )!;
  return { send, leave: () => scope.stop() };
}

const outage: ApiProblem = { code: 'SERVICE_UNAVAILABLE', status: 503, applied: false };

describe('a keyed send left by an in-app link', () => {
  it('keeps its key and form; coming back restores both, and Try again re-sends the same key', async () => {
    const keys: string[] = [];
    const first = depositPage([{ error: outage }], keys);
    first.send.kept.form.amount = '12.34';
    await first.send.submit({ amountMinor: 1234 });
    expect(first.send.phase.value).toBe('unsettled');
    first.leave();
    expect(useHeldSendsStore().count).toBe(1);
    expect(useHeldSendsStore().unknown).toBe(true);

    const back = depositPage([], keys);
    expect(back.send.restored).toBe(true);
    expect(back.send.kept.form.amount).toBe('12.34');
    expect(back.send.resendsSameKey.value).toBe(true);
    expect(usePageAlertStore().message).toBe(sendMessages.nothingChanged);
    await back.send.resend();
    expect(keys).toEqual(['key-1', 'key-1']);
    expect(back.send.phase.value).toBe('succeeded');
    back.leave();
    expect(useHeldSendsStore().count).toBe(0);
  });

  it('a send still pending when the visitor leaves answers into the kept state', async () => {
    let answer: (result: Result<{ id: string }>) => void = () => undefined;
    const scope = effectScope();
    const send = scope.run(() =>
      useKeyedSend((_payload: Payload) => new Promise<Result<{ id: string }>>((resolve) => (answer = resolve)), {
        holdAs: 'deposit:a1',
        operation: 'deposit',
        accountOf: () => 'a1',
        context: 'moneySend',
        kind: 'deposit',
        keep: () => ({}),
      }),
    )!;
    const sending = send.submit({ amountMinor: 500 });
    scope.stop();
    expect(useHeldSendsStore().unknown).toBe(true);
    answer({ data: { id: 'tx-9' } });
    await sending;
    expect(useHeldSendsStore().unknown).toBe(false); // no question before unloading any more
    const back = depositPage([], []);
    expect(back.send.phase.value).toBe('succeeded');
    expect(back.send.data.value).toEqual({ id: 'tx-9' });
  });

  it('a known answer is not kept', async () => {
    const page = depositPage([{ error: { code: 'INSUFFICIENT_FUNDS', status: 422 } }], []);
    await page.send.submit({ amountMinor: 100 });
    page.leave();
    expect(useHeldSendsStore().count).toBe(0);
    expect(depositPage([], []).send.restored).toBe(false);
  });

  it('the end of the session drops every held send', async () => {
    const page = depositPage([{ error: outage }], []);
    await page.send.submit({ amountMinor: 100 });
    page.leave();
    const held = useHeldSendsStore();
    expect(held.count).toBe(1);
    useSessionStore().$patch({ status: 'signedOut' });
    await Promise.resolve();
    expect(held.count).toBe(0);
  });
});

describe('judgeOpenProblem: opening an account keeps its key on every answer that is not known', () => {
  const cases: Array<[string, { problem: ApiProblem; want: ReturnType<typeof judgeOpenProblem> }]> = [
    ['503 applied: false', { problem: outage, want: 'unsettled' }],
    ['the BFF 503', { problem: { code: 'SERVICE_UNAVAILABLE', status: 503 }, want: 'unsettled' }],
    ['the 65 s abort', { problem: { code: 'TIMED_OUT', status: null }, want: 'unsettled' }],
    ['another tab sending the key', { problem: { code: 'SENDING_ELSEWHERE', status: null }, want: 'unsettled' }],
    ['a lost connection (no listing by key to check: the same key is the check)', { problem: { code: 'CONNECTION_FAILED', status: null }, want: 'unsettled' }],
    ['409 IN_FLIGHT', { problem: { code: 'IDEMPOTENCY_IN_FLIGHT', status: 409 }, want: 'unsettled' }],
    ['a 409 with no code', { problem: { code: 'HTTP_409', status: 409 }, want: 'unsettled' }],
    ['a 500', { problem: { code: 'INTERNAL', status: 500 }, want: 'unsettled' }],
    ['409 RESULT_UNKNOWN applied: true', { problem: { code: 'IDEMPOTENCY_RESULT_UNKNOWN', status: 409, applied: true }, want: 'wentThrough' }],
    ['a validation refusal', { problem: { code: 'VALIDATION_FAILED', status: 400 }, want: 'rejected' }],
  ];
  it.each(cases)('%s', (_name, { problem, want }) => {
    expect(judgeOpenProblem(problem)).toBe(want);
  });
});
