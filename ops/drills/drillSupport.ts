/**
 * What the operators' drills share: customers who send deposits under their own keys and
 * remember every answer, a named check, and `npm run audit:verify` on a database.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { call } from '../../test-support/src/httpClient.ts';
import { queryOnce } from '../../test-support/src/pgProcesses.ts';
import { uniqueHandle } from '../../test-support/src/handles.ts';
import { bffTransport, type Transport } from '../../contract-tests/soak/transport.ts';

const run = promisify(execFile);
const repository = fileURLToPath(new URL('../../', import.meta.url));

/** One deposit's answer, when it came, and how to send it again under the same key. */
export interface Sent {
  key: string;
  /** `performance.now()` when it was sent. */
  sentAt: number;
  /** `performance.now()` when the answer (or the failure to get one) came. */
  at: number;
  status: number;
  errorCode?: string;
  applied?: boolean;
  retryAfter: boolean;
  noStore: boolean;
  resend(): Promise<Sent>;
}

/** A signed-in customer with one account. */
export interface Customer {
  deposit(amountMinor: number): Promise<Sent>;
}

/** A drill's verdict on one promise: the failures it found (none: it held). */
export interface Check {
  name: string;
  failures: string[];
}

/** What a drill prints: its figures, then its checks. */
export interface Summary {
  figures: Record<string, string | number>;
  checks: Check[];
}

/** Names a check. */
export const check = (name: string, failures: string[]): Check => ({ name, failures });

/** Each idempotency key's ledger rows on `url`: what every drill holds its answers against. */
export async function ledgerRowsByKey(url: string): Promise<Map<string, number>> {
  const ledger = await queryOnce<{ key: string; rows: number }>(
    url,
    'SELECT idempotency_key AS key, count(*)::int AS rows FROM ledger_entries WHERE idempotency_key IS NOT NULL GROUP BY 1',
  );
  return new Map(ledger.map((row) => [row.key, row.rows]));
}

/** The money checks every drill makes from the database: each acknowledged send moved once (`name`), and no key twice. */
export function ledgerChecks(name: string, acknowledged: Sent[], rowsOf: Map<string, number>): Check[] {
  return [
    check(
      name,
      acknowledged
        .filter((s) => rowsOf.get(s.key) !== 1)
        .map((s) => `${s.key}: ${rowsOf.get(s.key) ?? 0} rows`),
    ),
    check(
      'no key moved twice',
      [...rowsOf].filter(([, rows]) => rows !== 1).map(([key, rows]) => `${key}: ${rows} rows`),
    ),
  ];
}

/**
 * Prints what a drill found: its title, its figures, each check, then the one line CI's summary
 * counts (`<tag>: N checks passed, M failed`, .ci/summary.mjs); a failed check fails the run.
 * A drill that could not finish (`summary` undefined) counts as one failure.
 */
export function report(title: string, tag: string, summary: Summary | undefined, seconds: number): void {
  console.log(title);
  if (!summary) {
    console.log(`${tag}: 0 checks passed, 1 failed`);
    process.exitCode = 1;
    return;
  }
  for (const [name, value] of Object.entries({ ...summary.figures, 'drill seconds': seconds.toFixed(1) }))
    console.log(`  ${name}: ${value}`);
  for (const { name, failures } of summary.checks)
    console.log(
      `  ${failures.length ? 'FAIL' : 'ok  '} ${name}${failures.length ? `: ${failures.slice(0, 5).join('; ')}` : ''}`,
    );
  const failed = summary.checks.filter((c) => c.failures.length).length;
  console.log(`${tag}: ${summary.checks.length - failed} checks passed, ${failed} failed`);
  if (failed) process.exitCode = 1;
}

/** Signs one new customer (`prefix` names its email and handle) up and in on the API at `apiUrl`: its access token and first account. */
export async function signUpAndIn(
  apiUrl: string,
  prefix: string,
  n: number,
): Promise<{ accessToken: string; accountId: string }> {
  const handle = uniqueHandle(prefix);
  const visitor = {
    email: `${handle}@example.com`,
    password: 'correct horse battery',
    displayName: `${prefix} ${n}`,
    handle,
    pin: '2468',
  };
  const registered = await call(apiUrl, 'POST', '/api/auth/register', { body: visitor });
  if (registered.status !== 201)
    throw new Error(`sign-up answered ${registered.status}: ${JSON.stringify(registered.body)}`);
  const token = await call(apiUrl, 'POST', '/api/auth/token', {
    body: { email: visitor.email, password: visitor.password },
  });
  if (token.status !== 200)
    throw new Error(`sign-in answered ${token.status}: ${JSON.stringify(token.body)}`);
  return { accessToken: token.body.accessToken, accountId: registered.body.account.id };
}

/** Signs `count` customers up and in on the API at `apiUrl`. */
export async function signUpCustomers(apiUrl: string, count: number): Promise<Customer[]> {
  const customers: Customer[] = [];
  for (let n = 0; n < count; n++) {
    const { accessToken, accountId } = await signUpAndIn(apiUrl, 'drill', n);
    customers.push(customer(apiUrl, accessToken, accountId));
  }
  return customers;
}

function customer(apiUrl: string, accessToken: string, accountId: string): Customer {
  const send = async (key: string, amountMinor: number): Promise<Sent> => {
    const base = { key, sentAt: performance.now(), resend: () => send(key, amountMinor) };
    try {
      const reply = await call(apiUrl, 'POST', `/api/accounts/${accountId}/deposits`, {
        token: accessToken,
        body: { amountMinor },
        headers: { 'idempotency-key': key },
      });
      return {
        ...base,
        at: performance.now(),
        status: reply.status,
        errorCode: reply.body?.errorCode,
        applied: reply.body?.applied,
        retryAfter: reply.headers.has('retry-after'),
        noStore: /no-store/.test(reply.headers.get('cache-control') ?? ''),
      };
    } catch (error) {
      // No answer at all (the API unreachable): status 0, to be counted as neither 201 nor 503.
      return {
        ...base,
        at: performance.now(),
        status: 0,
        errorCode: String(error),
        retryAfter: false,
        noStore: false,
      };
    }
  };
  return { deposit: (amountMinor) => send(randomUUID(), amountMinor) };
}

/** `npm run audit:verify` on the database at `url`: no failures when every chain is intact. */
export async function auditVerify(url: string): Promise<string[]> {
  try {
    await run('npm', ['run', '--silent', 'audit:verify'], {
      cwd: repository,
      env: { ...process.env, DATABASE_URL: url },
    });
    return [];
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    return [`${stdout}${stderr}`.trim() || String(error)];
  }
}

/**
 * A customer who signs up and sends through the BFF, as the SPA does (a session cookie, its
 * CSRF token): every request also reads the session from the BFF's store.
 */
export async function signUpThroughBff(bffUrl: string): Promise<Customer> {
  const handle = uniqueHandle('drill');
  const who = {
    email: `${handle}@example.com`,
    password: 'correct horse battery',
    displayName: 'Drill BFF',
    handle,
    pin: '2468',
  };
  const { transport } = await bffTransport(bffUrl, who, 60_000);
  const me = await transport.send('GET', '/api/me');
  const accountId = (me.body as { primaryAccountId: string }).primaryAccountId;
  return { deposit: (amountMinor) => sendThrough(transport, accountId, randomUUID(), amountMinor) };
}

async function sendThrough(
  transport: Transport,
  accountId: string,
  key: string,
  amountMinor: number,
): Promise<Sent> {
  const sentAt = performance.now();
  const answer = await transport.send('POST', `/api/accounts/${accountId}/deposits`, {
    body: { amountMinor },
    key,
  });
  const body = answer.body as { errorCode?: string; applied?: boolean } | undefined;
  return {
    key,
    sentAt,
    at: performance.now(),
    status: answer.status,
    errorCode: body?.errorCode,
    applied: body?.applied,
    retryAfter: answer.retryAfterSeconds !== undefined,
    noStore: true, // the transport keeps no headers; the API's own answers are checked by the other drills
    resend: () => sendThrough(transport, accountId, key, amountMinor),
  };
}
