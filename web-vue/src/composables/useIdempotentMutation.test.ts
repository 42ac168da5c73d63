import { describe, expect, it } from 'vitest';
import { effectScope } from 'vue';
import type { ApiProblem } from '../api/apiProblem.ts';
import type { Result } from '../api/result.ts';
import { useIdempotentMutation, type SendPhase } from './useIdempotentMutation.ts';

interface Payload {
  amountMinor: number;
}

/** A mutation whose send answers from a script and records every key it was given. */
function scripted(answers: Array<Result<{ id: string }>>) {
  const sentKeys: string[] = [];
  const sentPayloads: Payload[] = [];
  let counter = 0;
  const scope = effectScope();
  const mutation = scope.run(() =>
    useIdempotentMutation<Payload, { id: string }>(
      async (payload, key) => {
        sentKeys.push(key);
        sentPayloads.push(payload);
        return answers.shift() ?? { data: { id: 'tx' } };
      },
      { newKey: () => `key-${++counter}`, now: () => 1_000 },
    ),
  )!;
  return { mutation, sentKeys, sentPayloads };
}

const fail = (problem: ApiProblem): Result<{ id: string }> => ({ error: problem });

describe('what an answer does to the key', () => {
  const cases: Array<[string, { problem: ApiProblem; phase: SendPhase; keyKept: boolean; lostKey: string | null }]> = [
    ['503 applied: false keeps it', { problem: { code: 'SERVICE_UNAVAILABLE', status: 503, applied: false }, phase: 'unsettled', keyKept: true, lostKey: null }],
    ['503 with applied unknown keeps it', { problem: { code: 'SERVICE_UNAVAILABLE', status: 503 }, phase: 'unsettled', keyKept: true, lostKey: null }],
    ['a proxy HTTP_503 keeps it', { problem: { code: 'HTTP_503', status: 503 }, phase: 'unsettled', keyKept: true, lostKey: null }],
    ['the 65 s abort keeps it', { problem: { code: 'TIMED_OUT', status: null }, phase: 'unsettled', keyKept: true, lostKey: null }],
    ['another tab sending the key keeps it (nothing left this one)', { problem: { code: 'SENDING_ELSEWHERE', status: null }, phase: 'unsettled', keyKept: true, lostKey: null }],
    ['a 500 keeps it', { problem: { code: 'INTERNAL', status: 500 }, phase: 'unsettled', keyKept: true, lostKey: null }],
    ['an empty 502 keeps it', { problem: { code: 'HTTP_502', status: 502 }, phase: 'unsettled', keyKept: true, lostKey: null }],
    ['409 IN_FLIGHT keeps it', { problem: { code: 'IDEMPOTENCY_IN_FLIGHT', status: 409 }, phase: 'unsettled', keyKept: true, lostKey: null }],
    ['a rejection with no status drops it and requires a check', { problem: { code: 'CONNECTION_FAILED', status: null }, phase: 'verifyRequired', keyKept: false, lostKey: 'key-1' }],
    ['an unreadable success drops it and requires a check', { problem: { code: 'UNREADABLE_RESPONSE', status: null }, phase: 'verifyRequired', keyKept: false, lostKey: 'key-1' }],
    ['a 409 with no code drops it and requires a check', { problem: { code: 'HTTP_409', status: 409 }, phase: 'verifyRequired', keyKept: false, lostKey: 'key-1' }],
    ['422 KEY_REUSED drops it and requires a check', { problem: { code: 'IDEMPOTENCY_KEY_REUSED', status: 422 }, phase: 'verifyRequired', keyKept: false, lostKey: 'key-1' }],
    ['409 RESULT_UNKNOWN applied: true went through', { problem: { code: 'IDEMPOTENCY_RESULT_UNKNOWN', status: 409, applied: true }, phase: 'wentThrough', keyKept: false, lostKey: null }],
    ['a known refusal releases it', { problem: { code: 'INSUFFICIENT_FUNDS', status: 422 }, phase: 'rejected', keyKept: false, lostKey: null }],
  ];
  it.each(cases)('%s', async (_name, { problem, phase, keyKept, lostKey }) => {
    const { mutation } = scripted([fail(problem)]);
    await mutation.submit({ amountMinor: 100 });
    expect(mutation.phase.value).toBe(phase);
    expect(mutation.key.value).toBe(keyKept ? 'key-1' : null);
    expect(mutation.lostKey.value).toBe(lostKey);
  });
});

describe('the key rules', () => {
  it('a held key is re-sent with the same payload until the answer is known', async () => {
    const { mutation, sentKeys, sentPayloads } = scripted([fail({ code: 'SERVICE_UNAVAILABLE', status: 503 }), fail({ code: 'TIMED_OUT', status: null })]);
    await mutation.submit({ amountMinor: 100 });
    expect(mutation.resendsSameKey.value).toBe(true);
    await mutation.resend();
    await mutation.submit({ amountMinor: 100 });
    expect(sentKeys).toEqual(['key-1', 'key-1', 'key-1']);
    expect(sentPayloads.every((payload) => payload.amountMinor === 100)).toBe(true);
    expect(mutation.phase.value).toBe('succeeded');
    expect(mutation.key.value).toBeNull();
  });

  it('the next send after a success gets a new key', async () => {
    const { mutation, sentKeys } = scripted([]);
    await mutation.submit({ amountMinor: 100 });
    await mutation.submit({ amountMinor: 200 });
    expect(sentKeys).toEqual(['key-1', 'key-2']);
  });

  it('an edit while a key is held drops it and requires a check first', async () => {
    const { mutation, sentKeys } = scripted([fail({ code: 'SERVICE_UNAVAILABLE', status: 503 })]);
    await mutation.submit({ amountMinor: 100 });
    mutation.edited();
    expect(mutation.phase.value).toBe('verifyRequired');
    expect(mutation.key.value).toBeNull();
    expect(mutation.lostKey.value).toBe('key-1');
    expect(mutation.lostKeySentAt.value).toBe(1_000);
    expect(mutation.problem.value).toBeNull(); // the page words the edit, not the old answer
    expect(await mutation.submit({ amountMinor: 150 })).toBeNull();
    expect(sentKeys).toEqual(['key-1']);
  });

  it('other details under a held key count as an edit', async () => {
    const { mutation, sentKeys } = scripted([fail({ code: 'SERVICE_UNAVAILABLE', status: 503 })]);
    await mutation.submit({ amountMinor: 100 });
    expect(await mutation.submit({ amountMinor: 999 })).toBeNull();
    expect(mutation.phase.value).toBe('verifyRequired');
    expect(sentKeys).toEqual(['key-1']);
  });

  it('an edit with no key held changes nothing', async () => {
    const { mutation } = scripted([fail({ code: 'INSUFFICIENT_FUNDS', status: 422 })]);
    await mutation.submit({ amountMinor: 100 });
    mutation.edited();
    expect(mutation.phase.value).toBe('rejected');
  });

  it('a check that finds nothing lets a new key go', async () => {
    const { mutation, sentKeys } = scripted([fail({ code: 'CONNECTION_FAILED', status: null })]);
    await mutation.submit({ amountMinor: 100 });
    mutation.checked(false);
    expect(mutation.phase.value).toBe('idle');
    await mutation.submit({ amountMinor: 100 });
    expect(sentKeys).toEqual(['key-1', 'key-2']);
  });

  it('a check that finds it offers no send', async () => {
    const { mutation, sentKeys } = scripted([fail({ code: 'HTTP_409', status: 409 })]);
    await mutation.submit({ amountMinor: 100 });
    mutation.checked(true);
    expect(mutation.phase.value).toBe('confirmed');
    expect(mutation.canSend.value).toBe(false);
    expect(await mutation.submit({ amountMinor: 100 })).toBeNull();
    expect(sentKeys).toEqual(['key-1']);
  });

  it('went through (applied: true) offers no send', async () => {
    const { mutation, sentKeys } = scripted([fail({ code: 'IDEMPOTENCY_RESULT_UNKNOWN', status: 409, applied: true })]);
    await mutation.submit({ amountMinor: 100 });
    expect(mutation.canSend.value).toBe(false);
    expect(await mutation.submit({ amountMinor: 100 })).toBeNull();
    expect(sentKeys).toEqual(['key-1']);
  });

  it('holds the key while pending and refuses a second send', async () => {
    let answer: (result: Result<{ id: string }>) => void = () => undefined;
    const scope = effectScope();
    const sentKeys: string[] = [];
    const mutation = scope.run(() =>
      useIdempotentMutation<Payload, { id: string }>((_payload, key) => {
        sentKeys.push(key);
        return new Promise((resolve) => (answer = resolve));
      }, { newKey: () => 'key-1' }),
    )!;
    const first = mutation.submit({ amountMinor: 100 });
    expect(mutation.pending.value).toBe(true);
    expect(mutation.holdsKey.value).toBe(true);
    expect(mutation.resendsSameKey.value).toBe(false); // never during a wait
    expect(await mutation.submit({ amountMinor: 100 })).toBeNull();
    mutation.edited(); // inputs are read-only while pending; an edit then is ignored
    expect(mutation.key.value).toBe('key-1');
    answer({ data: { id: 'tx' } });
    await first;
    expect(sentKeys).toEqual(['key-1']);
  });
});
