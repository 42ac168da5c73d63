#!/usr/bin/env node
/**
 * `npm start`: runs the whole bank on one machine: the API (embedded PGlite unless
 * DATABASE_URL is set) on API_PORT (8081), then the BFF on BFF_PORT (8080) in front of it,
 * serving the SPA and the docs. Ctrl-C stops both; if either exits, the other is stopped.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// Node runs our TypeScript itself from 24 on (type stripping; adr/0053): say so before anything fails.
const nodeMajor = Number(process.versions.node.split('.')[0]);
if (nodeMajor < 24) {
  console.error(`[start] Tidewater needs Node.js 24 or later (this is ${process.version}); see the README`);
  process.exit(1);
}

const root = fileURLToPath(new URL('../..', import.meta.url));
const apiPort = process.env.API_PORT ?? '8081';
const bffPort = process.env.BFF_PORT ?? '8080';
const env = { ...process.env, API_PORT: apiPort, BFF_PORT: bffPort, API_URL: process.env.API_URL ?? `http://127.0.0.1:${apiPort}` };

function run(name, workspace) {
  const child = spawn(process.execPath, ['src/main.ts'], { cwd: `${root}/${workspace}`, env, stdio: 'inherit' });
  child.on('exit', (code, signal) => {
    console.error(`[start] ${name} exited (${signal ?? code}); stopping the stack`);
    stopAll(code ?? 1);
  });
  return child;
}

async function waitForHealth(url, timeoutMs) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const ok = await fetch(url, { signal: AbortSignal.timeout(1_000) }).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

const children = [];
let stopping = false;
function stopAll(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 3_000).unref();
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

children.push(run('API', 'server'));
await waitForHealth(`http://127.0.0.1:${apiPort}/api/health`, 120_000);
children.push(run('BFF', 'bff'));
await waitForHealth(`http://127.0.0.1:${bffPort}/bff/health`, 60_000);
console.log(`[start] Tidewater is up: http://localhost:${bffPort} (docs: http://localhost:${bffPort}/docs; the API on http://127.0.0.1:${apiPort})`);
