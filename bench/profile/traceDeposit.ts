/**
 * What ONE deposit runs of the server's TypeScript (issue 51), measured with V8's precise
 * block coverage in one process: a throwaway PostgreSQL cluster (test-support's pgCluster),
 * the API composed as main.ts composes it (every resilience layer) and listening on
 * loopback, a customer signed up with an account, a warm-up of deposits and reads; then
 * the counts are reset, one deposit is sent over real HTTP, and every function of
 * server/src (generated/ aside) that ran before its 201 is printed with its line span, and
 * per file the code lines its covered blocks touch (blocks that did not run subtracted),
 * split where the router calls the handler. V8 counts blocks at branches only, so the
 * straight code a function runs after an await stays on the side where the function was
 * entered (the router's answer-writing tail counts as middleware). An idle window as long
 * as the deposit is measured after it: what runs with no request at all.
 * Plain Node (its own type stripping keeps every offset; tsx's esbuild output would not):
 * `npm run trace:deposit -w bench`.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Profiler } from 'node:inspector';
import { Session } from 'node:inspector/promises';
import { stripTypeScriptTypes } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

type Coverage = Profiler.ScriptCoverage[];
const serverSrc = fileURLToPath(new URL('../../server/src/', import.meta.url));
// Issue 51's split by folder: these run from the handler to its answer, every other file is middleware.
const handlerSide = /^(domain\/money\/|data\/|request\/commitOutcome\.ts$)/;

// Coverage first, the server's modules after: a function compiled before block coverage started would have no block counts.
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });

process.env.LOG_LEVEL ??= 'warn';
const { startPrimary } = await import('@tidewater/test-support/pgCluster');
const cluster = await startPrimary();
Object.assign(process.env, { DATABASE_URL: cluster.urlFor('tidewater'), JWT_SECRET: `trace-${randomUUID()}`, PIN_PEPPER: `t1:${randomUUID()}` });
const { composeApi, resilienceLayers } = await import('../../server/src/app.ts');
const { loadConfig } = await import('../../server/src/config.ts');
const { signingSecret } = await import('../../server/src/signingSecret.ts');
const { pinPeppers } = await import('../../server/src/pinPepper.ts');
const { serverLogger } = await import('@tidewater/contract/http');
const { openAccount, signUp } = await import('../contention/apiPath.ts');
const { send } = await import('../lib/http.ts');

const config = loadConfig();
const logger = serverLogger('trace');
const { app, database } = await composeApi(resilienceLayers, { config, logger, signingSecret: signingSecret(config), pinPeppers: pinPeppers(config) });
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const customer = await signUp(baseUrl, 'trace');
const accountId = await openAccount(customer, 'traced');
const headers = { authorization: `Bearer ${customer.token}` };
const deposit = async () => {
  const reply = await send(`${baseUrl}/api/accounts/${accountId}/deposits`, {
    method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': randomUUID() }, body: JSON.stringify({ amountMinor: 100 }),
  });
  if (reply.status !== 201) throw new Error(`the deposit answered ${reply.status}: ${reply.text}`);
};
for (let i = 0; i < 20; i++) {
  await deposit();
  await send(`${baseUrl}/api/accounts`, { headers });
  await send(`${baseUrl}/api/accounts/${accountId}`, { headers });
}

const take = async (): Promise<Coverage> => (await session.post('Profiler.takePreciseCoverage')).result;
// The split by call order: a breakpoint where the router calls the deposit's handler takes the coverage
// so far (middleware), the take after the 201 the rest. A same-thread session dispatches at once, even paused.
const router = `${serverSrc}http/operationRouter.ts`;
const routerLine = readFileSync(router, 'utf8').split('\n').findIndex((line) => line.includes('return handler({'));
await session.post('Debugger.enable');
const { locations } = await session.post('Debugger.setBreakpointByUrl', { url: pathToFileURL(router).href, lineNumber: routerLine, condition: "operationId === 'deposit'" });
if (routerLine < 0 || locations.length === 0) throw new Error('operationRouter.ts no longer has the line `return handler({` this trace splits at');
const atHandler = new Promise<Coverage>((resolve) => session.once('Debugger.paused', () => {
  resolve(take());
  void session.post('Debugger.resume');
}));
// A read just before: the session's revocation recheck (ACCESS_TOKEN_RECHECK_SECONDS) is fresh, so the deposit takes the common path.
await send(`${baseUrl}/api/accounts`, { headers });
await take();
let started = performance.now();
await deposit();
const depositMs = performance.now() - started;
const [beforeHandler, afterHandler] = [await atHandler, await take()];
await session.post('Debugger.disable');
started = performance.now();
await sleep(depositMs);
const idle = await take();
const idleMs = performance.now() - started;

/** One file's functions that ran and the code lines their covered blocks touch. */
function fileReport(url: string, functions: Profiler.FunctionCoverage[]) {
  const code = stripTypeScriptTypes(readFileSync(fileURLToPath(url), 'utf8'));
  const lineStarts = [0, ...[...code.matchAll(/\n/g)].map((m) => m.index + 1)];
  const lineOf = (offset: number) => lineStarts.findLastIndex((start) => start <= offset) + 1;
  // Outer ranges first, inner ones over them: each character takes its innermost range's count.
  const painted = new Uint32Array(code.length);
  const ranges = functions.flatMap((f) => f.ranges).sort((a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset);
  for (const range of ranges) painted.fill(range.count, range.startOffset, range.endOffset);
  const lines = new Set<number>();
  code.split('\n').forEach((text, i) => {
    if (/^\s*(\/\/|\/\*|\*)/.test(text)) return; // a comment line is no code, even inside a function that ran
    for (let c = 0; c < text.length; c++) if (text[c]!.trim() && painted[lineStarts[i]! + c]! > 0) return void lines.add(i + 1);
  });
  const ran = functions.filter((f) => f.ranges[0]!.count > 0).map((f) => ({
    name: f.functionName || '(anonymous)', count: f.ranges[0]!.count, from: lineOf(f.ranges[0]!.startOffset), to: lineOf(f.ranges[0]!.endOffset - 1),
  }));
  return { file: fileURLToPath(url).slice(serverSrc.length), ran: ran.sort((a, b) => a.from - b.from), lines };
}
type FileReport = ReturnType<typeof fileReport>;

const ours = (coverage: Coverage) => coverage
  .filter((script) => script.url.startsWith('file://') && fileURLToPath(script.url).startsWith(serverSrc) && !script.url.includes('/generated/'))
  .map((script) => fileReport(script.url, script.functions))
  .filter((file) => file.ran.length > 0)
  .sort((a, b) => a.file.localeCompare(b.file));
const linesOf = (files: FileReport[]) => files.reduce((sum, f) => sum + f.lines.size, 0);

function print(title: string, files: FileReport[]): void {
  console.log(`\n## ${title}`);
  for (const { file, ran, lines } of files) {
    console.log(`${file}  (${lines.size} lines)`);
    for (const f of ran) console.log(`  ${f.name}  ${f.from}-${f.to}  ×${f.count}`);
  }
  console.log(`total: ${files.length} files, ${linesOf(files)} lines`);
}

const [middleware, handlerOn] = [ours(beforeHandler), ours(afterHandler)];
// The whole deposit: each file's lines of both parts, counted once.
const whole = new Map<string, Set<number>>();
for (const { file, lines } of [...middleware, ...handlerOn]) whole.set(file, new Set([...(whole.get(file) ?? []), ...lines]));
const byFolder = (onHandlerSide: boolean) => [...whole].filter(([file]) => handlerSide.test(file) === onHandlerSide);
const summary = (files: Array<[string, Set<number>]>) => `${files.length} files, ${files.reduce((sum, [, lines]) => sum + lines.size, 0)} lines`;

console.log(`one deposit: 201 in ${depositMs.toFixed(1)} ms; lines are code lines (comments and stripped types aside) a block that ran touches`);
print(`middleware before the handler (up to operationRouter.ts:${routerLine + 1}, where the router calls it)`, middleware);
print('handler to answer (from that call to the 201)', handlerOn);
console.log(`\n## the whole deposit: ${summary([...whole])}`);
console.log(`by folder: domain/money/, data/, request/commitOutcome.ts: ${summary(byFolder(true))}; every other file: ${summary(byFolder(false))}`);
print(`idle window of ${idleMs.toFixed(1)} ms, no request (should be empty)`, ours(idle));

server.closeAllConnections();
await new Promise((resolve) => server.close(resolve));
await database.close();
session.disconnect();
await cluster.destroy();
process.exit(0);
