/**
 * The connection source's options: each invalid one is refused as a `config` error before
 * any request is made, and `worstCaseMs` adds up every attempt's timeout and every backoff.
 */
import { describe, expect, it } from 'vitest';
import { createConnectionSource, validateConnectionSourceOptions, worstCaseMs, type ConnectionSourceOptions } from './connectionSource.ts';
import { ConnectionSourceError } from './connectionSourceErrors.ts';
import { CONNECTION_STRING, captureLog, ok, optionsFor, startService } from '../../../test/support/scriptedConnectionService.ts';

describe('connection source configuration', () => {
  const configCases: Array<[string, { given: Partial<ConnectionSourceOptions>; want: RegExp }]> = [
    [
      'backoff shorter than attempts - 1',
      {
        given: { attempts: 4, backoffMs: [20, 30] },
        want: /4 attempts .*at least 3 backoff delays, but .* has 2/,
      },
    ],
    [
      'no backoff for 2 attempts',
      { given: { attempts: 2, backoffMs: [] }, want: /2 attempts .*at least 1 .* has 0/ },
    ],
    ['zero attempts', { given: { attempts: 0 }, want: /attempts .* integer >= 1, got 0/ }],
    ['fractional attempts', { given: { attempts: 2.5 }, want: /integer >= 1, got 2.5/ }],
    ['negative delay', { given: { backoffMs: [20, -1, 50] }, want: /delays must be >= 0/ }],
    ['NaN delay', { given: { backoffMs: [20, NaN, 50] }, want: /delays must be >= 0/ }],
    ['zero attempt timeout', { given: { attemptTimeoutMs: 0 }, want: /attemptTimeoutMs must be > 0/ }],
    ['empty connection name', { given: { connectionName: ' ' }, want: /DB_CONNECTION_NAME/ }],
    ['URL that is not one', { given: { apiUrl: 'secrets.internal' }, want: /DB_CONNECTION_API_URL/ }],
    [
      'URL with user:password',
      { given: { apiUrl: 'http://u:p@127.0.0.1:1' }, want: /without user:password/ },
    ],
    ['non-http URL', { given: { apiUrl: 'ftp://127.0.0.1' }, want: /http\(s\)/ }],
  ];

  it.each(configCases)('%s is refused before any request', async (_name, { given, want }) => {
    const service = await startService([ok(CONNECTION_STRING)]);
    const options = optionsFor(service.url, captureLog().logger, given);
    expect(() => validateConnectionSourceOptions(options)).toThrow(want);
    let thrown: unknown;
    try {
      createConnectionSource(options);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConnectionSourceError);
    expect(thrown).toMatchObject({ kind: 'config' });
    expect(service.requests).toHaveLength(0);
  });

  it.each([
    [{ attempts: 4, backoffMs: [2000, 3000, 5000], attemptTimeoutMs: 5000 }, 30_000],
    [{ attempts: 1, backoffMs: [], attemptTimeoutMs: 5000 }, 5_000],
    [{ attempts: 2, backoffMs: [100, 999], attemptTimeoutMs: 50 }, 200],
  ])('worstCaseMs(%j) = %d', (options, want) => {
    expect(worstCaseMs(options)).toBe(want);
  });
});
