/**
 * A small TCP proxy between the API and PostgreSQL (node:net), for faults a stopped or
 * paused server cannot make: a connection reset while a request is in flight, or a
 * database that swallows everything.
 *
 * Modes, switched live:
 * - `pass`: forwards both ways.
 * - `reset-after-bytes` (`afterBytes`): once a connection is logged in (the server's first
 *   ReadyForQuery) or, for one already logged in, from the moment the mode is set, the
 *   client's next `afterBytes` bytes are forwarded and the connection is then reset (TCP
 *   RST on both sides). A simple-protocol `BEGIN` is 11 bytes, so with `afterBytes: 12` a
 *   transaction is cut at its first statement after BEGIN (mid-transaction) and a lone
 *   statement is cut mid-message. The proxy reads the server's ReadyForQuery messages to
 *   know whether each reset hit an open transaction (`stats().resetsInTransaction`).
 *   With `once`, the proxy passes again after that first reset: one reset at one offset.
 * - `blackhole`: accepts connections and forwards nothing either way. Leaving it resets
 *   every connection it swallowed bytes of (their protocol streams are broken).
 *
 * `resetAll()` resets every live connection at once, whatever the mode.
 *
 * Rules, armed on top of a mode, lose exactly the message a test names, the way a network
 * does (the API connects through the proxy and never knows). Each is one-shot (it fires
 * `times` times) and matches a text in a chunk the client sends, or in the SQL of a named
 * prepared statement the chunk runs (its text goes by only once per connection):
 * - `dropAnswerTo`: forward the chunk, let the database act on it, then cut the connection
 *   instead of delivering its answer (a COMMIT that landed, its answer lost);
 * - `cutBefore`: cut the connection instead of forwarding the chunk (a COMMIT, or a BEGIN,
 *   that never reached the database);
 * - `cutAfter`: forward the chunk, then cut the connection at once, before any answer: the
 *   client learns of the loss while the database may still be working on the statement
 *   (a slow COMMIT that lands after the client has given up on its connection);
 * - `partitionBefore`: the proxy turns `blackhole` at that chunk, which it swallows: a
 *   partition that starts mid-request, just before the statement (it never reaches the database);
 * - `partitionAfter`: the chunk is forwarded, then the proxy turns `blackhole`: the database
 *   acts on the statement and its answer never comes, nor anything else, until the test heals it.
 * A cut closes both sides (no RST) and is not counted in `resets`. `disarm()` drops every rule;
 * a partition lasts until `mode()` sets another mode.
 */
import { createServer, Socket, type Server } from 'node:net';

/** What the proxy does with traffic; see the module comment. */
type ProxyMode = 'pass' | 'reset-after-bytes' | 'blackhole';

/** What an armed rule does when its text goes by; see the module comment. */
export type RuleAction = 'dropAnswerTo' | 'cutBefore' | 'cutAfter' | 'partitionBefore' | 'partitionAfter';

/** Counters for assertions: proof that a fault really happened. */
interface ProxyStats {
  /** Connections accepted since start. */
  accepted: number;
  /** Connections open now. */
  live: number;
  /** Connections the proxy reset. */
  resets: number;
  /** Of those, the ones whose server had last said it was inside a transaction. */
  resetsInTransaction: number;
}

/** A running proxy. */
export interface TcpProxy {
  readonly port: number;
  /** `url` (a postgres:// URL of the target) with its host and port replaced by the proxy's. */
  urlFor(url: string): string;
  mode(mode: ProxyMode, options?: { afterBytes?: number; once?: boolean }): void;
  /** Resets every live connection now; answers how many. */
  resetAll(): number;
  /** Arms a rule (see the module comment); answers a function telling how often it fired. */
  arm(action: RuleAction, text: string, times?: number): () => number;
  /** Drops every armed rule. */
  disarm(): void;
  stats(): ProxyStats;
  close(): Promise<void>;
}

/** Per connection: the PostgreSQL protocol state the proxy needs. */
interface Link {
  client: Socket;
  server: Socket;
  /** Logged in: the server sent its first ReadyForQuery. */
  ready: boolean;
  /** The last ReadyForQuery status: 'I' idle, 'T' in a transaction, 'E' in a failed one. */
  transactionStatus: string;
  /** Client bytes still allowed through before the reset; undefined when not armed. */
  bytesLeft: number | undefined;
  swallowed: boolean;
  /** Unparsed server bytes (a message split across chunks). */
  pending: Buffer;
  /** Server bytes to skip before framed messages (the one-byte answer to an SSLRequest). */
  skipServerBytes: number;
  sawClientBytes: boolean;
  /** A `dropAnswerTo` rule fired: the server's next bytes end the connection instead. */
  dropAnswer: boolean;
  /** The text of each named prepared statement the client parsed on this connection. */
  prepared: Map<string, string>;
}

interface Rule {
  action: RuleAction;
  text: string;
  times: number;
  fired: number;
}

const SSL_REQUEST_CODE = 80877103;

/** Starts a proxy on a free port of 127.0.0.1 that forwards to `target`. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let currentMode: ProxyMode = 'pass';
  let afterBytes = 0;
  let resetOnce = false;
  const links = new Set<Link>();
  let rules: Rule[] = [];
  const stats = { accepted: 0, resets: 0, resetsInTransaction: 0 };

  const reset = (link: Link) => {
    if (!links.delete(link)) return;
    stats.resets++;
    if (link.transactionStatus !== 'I') stats.resetsInTransaction++;
    link.client.resetAndDestroy();
    link.server.resetAndDestroy();
  };
  /** Closes both sides (a network that drops the connection), uncounted. */
  const cut = (link: Link) => {
    if (!links.delete(link)) return;
    link.client.destroy();
    link.server.destroy();
  };
  /** The first armed rule of `action` whose text is in `chunk` (or `named`), counted as fired. */
  const take = (action: RuleAction, chunk: Buffer, named: string): boolean => {
    const rule = rules.find((r) => r.action === action && r.fired < r.times && (chunk.includes(r.text) || named.includes(r.text)));
    if (rule) rule.fired += 1;
    return rule !== undefined;
  };
  /**
   * The SQL of the named prepared statements `chunk` executes: a named statement's text goes
   * by once per connection (its Parse), and each later run only names it (its Bind), so a
   * rule matches its text on every run. Whole messages of the chunk only; best effort.
   */
  const namedTexts = (link: Link, chunk: Buffer): string => {
    if (!link.ready) return '';
    let texts = '';
    for (let at = 0; at + 5 <= chunk.length; ) {
      const type = chunk[at]!;
      const end = at + 1 + chunk.readUInt32BE(at + 1);
      if (end > chunk.length) break;
      const fields = chunk.subarray(at + 5, end).toString('utf8').split('\0');
      if (type === 0x50 /* P */ && fields[0]) link.prepared.set(fields[0], fields[1] ?? '');
      if (type === 0x42 /* B */ && fields[1]) texts += link.prepared.get(fields[1]) ?? '';
      at = end;
    }
    return texts;
  };
  const arm = (link: Link) => {
    link.bytesLeft = currentMode === 'reset-after-bytes' && link.ready ? afterBytes : undefined;
  };

  /** Reads ReadyForQuery ('Z', length 5, status byte) out of the server's stream. */
  const scanServer = (link: Link, chunk: Buffer) => {
    let data = link.pending.length ? Buffer.concat([link.pending, chunk]) : chunk;
    if (link.skipServerBytes) {
      const skip = Math.min(link.skipServerBytes, data.length);
      link.skipServerBytes -= skip;
      data = data.subarray(skip);
    }
    while (data.length >= 5) {
      const length = data.readUInt32BE(1);
      if (data.length < 1 + length) break;
      if (data[0] === 0x5a /* Z */) {
        link.transactionStatus = String.fromCharCode(data[5] ?? 0x49);
        if (!link.ready) {
          link.ready = true;
          arm(link);
        }
      }
      data = data.subarray(1 + length);
    }
    link.pending = Buffer.from(data);
  };

  const onClientData = (link: Link, chunk: Buffer) => {
    if (!link.sawClientBytes) {
      link.sawClientBytes = true;
      if (chunk.length >= 8 && chunk.readUInt32BE(0) === 8 && chunk.readUInt32BE(4) === SSL_REQUEST_CODE) link.skipServerBytes = 1;
    }
    if (currentMode === 'blackhole') {
      link.swallowed = true;
      return;
    }
    const named = namedTexts(link, chunk);
    if (take('cutBefore', chunk, named)) return cut(link);
    const partitionAfter = take('partitionAfter', chunk, named);
    if (partitionAfter || take('partitionBefore', chunk, named)) {
      if (partitionAfter) link.server.write(chunk);
      currentMode = 'blackhole';
      link.swallowed = true;
      return;
    }
    if (take('cutAfter', chunk, named)) {
      link.server.write(chunk, () => cut(link));
      return;
    }
    if (take('dropAnswerTo', chunk, named)) link.dropAnswer = true;
    if (link.bytesLeft === undefined) {
      link.server.write(chunk);
      return;
    }
    const through = chunk.subarray(0, link.bytesLeft);
    link.bytesLeft -= through.length;
    if (through.length) link.server.write(through);
    if (link.bytesLeft <= 0) {
      link.server.write(Buffer.alloc(0), () => reset(link));
      if (resetOnce) passAgain(link);
    }
  };
  /** Back to `pass` after a one-shot reset of `cutLink`: no other connection is armed any more. */
  const passAgain = (cutLink: Link) => {
    currentMode = 'pass';
    resetOnce = false;
    for (const each of links) if (each !== cutLink) each.bytesLeft = undefined;
  };

  const server: Server = createServer((client) => {
    stats.accepted++;
    const upstream = new Socket();
    const link: Link = {
      client,
      server: upstream,
      ready: false,
      transactionStatus: 'I',
      bytesLeft: undefined,
      swallowed: false,
      pending: Buffer.alloc(0),
      skipServerBytes: 0,
      sawClientBytes: false,
      prepared: new Map(),
      dropAnswer: false,
    };
    links.add(link);
    const drop = () => {
      if (!links.delete(link)) return;
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.on('data', (chunk: Buffer) => onClientData(link, chunk));
    upstream.on('data', (chunk: Buffer) => {
      if (currentMode === 'blackhole') {
        link.swallowed = true;
        return;
      }
      if (link.dropAnswer) return cut(link);
      scanServer(link, chunk);
      client.write(chunk);
    });
    upstream.connect(target.port, target.host);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;

  return {
    port,
    urlFor(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    mode(mode, options = {}) {
      const leavingBlackhole = currentMode === 'blackhole' && mode !== 'blackhole';
      currentMode = mode;
      afterBytes = options.afterBytes ?? 0;
      resetOnce = mode === 'reset-after-bytes' && options.once === true;
      if (mode === 'reset-after-bytes' && afterBytes < 1) throw new Error('reset-after-bytes needs afterBytes ≥ 1');
      for (const link of [...links]) {
        if (leavingBlackhole && link.swallowed) reset(link);
        else arm(link);
      }
    },
    resetAll() {
      const count = links.size;
      for (const link of [...links]) reset(link);
      return count;
    },
    arm(action, text, times = 1) {
      const rule: Rule = { action, text, times, fired: 0 };
      rules.push(rule);
      return () => rule.fired;
    },
    disarm() {
      rules = [];
    },
    stats: () => ({ ...stats, live: links.size }),
    async close() {
      for (const link of [...links]) reset(link);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
