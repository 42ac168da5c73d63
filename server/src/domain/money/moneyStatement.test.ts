import { describe, expect, it } from 'vitest';
import { isApiProblem } from '../../errors/apiProblem.ts';
import { isClaimTakenOver } from '../idempotency/idempotency.ts';
import { answerOf, isKeyAnswer, verdictOf, type VerdictRow } from './moneyStatement.ts';

const row = (verdict: string, body: unknown = null, detail: unknown = null): VerdictRow => ({ verdict, body, detail });

/** What `answerOf` did: the body it answered, or what it threw. */
function answered(done: ReturnType<typeof verdictOf>): unknown {
  try {
    return { body: answerOf(done, 'k1') };
  } catch (error) {
    if (isApiProblem(error)) return { problem: error.code, detail: error.detail };
    if (isClaimTakenOver(error)) return { claimLost: error.key };
    return { bug: (error as Error).message };
  }
}

describe('a money statement verdict', () => {
  it.each([
    ['applied, jsonb as text', row('applied', '{"id":"t1"}'), { body: { id: 't1' } }],
    ['applied, jsonb parsed', row('applied', { id: 't1' }), { body: { id: 't1' } }],
    ['a lost claim', row('claim_lost'), { claimLost: 'k1' }],
    ['a refusal, worded by the API', row('INSUFFICIENT_FUNDS'), { problem: 'INSUFFICIENT_FUNDS', detail: 'The account does not hold enough money for this.' }],
    ['a refusal with its numbers', row('DAILY_LIMIT_EXCEEDED', null, '{"limitMinor":10000,"leftMinor":600}'),
      { problem: 'DAILY_LIMIT_EXCEEDED', detail: 'Money leaving your accounts is limited to 100.00 EUR a day; 6.00 EUR are left today.' }],
    ["a key's answer is its caller's to read", row('in_flight'), { bug: "a money statement's in_flight reached the answer of a send" }],
  ])('%s', (_name, given, want) => {
    expect(answered(verdictOf(given))).toEqual(want);
  });

  it("reads a key's replay with its stored status and body", () => {
    const done = verdictOf(row('replay', '{"id":"t1"}', '{"status":201}'));
    expect(isKeyAnswer(done)).toBe(true);
    expect(done).toEqual({ verdict: 'replay', body: { id: 't1' }, detail: { status: 201 } });
  });

  it.each([
    ['no row', undefined, 'a money statement answered no row'],
    ['an unknown verdict', row('MOVED_TWICE'), 'a money statement answered an unknown verdict: MOVED_TWICE'],
    ['a code of the catalog no statement reports', row('INTERNAL'), 'a money statement answered an unknown verdict: INTERNAL'],
    ['applied without its answer', row('applied'), 'a money statement applied a send without its answer'],
  ])('throws a bug for %s', (_name, given, message) => {
    expect(() => verdictOf(given)).toThrow(message);
  });
});
