import { describe, expect, it } from 'vitest';
import type { ApiProblem } from './api/apiProblem.ts';
import { OUTAGE, STOPPED, openMessages, problemMessage, sendMessages, type ProblemContext, type SendKind } from './messages.ts';

const outage: ApiProblem = { code: 'SERVICE_UNAVAILABLE', status: 503, retryAfterSeconds: 10 };

describe('problemMessage', () => {
  const cases: Array<[string, { problem: ApiProblem; context: ProblemContext; want: string | RegExp }]> = [
    ['an outage on a read', { problem: outage, context: 'read', want: OUTAGE }],
    ['a proxy 503 on a read reads the same', { problem: { code: 'HTTP_503', status: 503 }, context: 'read', want: OUTAGE }],
    ['the 65 s abort reads the same', { problem: { code: 'TIMED_OUT', status: null }, context: 'read', want: OUTAGE }],
    ['an outage at sign-in', { problem: outage, context: 'auth', want: OUTAGE }],
    ['applied: false on a send: nothing was changed', { problem: { ...outage, applied: false }, context: 'moneySend', want: sendMessages.nothingChanged }],
    ['a send that may have landed', { problem: outage, context: 'moneySend', want: sendMessages.mayHaveLanded }],
    ['the BFF 503 on a send (no applied) may have landed', { problem: { code: 'SERVICE_UNAVAILABLE', status: 503 }, context: 'moneySend', want: /can't tell yet whether it went through/ }],
    ['the 65 s abort on a send may have landed', { problem: { code: 'TIMED_OUT', status: null }, context: 'moneySend', want: sendMessages.mayHaveLanded }],
    ['an outage at the PIN step: no money was moved', { problem: outage, context: 'pinCheck', want: /and no money was moved\.$/ }],
    ['a keyless change may have been saved', { problem: outage, context: 'change', want: /can't tell yet whether your change was saved/ }],
    ['went through, receipt lost, unnamed', { problem: { code: 'IDEMPOTENCY_RESULT_UNKNOWN', status: 409, applied: true }, context: 'moneySend', want: sendMessages.wentThroughUnnamed }],
    ['opening: applied: false, nothing opened', { problem: { ...outage, applied: false }, context: 'openAccount', want: openMessages.notOpened }],
    ['opening: an outage may have opened it', { problem: outage, context: 'openAccount', want: openMessages.mayHaveOpened }],
    ['opening: the 65 s abort may have opened it', { problem: { code: 'TIMED_OUT', status: null }, context: 'openAccount', want: openMessages.mayHaveOpened }],
    ['opening: a lost connection may have opened it', { problem: { code: 'CONNECTION_FAILED', status: null }, context: 'openAccount', want: openMessages.lostMayHaveOpened }],
    ['opening: in flight', { problem: { code: 'IDEMPOTENCY_IN_FLIGHT', status: 409 }, context: 'openAccount', want: openMessages.inFlight }],
    ['opening: went through', { problem: { code: 'IDEMPOTENCY_RESULT_UNKNOWN', status: 409, applied: true }, context: 'openAccount', want: openMessages.wentThrough }],
    ['opening: a refusal', { problem: { code: 'VALIDATION_FAILED', status: 400 }, context: 'openAccount', want: /aren't valid/ }],
    ['a stop is the visitor\'s own', { problem: { code: 'STOPPED', status: null }, context: 'read', want: STOPPED }],
    ['a lost connection on a send asks for a check', { problem: { code: 'CONNECTION_FAILED', status: null }, context: 'moneySend', want: sendMessages.lostMayHaveLanded }],
    ['a lost connection on a read', { problem: { code: 'CONNECTION_FAILED', status: null }, context: 'read', want: /Check your connection/ }],
    ['a 409 with no code on a send asks for a check', { problem: { code: 'HTTP_409', status: 409 }, context: 'moneySend', want: sendMessages.checkFirst }],
    ['in flight', { problem: { code: 'IDEMPOTENCY_IN_FLIGHT', status: 409 }, context: 'moneySend', want: sendMessages.inFlight }],
    ['insufficient funds', { problem: { code: 'INSUFFICIENT_FUNDS', status: 422 }, context: 'moneySend', want: /isn't enough money/ }],
    ['a 500 on a send may have landed', { problem: { code: 'INTERNAL', status: 500 }, context: 'moneySend', want: sendMessages.failedMayHaveLanded }],
    ['a 500 on a read', { problem: { code: 'INTERNAL', status: 500 }, context: 'read', want: /Something went wrong on our side/ }],
    ['wrong credentials', { problem: { code: 'INVALID_CREDENTIALS', status: 401 }, context: 'auth', want: /don't match/ }],
  ];
  it.each(cases)('%s', (_name, { problem, context, want }) => {
    const said = problemMessage(problem, context);
    if (typeof want === 'string') expect(said).toBe(want);
    else expect(said).toMatch(want);
  });

  const named: Array<[SendKind, string]> = [
    ['deposit', "Your deposit went through, but we couldn't show its receipt."],
    ['withdrawal', "Your withdrawal went through, but we couldn't show its receipt."],
    ['transfer', "Your transfer went through, but we couldn't show its receipt."],
  ];
  it.each(named)('went through, receipt lost: the %s names itself', (kind, want) => {
    expect(problemMessage({ code: 'IDEMPOTENCY_RESULT_UNKNOWN', status: 409, applied: true }, 'moneySend', kind)).toBe(want);
    expect(sendMessages.wentThrough[kind]).toBe(want);
  });

  it('never promises a time or repeats a server sentence', () => {
    const said = problemMessage({ ...outage, title: 'Back shortly', detail: 'The database is down; try in 10 s' }, 'read');
    expect(said).toBe(OUTAGE);
    expect(said).not.toMatch(/shortly|\d+ ?s\b/);
  });

  it('never says "Retrying won\'t charge you twice." in a problem sentence (only beside a same-key control)', () => {
    const problems: ApiProblem[] = [outage, { ...outage, applied: false }, { code: 'TIMED_OUT', status: null }, { code: 'CONNECTION_FAILED', status: null }];
    for (const problem of problems) {
      for (const context of ['read', 'change', 'moneySend', 'openAccount', 'pinCheck', 'auth'] as const) {
        expect(problemMessage(problem, context)).not.toContain(sendMessages.sameKeyIsSafe);
      }
    }
  });
});
