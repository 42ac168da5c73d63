/**
 * Fuzzes the running API with schemathesis (from PyPI) against spec/openapi.yaml, every
 * check, positive and negative data, NUL bytes allowed, as two customers who must never
 * see each other's objects (adr/0012). The fuzzer reaches the money: it is handed, as
 * data, both customers' funded accounts, their handles, valid IBANs and unspent step-up
 * authorisations, each bound to one payment (adr/0045): for every send that needs one, the
 * fuzzer draws its account, amount and payee from the values those authorisations approve,
 * so withdrawals and transfers can land (any other draw is a 403 AUTHORIZATION_MISMATCH), and
 * `object_level_authorization` replays each customer's reads as the other.
 *
 * Every phase runs, named (examples, coverage, fuzzing, stateful), so a schemathesis whose
 * defaults change cannot drop one unseen: the stateful phase chains operations along the
 * links schemathesis infers from the spec (an opened account's id into its deposits, a
 * movement's transferId into getTransfer, …), `--stateful-examples` scenarios of up to
 * `--stateful-steps` calls each, on the same two customers and data.
 *
 * The API runs on DATABASE_URL when given (CI: a throwaway PostgreSQL), else on a
 * temporary PGlite. The run fails on any failed check (a 5xx, a schema violation, another
 * customer's object), when the API logs a server error, when a withdrawal, an internal
 * or an external transfer never answered 201, or when the stateful phase did not run or
 * followed no link.
 *
 * Usage: npx tsx contract-tests/schemathesis/run.ts [--max-examples N] [--stateful-examples N] [--stateful-steps N] [--seed N]
 */
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { query } from '@tidewater/test-support/bankDatabase';
import { startApi } from '@tidewater/test-support/apiProcess';
import { call } from '@tidewater/test-support/httpClient';
import { uniqueHandle } from '@tidewater/test-support/handles';

const root = fileURLToPath(new URL('../..', import.meta.url));
const argument = (name: string, fallback: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1]! : fallback);
const maxExamples = argument('--max-examples', '30');
const statefulExamples = argument('--stateful-examples', '60');
const statefulSteps = argument('--stateful-steps', '8');
const seed = argument('--seed', '20261201');
/** The operations the fuzzer must see answer 201 at least once. */
const MUST_LAND = ['/withdrawals', '/api/transfers/internal', '/api/transfers/external'];
const IBANS = ['DE89370400440532013000', 'GB82WEST12345698765432', 'FR1420041010050500013M02606', 'NL91ABNA0417164300'];

const work = mkdtempSync(join(tmpdir(), 'tidewater-fuzz-'));
const databaseUrl = process.env.DATABASE_URL;
const api = await startApi({ ...(databaseUrl ? {} : { DATA_DIR: join(work, 'data') }), VALIDATE_RESPONSES: '1', LOG_LEVEL: 'info' });

/** What every authorisation the fuzzer is handed approves: its paying account is the customer's first. */
const PAID = { amountMinor: 250, iban: IBANS[0]!, beneficiaryName: 'Grace Hopper' };

type Operation = 'withdraw' | 'createInternalTransfer' | 'createExternalTransfer';

interface Customer {
  name: string;
  token: string;
  userId: string;
  handle: string;
  accounts: string[];
  /** Unspent authorisations per send, each for the payment PAID describes (a transfer by handle: to `payeeHandle`). */
  authorizations: Record<Operation, string[]>;
}

/** The payment one of `operation`'s authorisations approves. */
function paymentOf(operation: Operation, fromAccountId: string, payeeHandle: string) {
  if (operation === 'withdraw') return { operation, fromAccountId, amountMinor: PAID.amountMinor };
  if (operation === 'createInternalTransfer') return { operation, fromAccountId, amountMinor: PAID.amountMinor, toHandle: payeeHandle };
  return { operation, fromAccountId, amountMinor: PAID.amountMinor, iban: PAID.iban, beneficiaryName: PAID.beneficiaryName };
}

/** A customer `handle` with two funded accounts and a stock of unspent step-up authorisations, paying `payeeHandle` by handle. */
async function customer(name: string, handle: string, payeeHandle: string): Promise<Customer> {
  const who = { email: `${handle}@example.com`, password: 'correct horse battery', displayName: `Fuzz ${name}`, handle, pin: '2468' };
  const registered = await call(api.url, 'POST', '/api/auth/register', { body: who });
  if (registered.status !== 201) throw new Error(`could not register ${name}: ${registered.status}`);
  const token = (await call(api.url, 'POST', '/api/auth/token', { body: { email: who.email, password: who.password } })).body.accessToken as string;
  const savings = await call(api.url, 'POST', '/api/accounts', { token, body: { name: 'Savings' } });
  const accounts = [registered.body.account.id as string, savings.body.id as string];
  for (const accountId of accounts) {
    const funded = await call(api.url, 'POST', `/api/accounts/${accountId}/deposits`, { token, body: { amountMinor: 50_000_000_000 }, headers: { 'idempotency-key': `fund-${accountId}` } });
    if (funded.status !== 201) throw new Error(`could not fund ${name}'s account: ${funded.status}`);
  }
  const userId = registered.body.user.id as string;
  const authorizations = { withdraw: [], createInternalTransfer: [], createExternalTransfer: [] } as Record<Operation, string[]>;
  for (const operation of Object.keys(authorizations) as Operation[]) {
    const payment = paymentOf(operation, accounts[0]!, payeeHandle);
    // Each authorisation is single use: a stock of them, minted in the database (a PIN hash each through the API would take minutes).
    authorizations[operation] = databaseUrl
      ? (await query<{ id: string }>(databaseUrl, `INSERT INTO step_up_authorizations (id, user_id, expires_at, operation, from_account_id, amount_minor, payee_handle, payee_iban, payee_name)
          SELECT gen_random_uuid(), $1::uuid, now() + interval '2 hours', $2, $3::uuid, $4, $5, $6, $7 FROM generate_series(1, 80) RETURNING id::text`,
        [userId, operation, payment.fromAccountId, payment.amountMinor, 'toHandle' in payment ? payment.toHandle : null, 'iban' in payment ? payment.iban : null, 'beneficiaryName' in payment ? payment.beneficiaryName : null])).map((row) => row.id)
      : await Promise.all(Array.from({ length: 4 }, async () => (await call(api.url, 'POST', '/api/step-up', { token, body: { pin: '2468', payment } })).body.authorizationId as string));
  }
  return { name, token, userId, handle: who.handle, accounts, authorizations };
}

/** schemathesis.toml (the documented relaxations) and, generated, the data and the two identities. */
function config(customers: Customer[]): string {
  const list = (values: string[]) => `[${values.map((value) => JSON.stringify(value)).join(', ')}]`;
  const wfcPath = join(work, 'identities.json');
  writeFileSync(wfcPath, JSON.stringify({ auth: customers.map((c) => ({ name: c.name, fixedHeaders: [{ name: 'Authorization', value: `Bearer ${c.token}` }] })) }));
  // A send lands only when its account AND its authorisation are the caller's own, and its
  // amount and payee are what the authorisation approves. Each send that needs one draws its
  // account, amount, payee and authorisation from the values of one approved payment of the
  // second identity (grace), as whom schemathesis fuzzes the sends: drawn from both
  // customers' values, too few positive cases could land and a run could miss. Refusing
  // another's values is fuzzed on the other operations (their accounts come from both).
  // Should the identity ever change, the run fails loudly ("never got a 201").
  const sender = customers[1]!;
  // A key stores its send's refusal for good (adr/0048): keys drawn from a small space (a shrunk
  // "00000000") would meet their own stored refusals and never land, so most are fresh UUIDs.
  const approved = (operation: Operation, of: Customer[]) => list(of.flatMap((c) => c.authorizations[operation]));
  // The budgets live in the file, not on the command line: a CLI --max-examples would override the stateful phase's own.
  const settings = readFileSync(join(root, 'contract-tests/schemathesis/schemathesis.toml'), 'utf8');
  if (!settings.includes('\n[generation]\n')) throw new Error('schemathesis.toml has no [generation] table for the examples budget');
  return `${settings.replace('\n[generation]\n', `\n[generation]\nmax-examples = ${maxExamples}\n`)}
# --- generated by run.ts: the budgets, the data the fuzzer is handed, and who it fuzzes as ---
[phases.stateful]
max-steps = ${statefulSteps}
generation.max-examples = ${statefulExamples}

[auth.wfc]
path = ${JSON.stringify(wfcPath)}
peers = ${list(customers.map((c) => c.name))}

[dictionaries.accounts]
values = ${list(customers.flatMap((c) => c.accounts))}
[dictionaries.authorizations]
values = ${list(customers.flatMap((c) => Object.values(c.authorizations).flat()))}
[dictionaries.senderPayingAccount]
values = ${list([sender.accounts[0]!])}
[dictionaries.senderSecondAccount]
values = ${list([sender.accounts[1]!])}
[dictionaries.payeeHandle]
values = ${list([customers[0]!.handle])}
[dictionaries.withdrawAuthorizations]
values = ${approved('withdraw', [sender])}
[dictionaries.handleAuthorizations]
values = ${approved('createInternalTransfer', [sender])}
[dictionaries.externalAuthorizations]
values = ${approved('createExternalTransfer', [sender])}
[dictionaries.paidAmount]
values = [${PAID.amountMinor}]
[dictionaries.paidIban]
values = ${list([PAID.iban])}
[dictionaries.paidName]
values = ${list([PAID.beneficiaryName])}
[dictionaries.handles]
values = ${list(customers.map((c) => c.handle))}
[dictionaries.ibans]
values = ${list(IBANS)}
[dictionaries.pins]
values = ["2468"]
[dictionaries.names]
values = ["Grace Hopper", "Ada Lovelace", "Émile Zola"]
[dictionaries.amounts]
values = [1, 250, 2500, 99999]
[dictionaries.keys]
values = ${list(Array.from({ length: 2_000 }, () => randomUUID()))}

[parameters]
"path.accountId" = { dictionary = "accounts", probability = 0.9 }
"query.accountId" = { dictionary = "accounts", probability = 0.9 }
"body.fromAccountId" = { dictionary = "accounts", probability = 0.9 }
"body.toAccountId" = { dictionary = "accounts", probability = 0.8 }
"body.authorizationId" = { dictionary = "authorizations", probability = 0.9 }
"body.toHandle" = { dictionary = "handles", probability = 0.8 }
"body.iban" = { dictionary = "ibans", probability = 0.9 }
"body.pin" = { dictionary = "pins", probability = 0.5 }
"body.beneficiaryName" = { dictionary = "names", probability = 0.9 }
"body.amountMinor" = { dictionary = "amounts", probability = 0.8 }
"header.Idempotency-Key" = { dictionary = "keys", probability = 0.9 }

[[operations]]
include-operation-id = "withdraw"
parameters = { "path.accountId" = { dictionary = "senderPayingAccount", probability = 0.9 }, "body.amountMinor" = { dictionary = "paidAmount", probability = 0.9 }, "body.authorizationId" = { dictionary = "withdrawAuthorizations", probability = 0.9 } }

[[operations]]
include-operation-id = "createInternalTransfer"
parameters = { "body.fromAccountId" = { dictionary = "senderPayingAccount", probability = 0.9 }, "body.toAccountId" = { dictionary = "senderSecondAccount", probability = 0.9 }, "body.toHandle" = { dictionary = "payeeHandle", probability = 0.9 }, "body.amountMinor" = { dictionary = "paidAmount", probability = 0.9 }, "body.authorizationId" = { dictionary = "handleAuthorizations", probability = 0.9 } }

[[operations]]
include-name = "POST /api/transfers/external"
parameters = { "body.fromAccountId" = { dictionary = "senderPayingAccount", probability = 0.9 }, "body.authorizationId" = { dictionary = "externalAuthorizations", probability = 0.9 }, "body.amountMinor" = { dictionary = "paidAmount", probability = 0.9 }, "body.iban" = { dictionary = "paidIban", probability = 0.9 }, "body.beneficiaryName" = { dictionary = "paidName", probability = 0.9 } }
`;
}

/** The statuses the API answered per path family, read from its completion log lines. */
function statusesSeen(logLines: string[]): Map<string, Map<number, number>> {
  const seen = new Map<string, Map<number, number>>();
  for (const line of logLines) {
    let entry: { req?: { method?: string; url?: string }; res?: { statusCode?: number }; responseTime?: number };
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (entry.responseTime === undefined || !entry.req?.url || typeof entry.res?.statusCode !== 'number') continue;
    const family = `${entry.req.method} ${entry.req.url.split('?')[0]!.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/gi, '{id}')}`;
    const statuses = seen.get(family) ?? new Map<number, number>();
    statuses.set(entry.res.statusCode, (statuses.get(entry.res.statusCode) ?? 0) + 1);
    seen.set(family, statuses);
  }
  return seen;
}

/** What schemathesis' summary says of its stateful phase (its text output: `Scenarios: N`, `API Links: N covered / N selected`). */
function statefulOutcome(output: string): { ran: boolean; scenarios: number; linksCovered: number; links: number } {
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
  const section = plain.slice(plain.search(/Stateful \(in /));
  const scenarios = /Scenarios:\s+(\d+)/.exec(section);
  const links = /API Links:\s+(\d+) covered \/ (\d+) selected/.exec(section);
  if (!plain.includes('Stateful (in ') || !scenarios || !links) return { ran: false, scenarios: 0, linksCovered: 0, links: 0 };
  return { ran: true, scenarios: Number(scenarios[1]), linksCovered: Number(links[1]), links: Number(links[2]) };
}

let exitCode = 1;
try {
  // Each pays the other by handle; the handles are known before either signs up.
  const handles = { ada: uniqueHandle('fuzzada'), grace: uniqueHandle('fuzzgrace') };
  const customers = [await customer('ada', handles.ada, handles.grace), await customer('grace', handles.grace, handles.ada)];
  const configPath = join(work, 'schemathesis.toml');
  writeFileSync(configPath, config(customers));
  const args = [
    '--config-file', configPath,
    'run',
    join(root, 'spec/openapi.yaml'),
    '--url', api.url,
    '--checks', 'all',
    '--mode', 'all',
    '--phases', 'examples,coverage,fuzzing,stateful',
    '--seed', seed,
    '--continue-on-failure',
    // One worker: with two, schemathesis 4.32's coverage phase parses Python source from two
    // threads at once and CPython 3.11 fails ("AST constructor recursion depth mismatch").
    '--workers', '1',
    '--request-timeout', '30',
  ];
  console.log(`schemathesis ${args.join(' ')} (seed ${seed}; ${maxExamples} examples an operation, ${statefulExamples} stateful scenarios of up to ${statefulSteps} steps; as ${customers.map((c) => c.name).join(' and ')})`);
  // Not spawnSync: this process must keep reading the API's log while schemathesis runs.
  let output = '';
  exitCode = await new Promise<number>((resolve) => {
    const child = spawn('schemathesis', args, { stdio: ['ignore', 'pipe', 'inherit'], cwd: root });
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      output += chunk.toString();
    });
    child.on('exit', (code) => resolve(code ?? 1));
  });
  const stateful = statefulOutcome(output);
  console.log(`\nthe stateful phase: ${stateful.ran ? `${stateful.scenarios} scenarios, ${stateful.linksCovered} of ${stateful.links} links followed` : 'did not run'}`);
  if (!stateful.ran || stateful.linksCovered === 0) {
    console.error('the stateful phase did not run, or followed no link between operations');
    exitCode = exitCode || 1;
  }

  // FUZZ_API_LOG=<file> keeps the API's log of the run, to see why a send was refused.
  if (process.env.FUZZ_API_LOG) writeFileSync(process.env.FUZZ_API_LOG, api.logLines.join("\n"));
  const seen = statusesSeen(api.logLines);
  console.log('\nwhat the API answered the fuzzer, by operation:');
  for (const [family, statuses] of [...seen].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`  ${family}: ${[...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' ')}`);
  }
  for (const path of MUST_LAND) {
    const landed = [...seen].some(([family, statuses]) => family.startsWith('POST ') && family.endsWith(path.startsWith('/api') ? path : `{id}${path}`) && statuses.has(201));
    if (!landed) {
      console.error(`the fuzzer never got a 201 from POST …${path}: it did not reach the money`);
      exitCode = exitCode || 1;
    }
  }
  const serverErrors = api.logLines.filter((line) => /"statusCode":5\d\d|"level":50/.test(line) && !/"statusCode":503/.test(line));
  if (serverErrors.length > 0) {
    console.error(`the API logged ${serverErrors.length} server error(s) while the database was healthy:\n${serverErrors.slice(0, 5).join('\n')}`);
    exitCode = exitCode || 1;
  }
} finally {
  await api.stop();
  rmSync(work, { recursive: true, force: true });
}
process.exit(exitCode);
