/**
 * A connect that meets a rotated password (28P01, on the error or in its causes) invalidates
 * the connection string once and reconnects with the fresh one; a second 28P01 fails after
 * two retrievals; any other connect error is thrown without invalidating. Only 28P01, found
 * on an error or in its causes, is a password authentication failure.
 */
import { describe, expect, it } from 'vitest';
import { createConnectionSource, isPasswordAuthenticationFailure, withPasswordRotation } from './connectionSource.ts';
import { CONNECTION_STRING, captureLog, ok, optionsFor, startService } from '../../../test/support/scriptedConnectionService.ts';

describe('withPasswordRotation', () => {
  const passwordFailed = () =>
    Object.assign(new Error('password authentication failed for user "app"'), { code: '28P01' });

  it.each([
    ['code on the error', passwordFailed()],
    ['code nested in cause', new Error('connect failed', { cause: passwordFailed() })],
  ])('28P01 once (%s): invalidates once and reconnects with the fresh string', async (_name, failure) => {
    const service = await startService([ok('postgres://old'), ok('postgres://new')]);
    const log = captureLog();
    const source = createConnectionSource(optionsFor(service.url, log.logger));
    const connected: string[] = [];
    const connect = async (url: string) => {
      connected.push(url);
      if (connected.length === 1) throw failure;
      return `client for ${url}`;
    };
    await expect(withPasswordRotation(source, connect)).resolves.toBe('client for postgres://new');
    expect(connected).toEqual(['postgres://old', 'postgres://new']);
    expect(service.requests).toHaveLength(2);
    expect(log.entries().filter((entry) => entry.msg === 'connection string invalidated')).toHaveLength(1);
  });

  it('28P01 twice: fails with the second error after exactly 2 retrievals', async () => {
    const service = await startService([ok('postgres://old'), ok('postgres://new'), ok('postgres://newer')]);
    const source = createConnectionSource(optionsFor(service.url, captureLog().logger));
    let calls = 0;
    const connect = async (): Promise<never> => {
      calls += 1;
      throw Object.assign(passwordFailed(), { attempt: calls });
    };
    await expect(withPasswordRotation(source, connect)).rejects.toMatchObject({ code: '28P01', attempt: 2 });
    expect(calls).toBe(2);
    expect(service.requests).toHaveLength(2);
  });

  it('other connect errors are thrown without invalidating', async () => {
    const service = await startService([ok(CONNECTION_STRING)]);
    const source = createConnectionSource(optionsFor(service.url, captureLog().logger));
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    await expect(withPasswordRotation(source, async () => Promise.reject(refused))).rejects.toBe(refused);
    expect(service.requests).toHaveLength(1);
  });

  it.each([
    [{ code: '28P01' }, true],
    [{ cause: { cause: { code: '28P01' } } }, true],
    [{ code: '28000' }, false],
    [null, false],
    ['28P01', false],
  ])('isPasswordAuthenticationFailure(%j) = %s', (error, want) => {
    expect(isPasswordAuthenticationFailure(error)).toBe(want);
  });
});
