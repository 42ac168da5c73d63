/**
 * How the connection source retrieves a connection string from a real HTTP service, one
 * case a row: what each answer becomes (the value, or which error with which message),
 * which answers are retried and which fail fast, how many requests each costs, how long the
 * backoff waits, one warn line per failed attempt, and never a secret in a log line.
 */
import { describe, expect, it } from 'vitest';
import { createConnectionSource, worstCaseMs, type ConnectionSourceOptions } from './connectionSource.ts';
import { isConnectionSourceError, type ConnectionSourceErrorKind } from './connectionSourceErrors.ts';
import {
  BACKOFF_MS,
  CONNECTION_STRING,
  NAME,
  TOKEN,
  captureLog,
  ok,
  optionsFor,
  startService,
  status,
  type Reply,
} from '../../../test/support/scriptedConnectionService.ts';

/** The sum of BACKOFF_MS: what a source that uses every attempt waits at least. */
const BACKOFF_TOTAL_MS = 100;
/** Generous: CI machines stall; the point is that we did wait, and not wildly longer. */
const TIMING_MARGIN_MS = 2_000;

type Want =
  | { value: string; requests: number; minElapsedMs?: number }
  | { kind: ConnectionSourceErrorKind; message: RegExp; requests: number; minElapsedMs?: number };

const retrievalCases: Array<
  [string, { given: Reply[]; options?: Partial<ConnectionSourceOptions>; want: Want }]
> = [
  [
    '200 returns the body',
    { given: [ok(CONNECTION_STRING)], want: { value: CONNECTION_STRING, requests: 1 } },
  ],
  [
    '200 decodes every ZSPECIALCHAR to BEL',
    {
      given: [ok('postgres://app:aZSPECIALCHARb@db/bankZSPECIALCHAR')],
      want: { value: 'postgres://app:a\u0007b@db/bank\u0007', requests: 1 },
    },
  ],
  [
    'empty 200',
    { given: [ok('')], want: { kind: 'empty', message: /connection string is empty/, requests: 1 } },
  ],
  [
    'whitespace 200',
    { given: [ok(' \n\t ')], want: { kind: 'empty', message: /connection string is empty/, requests: 1 } },
  ],
  [
    '401 fails fast, credentials presented once',
    {
      given: [status(401, 'bad token')],
      want: { kind: 'denied', message: /^denied access to connection ledger-primary/, requests: 1 },
    },
  ],
  [
    '403 fails fast',
    {
      given: [status(403)],
      want: {
        kind: 'forbidden',
        message: /^access denied retrieving connection ledger-primary/,
        requests: 1,
      },
    },
  ],
  [
    '404 fails fast with the service message, trimmed',
    {
      given: [status(404, '  no connection "ledger-primary" in vault eu-1 \n')],
      want: {
        kind: 'notFound',
        message:
          /^connection ledger-primary not found\. Service message: no connection "ledger-primary" in vault eu-1$/,
        requests: 1,
      },
    },
  ],
  [
    '404 problem+json uses its detail',
    {
      given: [
        {
          status: 404,
          headers: { 'content-type': 'application/problem+json' },
          body: JSON.stringify({ title: 'Not Found', detail: 'unknown connection' }),
        },
      ],
      want: { kind: 'notFound', message: /Service message: unknown connection$/, requests: 1 },
    },
  ],
  [
    '500 fails at once with the service message',
    {
      given: [status(500, 'vault sealed')],
      want: { kind: 'failed', message: /failed with HTTP 500: vault sealed$/, requests: 1 },
    },
  ],
  [
    '500 without a body fails at once with a generic message',
    {
      given: [status(500)],
      want: {
        kind: 'failed',
        message: /^retrieving connection ledger-primary failed with HTTP 500$/,
        requests: 1,
      },
    },
  ],
  [
    '500 with a huge body keeps the message bounded',
    {
      given: [status(500, 'x'.repeat(100_000))],
      want: { kind: 'failed', message: /^[^]{0,400}$/, requests: 1 },
    },
  ],
  [
    '400 fails at once',
    {
      given: [status(400, 'bad name')],
      want: { kind: 'failed', message: /failed with HTTP 400: bad name$/, requests: 1 },
    },
  ],
  [
    'a redirect is not followed (credentials not re-presented)',
    {
      given: [{ status: 302, headers: { location: '/elsewhere' } }, ok(CONNECTION_STRING)],
      want: { kind: 'failed', message: /HTTP 302/, requests: 1 },
    },
  ],
  ...[502, 503, 504].map((code): [string, { given: Reply[]; want: Want }] => [
    `${code} ×3 then 200 succeeds after the full backoff`,
    {
      given: [status(code), status(code), status(code), ok(CONNECTION_STRING)],
      want: { value: CONNECTION_STRING, requests: 4, minElapsedMs: BACKOFF_TOTAL_MS },
    },
  ]),
  [
    '503 forever exhausts exactly `attempts` requests',
    {
      given: [status(503, 'maintenance')],
      want: {
        kind: 'exhausted',
        message: /failed after 4 attempts in \d+ ms \(last: HTTP 503\)/,
        requests: 4,
        minElapsedMs: BACKOFF_TOTAL_MS,
      },
    },
  ],
  [
    'socket reset forever is transient',
    {
      given: ['reset'],
      want: { kind: 'exhausted', message: /after 4 attempts/, requests: 4, minElapsedMs: BACKOFF_TOTAL_MS },
    },
  ],
  [
    'socket reset then 200 recovers',
    { given: ['reset', ok(CONNECTION_STRING)], want: { value: CONNECTION_STRING, requests: 2 } },
  ],
  [
    'a hang times out per attempt and is transient',
    {
      given: ['hang'],
      options: { attemptTimeoutMs: 100 },
      want: {
        kind: 'exhausted',
        message: /after 4 attempts .*TIMEOUT/,
        requests: 4,
        minElapsedMs: BACKOFF_TOTAL_MS + 4 * 100,
      },
    },
  ],
  [
    'a slow reply within the attempt timeout is fine',
    {
      given: [{ status: 200, body: CONNECTION_STRING, delayMs: 50 }],
      want: { value: CONNECTION_STRING, requests: 1 },
    },
  ],
  [
    'one attempt and no backoff is a valid configuration',
    {
      given: [status(503)],
      options: { attempts: 1, backoffMs: [] },
      want: { kind: 'exhausted', message: /after 1 attempt in/, requests: 1 },
    },
  ],
];

describe('connection source retrieval', () => {
  it.each(retrievalCases)('%s', async (_name, { given, options, want }) => {
    const service = await startService(given);
    const log = captureLog();
    const resolved = optionsFor(service.url, log.logger, options);
    const source = createConnectionSource(resolved);

    const started = performance.now();
    const result = await source.get().then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    const elapsedMs = performance.now() - started;

    if ('value' in want) {
      expect(result).toEqual({ value: want.value });
    } else {
      expect('error' in result).toBe(true);
      const error = (result as { error: unknown }).error;
      expect(isConnectionSourceError(error)).toBe(true);
      expect(error).toMatchObject({ kind: want.kind, attempts: want.requests });
      expect((error as Error).message).toMatch(want.message);
      if (want.kind === 'exhausted') expect((error as Error).cause).toBeDefined();
    }
    expect(service.requests).toHaveLength(want.requests);
    for (const request of service.requests) {
      expect(request.url).toBe(`/connections/${NAME}`);
      expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
    }
    if (want.minElapsedMs !== undefined) {
      expect(elapsedMs).toBeGreaterThanOrEqual(want.minElapsedMs - 5); // timer granularity
      expect(elapsedMs).toBeLessThan(worstCaseMs(resolved) + TIMING_MARGIN_MS);
    }

    // One warn line per failed attempt, with its number, the status or error code, and the wait.
    const warnings = log.warnings();
    const failedAttempts = 'value' in want ? want.requests - 1 : want.requests;
    expect(warnings).toHaveLength(failedAttempts);
    warnings.forEach((entry, index) => {
      expect(entry).toMatchObject({ connectionName: NAME, attempt: index + 1, attempts: resolved.attempts });
      expect(entry.status ?? entry.errorCode).toBeDefined();
      const isFinalFailure = !('value' in want) && index === warnings.length - 1;
      if (isFinalFailure) expect(entry.elapsedMs).toEqual(expect.any(Number));
      else expect(entry.delayMs).toBe(BACKOFF_MS[index]);
    });
    expect(log.lines.join('\n')).not.toContain('SECRET');
  });

  it('waits exactly backoffMs[attempt-1] between attempts and never after the last one', async () => {
    const service = await startService([status(503)]);
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    const source = createConnectionSource(
      optionsFor(service.url, captureLog().logger, { backoffMs: [7, 8, 9, 10], sleep }),
    );
    await expect(source.get()).rejects.toMatchObject({ kind: 'exhausted' });
    expect(waits).toEqual([7, 8, 9]);
  });

  it('does not sleep before failing fast', async () => {
    const service = await startService([status(401)]);
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    const source = createConnectionSource(optionsFor(service.url, captureLog().logger, { sleep }));
    await expect(source.get()).rejects.toMatchObject({ kind: 'denied' });
    expect(waits).toEqual([]);
  });

  it('encodes the name, tolerates a trailing slash and sends no Authorization without a token', async () => {
    const service = await startService([ok(CONNECTION_STRING)]);
    const source = createConnectionSource(
      optionsFor(`${service.url}/v1/`, captureLog().logger, {
        connectionName: 'eu/ledger primary',
        token: undefined,
      }),
    );
    await expect(source.get()).resolves.toBe(CONNECTION_STRING);
    expect(service.requests[0]?.url).toBe('/v1/connections/eu%2Fledger%20primary');
    expect(service.requests[0]?.headers.authorization).toBeUndefined();
  });
});
