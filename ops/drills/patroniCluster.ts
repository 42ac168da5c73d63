/**
 * etcd and two PostgreSQL nodes managed by Patroni, started from the shipped configuration
 * (`ops/patroni/node1.yml`, `node2.yml`) with only what must differ on a shared machine
 * changed: free loopback ports, directories under the drill's, a scope of its own. Every
 * server runs as the PostgreSQL user; the passwords are random per run and reach Patroni
 * through its environment, as in production.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { pgBinaries } from '../../test-support/src/pgBinaries.ts';
import {
  childrenOf,
  freePort,
  ownedDir,
  signal,
  stopOrContinue,
  waitFor,
} from '../../test-support/src/pgProcesses.ts';

const shipped = (file: string) => fileURLToPath(new URL(`../patroni/${file}`, import.meta.url));

/** One node: its Patroni and the PostgreSQL it manages. */
interface PatroniNode {
  readonly name: string;
  readonly pgPort: number;
  readonly restPort: number;
  /** Starts its Patroni (again, after a kill: it rejoins, rewound if need be). */
  start(): void;
  /** SIGKILL its Patroni, then its postmaster: a node lost at once. */
  kill(): Promise<void>;
  /** SIGSTOP (or SIGCONT) its postmaster and every child, the walreceiver included. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** Asks its REST API a health question (`primary`, `sync`, `replica`, `health`): answered 200 or not. */
  is(role: 'primary' | 'sync' | 'replica' | 'health'): Promise<boolean>;
}

/** The running cluster. */
export interface PatroniCluster {
  readonly nodes: PatroniNode[];
  readonly superuserPassword: string;
  /** The multi-host URL of `database`, as README "Failover" shapes it. */
  urlFor(database: string, targetSessionAttrs?: string): string;
  /** The node whose REST API says it is the primary now. */
  leader(): Promise<PatroniNode>;
  /** Waits until one node is the primary and the other its streaming synchronous standby. */
  whenSynchronous(withinMs?: number): Promise<void>;
  /** Stops every process (SIGTERM, then SIGKILL what is left) and leaves the directory to the caller. */
  stop(): Promise<void>;
}

const spawned = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of spawned) child.kill('SIGKILL');
});

function run(
  command: string,
  args: string[],
  log: string,
  env: NodeJS.ProcessEnv = process.env,
): ChildProcess {
  const { runAs } = pgBinaries();
  const out = openSync(log, 'a');
  const child = spawn(command, args, { ...runAs, cwd: '/', env, stdio: ['ignore', out, out] });
  spawned.add(child);
  child.once('exit', () => spawned.delete(child));
  return child;
}

async function answers(url: string): Promise<boolean> {
  const reply = await fetch(url, { signal: AbortSignal.timeout(2_000) }).catch(() => undefined);
  return reply?.status === 200;
}

/** SIGTERM the live ones, SIGKILL what is left after 20 s; resolves once all ended. */
async function ended(children: (ChildProcess | undefined)[]): Promise<void> {
  const live = children.filter(
    (c): c is ChildProcess => c !== undefined && c.exitCode === null && c.signalCode === null,
  );
  const exits = Promise.all(live.map((c) => new Promise((done) => c.once('exit', done))));
  for (const child of live) child.kill('SIGTERM');
  const timer = setTimeout(() => live.forEach((c) => c.kill('SIGKILL')), 20_000);
  await exits;
  clearTimeout(timer);
}

/** Starts etcd and both nodes under `dir`; resolves once node1 leads and node2 is its synchronous standby. */
export async function startPatroniCluster(dir: string): Promise<PatroniCluster> {
  const passwords = { superuser: '', replication: '', rewind: '' };
  for (const user of Object.keys(passwords) as (keyof typeof passwords)[])
    passwords[user] = randomBytes(18).toString('hex');
  const [etcdClient, etcdPeer] = [await freePort(), await freePort()];
  const etcd = run(
    'etcd',
    [
      '--name',
      'drill',
      '--data-dir',
      ownedDir(join(dir, 'etcd')),
      '--listen-client-urls',
      `http://127.0.0.1:${etcdClient}`,
      '--advertise-client-urls',
      `http://127.0.0.1:${etcdClient}`,
      '--listen-peer-urls',
      `http://127.0.0.1:${etcdPeer}`,
      '--initial-advertise-peer-urls',
      `http://127.0.0.1:${etcdPeer}`,
      '--initial-cluster',
      `drill=http://127.0.0.1:${etcdPeer}`,
    ],
    join(dir, 'etcd.log'),
  );
  await waitFor('etcd to answer', () => answers(`http://127.0.0.1:${etcdClient}/health`), 30_000, 200);

  const env = {
    ...process.env,
    PATRONI_SUPERUSER_PASSWORD: passwords.superuser,
    PATRONI_REPLICATION_PASSWORD: passwords.replication,
    PATRONI_REWIND_PASSWORD: passwords.rewind,
  };
  const scope = `tidewater-drill-${randomBytes(4).toString('hex')}`;
  const nodes: (PatroniNode & { patroni?: ChildProcess; dataDir: string })[] = [];
  for (const file of ['node1.yml', 'node2.yml']) {
    const config = parse(readFileSync(shipped(file), 'utf8'));
    const [pgPort, restPort] = [await freePort(), await freePort()];
    const home = ownedDir(join(dir, config.name));
    const dataDir = join(home, 'data');
    Object.assign(config, { scope, etcd3: { hosts: `127.0.0.1:${etcdClient}` } });
    Object.assign(config.restapi, {
      listen: `127.0.0.1:${restPort}`,
      connect_address: `127.0.0.1:${restPort}`,
    });
    Object.assign(config.postgresql, {
      listen: `127.0.0.1:${pgPort}`,
      connect_address: `127.0.0.1:${pgPort}`,
      data_dir: dataDir,
      pgpass: join(home, 'pgpass'),
    });
    config.postgresql.parameters.unix_socket_directories = home;
    const configFile = join(home, 'patroni.yml');
    writeFileSync(configFile, stringify(config));
    const postmasterPids = () => {
      const pidFile = join(dataDir, 'postmaster.pid');
      const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : 0;
      return pid && existsSync(`/proc/${pid}`) ? [pid, ...childrenOf(pid)] : [];
    };
    const node: (typeof nodes)[number] = {
      name: config.name,
      pgPort,
      restPort,
      dataDir,
      start() {
        node.patroni = run('patroni', [configFile], join(home, 'patroni.log'), env);
      },
      async kill() {
        node.patroni?.kill('SIGKILL');
        signal(postmasterPids().slice(0, 1), 'SIGKILL');
        await waitFor(
          `${config.name}'s postmaster to end`,
          async () => postmasterPids().length === 0,
          30_000,
          100,
        );
      },
      pause: async () => {
        const [postmaster] = postmasterPids();
        if (!postmaster) throw new Error(`${config.name} has no postmaster to stop`);
        await stopOrContinue([postmaster], 'SIGSTOP');
        await stopOrContinue(childrenOf(postmaster), 'SIGSTOP');
      },
      resume: () => stopOrContinue(postmasterPids().reverse(), 'SIGCONT'),
      is: (role) => answers(`http://127.0.0.1:${restPort}/${role}`),
    };
    nodes.push(node);
  }

  const cluster: PatroniCluster = {
    nodes,
    superuserPassword: passwords.superuser,
    urlFor: (database, attrs = 'read-write') =>
      `postgres://postgres:${passwords.superuser}@${nodes.map((n) => `127.0.0.1:${n.pgPort}`).join(',')}/${database}?target_session_attrs=${attrs}`,
    async leader() {
      for (const node of nodes) if (await node.is('primary')) return node;
      throw new Error('no node is the primary');
    },
    async whenSynchronous(withinMs = 120_000) {
      // The standby Patroni names in the DCS (what a switchover checks) and the one the
      // primary streams to synchronously (what a COMMIT waits for) must be the same node.
      await waitFor(
        'a primary and its streaming synchronous standby',
        async () => {
          const leader = await cluster.leader().catch(() => undefined);
          const standby = nodes.find((n) => n !== leader);
          if (!leader || !standby || !(await standby.is('sync'))) return false;
          const status = await fetch(`http://127.0.0.1:${leader.restPort}/patroni`).then(
            (r) => r.json(),
            () => ({}),
          );
          const replication: { application_name?: string; state?: string; sync_state?: string }[] =
            status.replication ?? [];
          return replication.some(
            (r) => r.application_name === standby.name && r.state === 'streaming' && r.sync_state === 'sync',
          );
        },
        withinMs,
        500,
      );
    },
    async stop() {
      for (const node of nodes) await node.resume().catch(() => undefined);
      // Patroni first (it stops its PostgreSQL), etcd last: Patroni needs it to let go.
      await ended(nodes.map((n) => n.patroni));
      await ended([etcd]);
      for (const node of nodes) {
        const pidFile = join(node.dataDir, 'postmaster.pid');
        if (existsSync(pidFile))
          signal(
            [Number(readFileSync(pidFile, 'utf8').split('\n')[0])].filter((pid) =>
              existsSync(`/proc/${pid}`),
            ),
            'SIGQUIT',
          );
      }
    },
  };
  try {
    nodes[0]!.start();
    await waitFor('node1 to lead', () => nodes[0]!.is('primary'), 90_000, 500);
    nodes[1]!.start();
    await cluster.whenSynchronous();
    return cluster;
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}
