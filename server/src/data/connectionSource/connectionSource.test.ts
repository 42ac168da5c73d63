import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createConnectionSource,
  isPasswordAuthenticationFailure,
  validateConnectionSourceOptions,
  withPasswordRotation,
  worstCaseMs,
  type ConnectionSourceOptions,
} from './connectionSource.ts';
import {
  ConnectionSourceError,
  isConnectionSourceError,
  type ConnectionSourceErrorKind,
} from './connectionSourceErrors.ts';

/** Both contain SECRET so one search proves neither reached a log line. */
const TOKEN = 'tok-SECRET-7f3a';
const CONNECTION_STRING = 'postgres://app:pw-SECRET-91@db:5432/bank';
const NAME = 'ledger-primary';
const BACKOFF_MS = [20, 30, 50];
const BACKOFF_TOTAL_MS = 100;
/** Generous: CI machines stall; the point is that we did wait, and not wildly longer. */
const TIMING_MARGIN_MS = 2_000;

type Reply =
  | { status: number; body?: string; headers?: Record<string, string>; delayMs?: number }
  | 'reset' // the server destroys the socket without answering
  | 'hang'; // the server never answers

/** A real HTTP service on 127.0.0.1 that plays `replies` in order (the last one repeats) and counts requests. */
async function startService(replies: Reply[]) {
  const requests: Array<{ url: string | undefined; headers: IncomingHttpHeaders }> = [];
  const server = createServer((req, res) => {
    const reply = replies[Math.min(requests.length, replies.length - 1)];
    requests.push({ url: req.url, headers: req.headers });
    if (reply === undefined || reply === 'hang') return;
    if (reply === 'reset') {
      req.socket.destroy();
      return;
    }
    setTimeout(() => {
      res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
      res.end(reply.body ?? '');
    }, reply.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const service = {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  openServices.push(service);
  return service;
}
const openServices: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(openServices.splice(0).map((service) => service.close()));
});

/** A pino logger writing JSON lines into memory, as production would write them. */
function captureLog() {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  const entries = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, lines, entries, warnings: () => entries().filter((entry) => entry.level === 40) };
}

function optionsFor(
  url: string,
  logger: ConnectionSourceOptions['logger'],
  overrides: Partial<ConnectionSourceOptions> = {},
) {
  return {
    apiUrl: url,
    connectionName: NAME,
    token: TOKEN,
    attempts: 4,
    backoffMs: BACKOFF_MS,
    attemptTimeoutMs: 1_000,
    logger,
    ...overrides,
  } satisfies ConnectionSourceOptions;
}

type Want =
  | { value: string; requests: number; minElapsedMs?: number }
  | { kind: ConnectionSourceErrorKind; message: RegExp; requests: number; minElapsedMs?: number };

const ok = (body: string): Reply => ({ status: 200, body });
const status = (code: number, body = ''): Reply => ({ status: code, body });

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

describe('ConnectionSourceError', () => {
  it.each([
    [new ConnectionSourceError('empty', 'x'), true],
    [{ [Symbol.for('tidewater.ConnectionSourceError')]: true }, true], // a duplicated module's instance
    [new Error('x'), false],
    [null, false],
    [undefined, false],
  ])('isConnectionSourceError(%o) = %s', (error, want) => {
    expect(isConnectionSourceError(error)).toBe(want);
  });
});
