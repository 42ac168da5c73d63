/**
 * Several PostgreSQL hosts in one URL, as libpq and Npgsql take them (adr/0019):
 *
 *     postgres://user:pw@h1:5432,h2:5432/tidewater?target_session_attrs=read-write
 *     postgres://user:pw@h1:5432,h2:5432/tidewater?target_session_attrs=prefer-standby&load_balance_hosts=random
 *
 * node-postgres (pg 8.23, pg-connection-string 2.14) refuses such a URL ("Invalid URL"),
 * and no maintained library adds it to pg, so the API's pools and the BFF's session store
 * do it themselves with this module: a host is chosen by a probe (one login per host, in
 * order or shuffled, asking `pg_is_in_recovery()` and `transaction_read_only`), every new
 * connection of a pool goes to the host chosen last and checks its role again, and a
 * host that stopped matching is forgotten, so the next connection probes again.
 *
 * No driver import here: the probe's login is given by the caller (a `pg.Client` in the
 * API and the BFF), so both share one parser and one rule.
 */

/** libpq's target_session_attrs. */
export type TargetSessionAttrs = 'any' | 'read-write' | 'read-only' | 'primary' | 'standby' | 'prefer-standby';
const TARGETS: readonly TargetSessionAttrs[] = ['any', 'read-write', 'read-only', 'primary', 'standby', 'prefer-standby'];

/** One host of the list. */
export interface Host {
  readonly host: string;
  readonly port: number;
}

/** A parsed multi-host URL. */
export interface HostList {
  readonly hosts: readonly Host[];
  readonly targetSessionAttrs: TargetSessionAttrs;
  readonly loadBalanceHosts: 'disable' | 'random';
  /** The URL of one host alone, without the two parameters above (what pg accepts). */
  urlFor(host: Host): string;
}

/** What a host is now, as one login saw it. */
export interface HostRole {
  /** `pg_is_in_recovery()`: a standby. */
  standby: boolean;
  /** `transaction_read_only` of a session that asked for nothing: a standby, or a primary set read-only. */
  readOnly: boolean;
}

/** The SQL that reads a {@link HostRole} (columns `standby`, `read_only`). */
export const ROLE_QUERY = "SELECT pg_is_in_recovery() AS standby, current_setting('transaction_read_only') = 'on' AS read_only";

/** What {@link roleOf} needs of a driver's client (a `pg.Client` fits). */
interface RoleClient {
  on(event: 'error', listener: () => void): unknown;
  connect(): Promise<unknown>;
  query(sql: string): Promise<{ rows: Array<{ standby: boolean; read_only: boolean }> }>;
  end(): Promise<unknown>;
}

/**
 * One login that reads a host's role (the host list's probe): `client` is a fresh driver
 * client for that host, bounded by its own connect and query timeouts; it is ended here.
 */
export async function roleOf(client: RoleClient): Promise<HostRole> {
  client.on('error', () => {}); // a login that fails says so by rejecting
  try {
    await client.connect();
    const [row] = (await client.query(ROLE_QUERY)).rows;
    return { standby: row?.standby === true, readOnly: row?.read_only === true };
  } finally {
    await client.end().catch(() => {});
  }
}

const URL_SHAPE = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^/?#]*)(\/[^?#]*)?(?:\?([^#]*))?$/;

/** One `host[:port]` or `[v6]:port` item. */
function parseHost(item: string, url: string): Host {
  const match = /^(\[[^\]]+\]|[^:[\]]+)(?::(\d+))?$/.exec(item.trim());
  if (!match) throw new Error(`a database URL names a host it cannot read (${JSON.stringify(item)}): ${redact(url)}`);
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port: match[2] ? Number(match[2]) : 5432 };
}

/** The URL without its credentials, for messages. */
const redact = (url: string) => url.replace(/\/\/[^@/?#]*@/, '//***@');

/**
 * Parses a URL with several hosts, or with `target_session_attrs` / `load_balance_hosts`.
 * Answers undefined for an ordinary one-host URL with neither (pg takes it as it is), and
 * throws, naming the value, for a value libpq would refuse.
 */
export function parseHostList(url: string): HostList | undefined {
  const match = URL_SHAPE.exec(url);
  if (!match) return undefined;
  const [, scheme, userInfo, hostSpec = '', path = '', query = ''] = match;
  const params = new URLSearchParams(query);
  const target = params.get('target_session_attrs') ?? 'any';
  const balance = params.get('load_balance_hosts') ?? 'disable';
  if (!hostSpec.includes(',') && !params.has('target_session_attrs') && !params.has('load_balance_hosts')) return undefined;
  if (!TARGETS.includes(target as TargetSessionAttrs))
    throw new Error(`target_session_attrs must be one of ${TARGETS.join(', ')}, not ${JSON.stringify(target)}`);
  if (balance !== 'disable' && balance !== 'random')
    throw new Error(`load_balance_hosts must be disable or random, not ${JSON.stringify(balance)}`);
  const hosts = hostSpec.split(',').map((item) => parseHost(item, url));
  params.delete('target_session_attrs');
  params.delete('load_balance_hosts');
  const rest = `${path}${params.size ? `?${params}` : ''}`;
  return {
    hosts,
    targetSessionAttrs: target as TargetSessionAttrs,
    loadBalanceHosts: balance,
    urlFor: ({ host, port }) => `${scheme}${userInfo !== undefined ? `${userInfo}@` : ''}${host.includes(':') ? `[${host}]` : host}:${port}${rest}`,
  };
}

/**
 * Does a host in `role` serve `target`? `sessionReadOnly`: the session asked to be
 * read-only itself (the primary's read-only pool), so only recovery tells primary from
 * standby. prefer-standby takes any host here; the probe prefers a standby.
 */
export function serves(target: TargetSessionAttrs, role: HostRole, sessionReadOnly = false): boolean {
  const readOnly = sessionReadOnly ? role.standby : role.readOnly;
  switch (target) {
    case 'read-write':
      return !readOnly;
    case 'read-only':
      return readOnly;
    case 'primary':
      return !role.standby;
    case 'standby':
      return role.standby;
    default:
      return true;
  }
}

const notFoundBrand = Symbol.for('tidewater.NoMatchingHost');

/** No host of the list could be reached with the role asked for: for the API, the primary cannot be reached now (nothing was sent). */
export class NoMatchingHost extends Error {
  readonly [notFoundBrand] = true;
  /** The transient classifier's code (server/src/data/retry/transient.ts). */
  readonly code = 'NO_MATCHING_HOST';
  readonly seen: string[];
  constructor(list: HostList, seen: string[]) {
    super(`no database host is ${list.targetSessionAttrs} now (${seen.join('; ')})`);
    this.seen = seen;
    this.name = 'NoMatchingHost';
  }
}

/** Chooses and remembers the host a pool's new connections go to. */
export interface HostSelector {
  readonly list: HostList;
  /** The host for a new connection: the one chosen last, else a probe's choice. */
  pick(): Promise<Host>;
  /** Probes the hosts now, whatever was chosen before (the readiness gate's probe); rejects with NoMatchingHost. */
  probe(): Promise<Host>;
  /** A connection to `host` failed or found it in another role: the next pick probes again. */
  forget(host: Host): void;
}

/** Options of {@link hostSelector}. */
export interface SelectorOptions {
  /** One login to the URL of one host, answering its role; rejects when it cannot log in. */
  login(url: string): Promise<HostRole>;
  /** In [0, 1), for load_balance_hosts=random; default Math.random. */
  random?: () => number;
}

/** A selector over `list`: concurrent picks share one probe. */
export function hostSelector(list: HostList, { login, random = Math.random }: SelectorOptions): HostSelector {
  let chosen: Host | undefined;
  let probing: Promise<Host> | undefined;

  const order = () => {
    const hosts = [...list.hosts];
    if (list.loadBalanceHosts !== 'random') return hosts;
    for (let i = hosts.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [hosts[i], hosts[j]] = [hosts[j]!, hosts[i]!];
    }
    return hosts;
  };

  async function runProbe(): Promise<Host> {
    const seen: string[] = [];
    let fallback: Host | undefined;
    for (const host of order()) {
      const name = `${host.host}:${host.port}`;
      let role: HostRole;
      try {
        role = await login(list.urlFor(host));
      } catch (error) {
        seen.push(`${name} ${(error as { code?: string }).code ?? (error as Error).message}`);
        continue;
      }
      seen.push(`${name} ${role.standby ? 'standby' : 'primary'}${role.readOnly && !role.standby ? ' read-only' : ''}`);
      if (list.targetSessionAttrs === 'prefer-standby' && !role.standby) {
        fallback ??= host;
        continue;
      }
      if (serves(list.targetSessionAttrs, role)) return host;
    }
    if (fallback) return fallback;
    throw new NoMatchingHost(list, seen);
  }

  const probe = () => {
    probing ??= runProbe().then(
      (host) => {
        probing = undefined;
        chosen = host;
        return host;
      },
      (error: unknown) => {
        probing = undefined;
        chosen = undefined;
        throw error;
      },
    );
    return probing;
  };

  return {
    list,
    pick: () => (chosen ? Promise.resolve(chosen) : probe()),
    probe,
    forget(host) {
      if (chosen && chosen.host === host.host && chosen.port === host.port) chosen = undefined;
    },
  };
}

/** The part of a `pg.Client` that {@link connectToListedHost} steers (no driver import here). */
interface SteerableClient {
  host: string;
  port: number;
  connectionParameters: { host: string; port: number };
  connection?: { stream?: { destroyed?: boolean } };
  query(sql: string): Promise<{ rows: Array<{ standby: boolean; read_only: boolean }> }>;
  end(): Promise<void>;
}

/**
 * A pool client's `connect()` on a host list: picks the host, logs in there (`connect`:
 * the driver's own connect), then checks the role once more on this very connection; a
 * host that does not serve the target any more is forgotten and the login ends with
 * NoMatchingHost (a connection failure that sent nothing: the caller's readiness gate
 * closes and its probe finds the new host). Answers the host connected to.
 */
export async function connectToListedHost(
  client: SteerableClient,
  selector: HostSelector,
  connect: () => Promise<void>,
  sessionReadOnly = false,
): Promise<Host> {
  const host = await selector.pick();
  // The pool's connect timeout may have fired during the probe: it destroys the socket.
  if (client.connection?.stream?.destroyed) throw new Error('Connection terminated due to connection timeout');
  client.host = client.connectionParameters.host = host.host;
  client.port = client.connectionParameters.port = host.port;
  try {
    await connect();
  } catch (error) {
    selector.forget(host);
    throw error;
  }
  if (selector.list.targetSessionAttrs === 'any' || selector.list.targetSessionAttrs === 'prefer-standby') return host;
  const [row] = (await client.query(ROLE_QUERY)).rows;
  if (row && serves(selector.list.targetSessionAttrs, { standby: row.standby, readOnly: row.read_only }, sessionReadOnly)) return host;
  selector.forget(host);
  await client.end().catch(() => {});
  throw new NoMatchingHost(selector.list, [`${host.host}:${host.port} ${row?.standby ? 'standby' : 'read-only'}`]);
}
