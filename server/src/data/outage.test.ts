/** Which cause a 503 is counted under (`tidewater_unavailable_total{cause}`, adr/0017). */
import { describe, expect, it } from 'vitest';
import { DeadlineExceeded } from '../request/deadlineExceeded.ts';
import { CommitOutcomeUnknown } from './commitGate/index.ts';
import { outageOf, unavailableCauseOf } from './outage.ts';

const pgError = (code: string) => Object.assign(new Error(`sqlstate ${code}`), { code });

describe('the cause of a 503', () => {
  it('is the deadline first, whatever the request noted', () => {
    expect(unavailableCauseOf(new DeadlineExceeded(2_500), 'retries_spent')).toBe('deadline');
  });

  it('is what the request noted (spent retries, a spent budget, a busy account) before the error', () => {
    expect(unavailableCauseOf(pgError('40001'), 'retry_budget_spent')).toBe('retry_budget_spent');
    expect(unavailableCauseOf(new Error('a problem'), 'busy_account')).toBe('busy_account');
  });

  it('is read from the error otherwise', () => {
    expect(unavailableCauseOf(new Error('timeout exceeded when trying to connect'))).toBe('pool_wait');
    expect(unavailableCauseOf(Object.assign(new Error('Transaction API error'), { code: 'P2028' }))).toBe('pool_wait');
    expect(unavailableCauseOf(new Error('Connection terminated due to connection timeout'))).toBe('connect_timeout');
    expect(unavailableCauseOf(pgError('40P01'))).toBe('transient_sqlstate');
    expect(unavailableCauseOf(pgError('57P03'))).toBe('transient_sqlstate');
    expect(unavailableCauseOf(pgError('53100'))).toBe('insufficient_resources');
    expect(unavailableCauseOf(pgError('53200'))).toBe('insufficient_resources');
    expect(unavailableCauseOf(pgError('53300'))).toBe('insufficient_resources');
    expect(unavailableCauseOf(Object.assign(new Error('refused'), { code: 'ECONNREFUSED', syscall: 'connect' }))).toBe('connection');
    expect(unavailableCauseOf(Object.assign(new Error('gate closed'), { code: 'DATABASE_UNAVAILABLE' }))).toBe('database_unavailable');
    expect(unavailableCauseOf(new CommitOutcomeUnknown(500))).toBe('commit_outcome_unknown');
    expect(unavailableCauseOf(new Error('something else'))).toBe('other');
  });

  it('is a full disk or exhausted memory (SQLSTATE class 53): an outage, never a 500', () => {
    expect(outageOf(pgError('53100'))).toBe('insufficientResources');
    expect(outageOf(pgError('53200'))).toBe('insufficientResources');
    expect(outageOf(pgError('53300'))).toBe('tooManyConnections');
  });
});
