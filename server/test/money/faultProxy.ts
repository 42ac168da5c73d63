/**
 * A loopback TCP proxy in front of PostgreSQL that can lose exactly the message a test
 * names, the way a network does: the API connects through it and never knows. Rules are
 * one-shot (each fires `times` times) and match a text in what the API sends:
 *
 * - `dropAnswerTo`: forward the message, let the database act on it, then cut the
 *   connection instead of delivering its answer (a COMMIT that landed, answer lost);
 * - `cutBefore`: cut the connection instead of forwarding the message (a COMMIT, or a
 *   BEGIN, that never reached the database).
 */
import net from 'node:net';

type Mode = 'dropAnswerTo' | 'cutBefore';

interface Rule {
  mode: Mode;
  text: string;
  times: number;
  fired: number;
}

/** A running proxy. */
export interface FaultProxy {
  readonly port: number;
  /** `postgres://…` through the proxy to `database`. */
  urlFor(database: string): string;
  /** Arms a rule; answers a function reporting how often it fired. */
  arm(mode: Mode, text: string, times?: number): () => number;
  /** Disarms every rule. */
  reset(): void;
  close(): Promise<void>;
}

/** Starts a proxy to 127.0.0.1:`targetPort`. */
export async function startFaultProxy(targetPort: number): Promise<FaultProxy> {
  let rules: Rule[] = [];
  const sockets = new Set<net.Socket>();
  const take = (mode: Mode, chunk: Buffer): boolean => {
    const rule = rules.find((r) => r.mode === mode && r.fired < r.times && chunk.includes(r.text));
    if (rule) rule.fired += 1;
    return rule !== undefined;
  };

  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    let swallowAnswer = false;
    client.on('data', (chunk) => {
      if (take('cutBefore', chunk)) return cut();
      if (take('dropAnswerTo', chunk)) swallowAnswer = true;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (swallowAnswer) return cut();
      client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    urlFor: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    arm(mode, text, times = 1) {
      const rule: Rule = { mode, text, times, fired: 0 };
      rules.push(rule);
      return () => rule.fired;
    },
    reset() {
      rules = [];
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
