/**
 * A loopback TCP proxy between an API process and PostgreSQL that can catch the one
 * moment no stopped or paused database can: right after a money send's commit. Every money
 * send is one statement that is its own commit (adr/0041), its order (`{"operation":…}`)
 * among its parameters. Armed, the trap calls `onCommit` (the stack freezes the API there,
 * SIGSTOP) before it forwards the next such statement: PostgreSQL commits, and the API never
 * hears it. Unarmed, it only forwards. Matching is on the bytes of each chunk, as
 * test-support's tcpProxy.ts does.
 */
import net from 'node:net';

/** A money send's statement: its order rides in its parameters. */
const MONEY_SEND = Buffer.from('{"operation":"');

/** A running trap. */
export interface CommitTrap {
  readonly port: number;
  /** Arms the trap once: `onCommit` runs before the next commit of a money send is forwarded. */
  arm(onCommit: () => void): void;
  /** How many times it fired since start. */
  fired(): number;
  close(): Promise<void>;
}

/** Starts a trap forwarding to 127.0.0.1:`targetPort`. */
export async function startCommitTrap(targetPort: number): Promise<CommitTrap> {
  let armed: (() => void) | null = null;
  let fired = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.on('data', (chunk: Buffer) => {
      if (armed && chunk.includes(MONEY_SEND)) {
        const onCommit = armed;
        armed = null;
        fired += 1;
        onCommit();
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    arm(onCommit) {
      armed = onCommit;
    },
    fired: () => fired,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback forwarder whose target can change (the BFF keeps one API address while the API behind it restarts). */
export async function startForwarder(): Promise<{ port: number; retarget(port: number): void; close(): Promise<void> }> {
  let targetPort = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    retarget(port) {
      targetPort = port;
      for (const socket of sockets) socket.destroy();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
