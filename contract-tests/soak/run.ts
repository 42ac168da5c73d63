/**
 * `npm run soak -- [--clients N] [--ops N] [--faults N] [--seed N] [--replica] [--via-bff] [--workers N]`
 * (adr/0011; `--workers`: API processes under one primary, API_WORKERS, default 1): runs the bank-invariant soak, prints its summary (the last line counts the
 * checks), writes its JSON and HTML report under contract-tests/.results/, and exits 1 on
 * any violation. `--ci` is the bounded size CI runs: 16 clients, 2,000 operations, 12
 * faults, a replica, the fixed seed.
 *
 * `npm run soak -- --failover [--sync|--async] [--clients N] [--seed N]` runs the failover
 * drill instead (failover.ts, adr/0019; 8 clients, about a minute): synchronous
 * replication by default; `--async` reports the acknowledged sends it lost.
 */
import { parseArgs } from 'node:util';
import { renderSummary, writeReport } from './report.ts';
import { runFailoverDrill } from './failover.ts';
import { runSoak } from './soak.ts';

const { values } = parseArgs({
  options: {
    clients: { type: 'string' },
    ops: { type: 'string' },
    faults: { type: 'string' },
    workers: { type: 'string' },
    seed: { type: 'string' },
    replica: { type: 'boolean', default: false },
    'via-bff': { type: 'boolean', default: false },
    ci: { type: 'boolean', default: false },
    failover: { type: 'boolean', default: false },
    sync: { type: 'boolean', default: false },
    async: { type: 'boolean', default: false },
  },
});

/** A positive whole number from the command line, or the default. */
function whole(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number, got "${text}"`);
  return value;
}

const options = {
  clients: whole('clients', values.clients, 16),
  ops: whole('ops', values.ops, values.ci ? 2_000 : 4_000),
  faults: whole('faults', values.faults, 12),
  seed: whole('seed', values.seed, 20_261_201),
  replica: values.replica || values.ci,
  viaBff: values['via-bff'],
  workers: whole('workers', values.workers, 1),
};

if (values.sync && values.async) throw new Error('--sync and --async exclude each other');

try {
  const drill = values.failover ? await runFailoverDrill({ clients: whole('clients', values.clients, 8), seed: options.seed, sync: !values.async }) : undefined;
  const report = drill ?? (await runSoak(options));
  console.log(renderSummary(report));
  if (drill) {
    const f = drill.failover;
    console.log(`failover (${f.mode}): first 2xx write ${f.recoverySeconds ?? 'never'} s after pg_ctl promote (promote took ${f.promoteSeconds} s); acknowledged sends lost: ${f.lostAcknowledged}${f.lostExamples.length ? ` (${f.lostExamples.join(' | ')})` : ''}`);
  }
  console.log(`report: ${writeReport(report)}`);
  process.exitCode = report.checks.some((check) => check.violations > 0) ? 1 : 0;
} catch (error) {
  console.error('the soak could not run:', error);
  process.exitCode = 2;
}
// The clusters and processes are gone; nothing else should keep the process alive.
process.exit();
