/**
 * The connection source's cache: concurrent first lookups share one retrieval, a hit makes
 * no request, invalidate makes the next get() retrieve again (its reason logged without
 * secrets), a failure is not cached, and a stale retrieval that fails evicts no newer value.
 */
import { describe, expect, it } from 'vitest';
import { createConnectionSource } from './connectionSource.ts';
import { CONNECTION_STRING, captureLog, ok, optionsFor, startService, status } from '../../../test/support/scriptedConnectionService.ts';

describe('connection source cache', () => {
  it('concurrent first lookups share one retrieval', async () => {
    const service = await startService([{ status: 200, body: CONNECTION_STRING, delayMs: 50 }]);
    const source = createConnectionSource(optionsFor(service.url, captureLog().logger));
    const values = await Promise.all(Array.from({ length: 5 }, () => source.get()));
    expect(values).toEqual(Array(5).fill(CONNECTION_STRING));
    expect(service.requests).toHaveLength(1);
  });

  it('a cache hit makes no request', async () => {
    const service = await startService([ok(CONNECTION_STRING)]);
    const source = createConnectionSource(optionsFor(service.url, captureLog().logger));
    await source.get();
    await expect(source.get()).resolves.toBe(CONNECTION_STRING);
    expect(service.requests).toHaveLength(1);
  });

  it('invalidate makes the next get() retrieve again, and logs the reason without secrets', async () => {
    const service = await startService([ok('postgres://old-SECRET'), ok('postgres://new-SECRET')]);
    const log = captureLog();
    const source = createConnectionSource(optionsFor(service.url, log.logger));
    await expect(source.get()).resolves.toBe('postgres://old-SECRET');
    source.invalidate('rotated by operator');
    await expect(source.get()).resolves.toBe('postgres://new-SECRET');
    expect(service.requests).toHaveLength(2);
    expect(log.entries()).toContainEqual(expect.objectContaining({ reason: 'rotated by operator' }));
    expect(log.lines.join('\n')).not.toContain('SECRET');
  });

  it('a failed retrieval is not cached', async () => {
    const service = await startService([status(500), ok(CONNECTION_STRING)]);
    const source = createConnectionSource(optionsFor(service.url, captureLog().logger));
    await expect(source.get()).rejects.toMatchObject({ kind: 'failed' });
    await expect(source.get()).resolves.toBe(CONNECTION_STRING);
    expect(service.requests).toHaveLength(2);
  });

  it('an invalidated in-flight retrieval that fails does not evict the newer value', async () => {
    const service = await startService([{ status: 500, delayMs: 100 }, ok(CONNECTION_STRING)]);
    const source = createConnectionSource(optionsFor(service.url, captureLog().logger));
    const stale = source.get();
    await new Promise((resolve) => setTimeout(resolve, 20)); // let the first request reach the service
    source.invalidate('test');
    await expect(source.get()).resolves.toBe(CONNECTION_STRING);
    await expect(stale).rejects.toMatchObject({ kind: 'failed' });
    await expect(source.get()).resolves.toBe(CONNECTION_STRING);
    expect(service.requests).toHaveLength(2);
  });
});
