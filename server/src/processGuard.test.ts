import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const serverDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * Runs a script in a fresh Node process with the guard installed: an `error` event with no
 * listener is emitted on the next tick, then the process reports after 200 ms (if alive).
 */
function runWithGuard(errorSource: string): Promise<{ code: number | null; stdout: string }> {
  const script = `
    import { EventEmitter } from 'node:events';
    import { pino } from 'pino';
    import { guardProcess } from './src/processGuard.ts';
    const guard = guardProcess(pino({ level: 'silent' }));
    setImmediate(() => new EventEmitter().emit('error', ${errorSource}));
    setTimeout(() => console.log('alive, caught ' + guard.unexpectedDatabaseErrors()), 200);`;
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: serverDir, timeout: 30_000 }, (error, stdout) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout: stdout.trim() }),
    );
  });
}

describe('the process guard', () => {
  // prettier-ignore
  it.each([
    ['a FATAL 57P01 from a stopping server', `Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', severity: 'FATAL' })`],
    ['a connection that ended', `new Error('Connection terminated unexpectedly')`],
  ])('logs, counts and survives %s emitted with no listener', async (_name, errorSource) => {
    expect(await runWithGuard(errorSource)).toEqual({ code: 0, stdout: 'alive, caught 1' });
  });

  it('still ends the process on any other uncaught error', async () => {
    expect(await runWithGuard(`new TypeError('a bug')`)).toEqual({ code: 1, stdout: '' });
  });
});
