/**
 * HAProxy in front of a drill's Patroni nodes, from the shipped `ops/haproxy/haproxy.cfg`
 * with only its ports changed to the drill's: the primary's port and the standbys' on free
 * loopback ports, each server and its Patroni check port the node's.
 */
import { spawn } from 'node:child_process';
import { openSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitFor } from '../../test-support/src/pgProcesses.ts';
import type { PatroniCluster } from './patroniCluster.ts';

/** A running HAProxy. */
export interface Haproxy {
  /** Where the primary is reached (the shipped 5000). */
  readonly primaryPort: number;
  stop(): Promise<void>;
}

const accepts = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = connect(port, '127.0.0.1', () => (socket.destroy(), done(true))).once('error', () =>
      done(false),
    );
  });

/** Starts HAProxy under `dir` for `cluster`'s two nodes (shipped as node1 on 5432/8008, node2 on 5433/8009). */
export async function startHaproxy(dir: string, cluster: PatroniCluster): Promise<Haproxy> {
  const [primaryPort, standbysPort] = [await freePort(), await freePort()];
  const [node1, node2] = cluster.nodes as [PatroniCluster['nodes'][number], PatroniCluster['nodes'][number]];
  const ports: Record<string, number> = {
    5000: primaryPort,
    5001: standbysPort,
    5432: node1.pgPort,
    5433: node2.pgPort,
    8008: node1.restPort,
    8009: node2.restPort,
  };
  const shipped = readFileSync(fileURLToPath(new URL('../haproxy/haproxy.cfg', import.meta.url)), 'utf8');
  const config = join(dir, 'haproxy.cfg');
  writeFileSync(
    config,
    shipped.replace(/(?<=127\.0\.0\.1:|port )(5000|5001|5432|5433|8008|8009)\b/g, (port) =>
      String(ports[port]),
    ),
  );
  const log = openSync(join(dir, 'haproxy.log'), 'a');
  const haproxy = spawn('haproxy', ['-db', '-f', config], { stdio: ['ignore', log, log] });
  const exited = new Promise((done) => haproxy.once('exit', done));
  await waitFor('HAProxy to listen', () => accepts(primaryPort), 30_000, 200);
  return {
    primaryPort,
    async stop() {
      if (haproxy.exitCode === null && haproxy.signalCode === null) haproxy.kill('SIGTERM');
      await exited;
    },
  };
}
