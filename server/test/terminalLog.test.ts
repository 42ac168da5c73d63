/**
 * `npm start` reads like a terminal program (adr/0053): on a terminal the API writes
 * human-readable lines, and its start line says where it listens, where its metrics are
 * and where its data lives; through a pipe (every other test) it writes pino's JSON.
 * The terminal is a real pseudo-terminal, made by util-linux's `script`.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '@tidewater/test-support/apiProcess';

const serverDir = fileURLToPath(new URL('..', import.meta.url));

describe('the API on a terminal', () => {
  let stop = () => {};
  afterEach(() => stop());

  it('writes readable lines, the start line naming its URL, its metrics and its database', async () => {
    const port = await freePort();
    const metricsPort = await freePort();
    const child = spawn('script', ['-qfec', `${JSON.stringify(process.execPath)} src/main.ts`, '/dev/null'], {
      cwd: serverDir,
      env: { ...process.env, DATA_DIR: 'memory://', API_PORT: String(port), API_METRICS_PORT: String(metricsPort), LOG_FORMAT: '', LOG_LEVEL: 'info', DATABASE_URL: '', PIN_PEPPER: '', JWT_SECRET: '' },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    stop = () => {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
    };
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const started = Date.now();
    while (!output.includes('API listening') && Date.now() - started < 60_000) await new Promise((resolve) => setTimeout(resolve, 200));
    const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
    expect(plain).toContain(`API listening on http://127.0.0.1:${port} · metrics http://127.0.0.1:${metricsPort}/metrics · database: embedded PGlite in memory`);
    expect(plain).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: tidewater-api: API listening/m);
    expect(plain).not.toContain('{"level"');
  }, 90_000);
});
