/**
 * A `pg` client that is the commit gate's seat under Prisma (adr/0006, adr/0075): no
 * statement starts once its request's signal fired (deadline or hang-up); a COMMIT or
 * ROLLBACK passes the gate (commitInClient.ts); a statement that runs when the signal fires
 * ends at the database: it sends PostgreSQL's CancelRequest for its backend, so a hung
 * statement stops holding locks and a connection. COMMIT and ROLLBACK are never cancelled
 * (the gate has disarmed the signal before COMMIT anyway).
 * Used as the pool's `Client` class (a supported `pg.Pool` option), under `new PrismaPg(pool)`.
 */
import { connect } from 'node:net';
import pg from 'pg';
import { connectToListedHost, type Host, type HostSelector } from '@tidewater/contract/hostList';
import { isReadOnlyRefusal } from '../retry/index.ts';
import { currentContext, type RequestContext } from '../../request/requestContext.ts';
import type { CommitGateOptions } from './commitGateOptions.ts';
import { commitThroughGate, rollbackThroughGate, type GatedConnection } from './commitInClient.ts';
import { refusedAfterSignal } from './refuseAfterSignal.ts';

/**
 * The context of the request that made each pool query (see CancellablePool), by its
 * config object. A table, not a property of the config: pg copies every own property of a
 * config (`cloneQueryConfig`), and a stamped config is a second shape for pg's hot code
 * beside the commit gate's unstamped ones (adr/0038).
 */
const madeBy = new WeakMap<object, RequestContext>();

/** PostgreSQL's CancelRequest code (protocol §55.2.7): 1234 in the high half, 5678 in the low. */
const CANCEL_REQUEST_CODE = 80877102;

/**
 * Sends a CancelRequest for a connected client's backend, on a socket of its own, and leaves
 * that socket open until the server closes it (bounded): PgBouncer drops a cancel whose
 * socket the client half-closed before it forwarded it ("client unexpected eof", adr/0060).
 */
export function sendCancelRequest(client: pg.Client): void {
  const { processID, secretKey } = client as unknown as { processID: number | null; secretKey: number | null };
  const { host, port } = (client as unknown as { connectionParameters: { host: string; port: number } }).connectionParameters;
  if (processID === null || secretKey === null) return;
  const message = Buffer.alloc(16);
  message.writeInt32BE(16, 0);
  message.writeInt32BE(CANCEL_REQUEST_CODE, 4);
  message.writeInt32BE(processID, 8);
  message.writeInt32BE(secretKey, 12);
  const socket = host.startsWith('/') ? connect(`${host}/.s.PGSQL.${port}`) : connect(port, host);
  socket.setTimeout(2_000, () => socket.destroy());
  socket.on('error', () => socket.destroy());
  socket.on('connect', () => socket.write(message));
}

const neverCancelled = /^\s*(COMMIT|ROLLBACK|END|ABORT)\b/i;
const isCommit = /^\s*(COMMIT|END)\b/i;
const isRollback = /^\s*(ROLLBACK|ABORT)\s*$/i;

/** What the pool's clients are made with: pg's settings plus who hears a connection's errors. */
export type CancellablePoolConfig = pg.PoolConfig & {
  /** Told of every error a connection emits, whoever holds it (never fatal). */
  onConnectionError?: (error: Error) => void;
  /** The URL named several hosts or a target_session_attrs (adr/0019): each connection goes where this says. */
  hostSelector?: HostSelector;
  /** The commit gate's bounds and test seam: every COMMIT and ROLLBACK of the pool's connections passes the gate. */
  commitGate?: CommitGateOptions;
};

/** Set on a read-write connection that met 25006: its server is not the primary any more, so it must not be pooled again. */
export const lostPrimary = Symbol('tidewater.lostPrimary');

/**
 * pg.Client that cancels its in-flight statement when the current request's signal fires,
 * and that listens for its own errors for its whole life (adr/0011). pg-pool's listener
 * covers only an idle connection, and a holder's can come too late: pg-pool hands a
 * released connection to a waiting `connect()` synchronously, while pg is still parsing
 * the socket's data, and the waiter attaches its listener a microtask later. A FATAL
 * (57P01, the server stopping) in the same chunk then had no listener and ended the
 * process. pg marks the connection unusable before it emits, so its holder's next
 * statement fails ("not queryable", classified) and the pool discards it on release.
 */
export class CancellableClient extends pg.Client {
  [lostPrimary] = false;
  private readonly selector: HostSelector | undefined;
  /** The session asked to be read-only itself (`-c default_transaction_read_only=on`). */
  private readonly sessionReadOnly: boolean;
  private connectedTo: Host | undefined;
  private readonly gate: CommitGateOptions | undefined;
  /**
   * The text of the statement last sent, and the context it was sent under (see `query`),
   * whose signal is a request's, shared by the copies of its context (a side write without
   * a budget of its own), or a side write's own.
   */
  private statementText = '';
  private statementContext: RequestContext | undefined;
  /**
   * The SQLSTATE and severity of the error the server sent for the statement last sent, if
   * any: the commit gate tells from it whether a statement sent as its own commit was
   * rolled back by its error (ownCommit.ts).
   */
  statementFailure: { code?: string; severity?: string } | undefined;
  /**
   * Set by the commit gate while the statement it sent as its own commit runs here: the gate
   * times that statement and cancels it at the deadline itself (ownCommit.ts), so no
   * request's signal does, and nothing is noted for one.
   */
  timedByGate = false;

  constructor(config?: string | CancellablePoolConfig) {
    super(config);
    const settings = typeof config === 'object' ? config : undefined;
    this.selector = settings?.hostSelector;
    this.gate = settings?.commitGate;
    this.sessionReadOnly = /default_transaction_read_only=on/.test(String(settings?.options ?? ''));
    this.on('error', (error: Error) => settings?.onConnectionError?.(error));
    // Every error the server sends for a statement passes here before pg hands it to the statement.
    (this as unknown as { connection: NodeJS.EventEmitter }).connection.on('errorMessage', (error: unknown) => this.noteFailure(error));
  }

  /** On a host list, picks the host and checks its role (contract/src/hostList.ts); else pg's own. */
  override connect(...args: unknown[]): never {
    const selector = this.selector;
    const superConnect = (...forwarded: unknown[]) => (super.connect as (...a: unknown[]) => never)(...forwarded);
    if (!selector) return superConnect(...args);
    const callback = args[0] as ((error: Error | undefined) => void) | undefined;
    const steered = this as unknown as Parameters<typeof connectToListedHost>[0];
    const connected = connectToListedHost(steered, selector, () => superConnect() as Promise<void>, this.sessionReadOnly).then((host) => {
      this.connectedTo = host;
      return this;
    });
    if (!callback) return connected as never;
    connected.then(() => callback(undefined), (error: Error) => callback(error));
    return undefined as never;
  }

  /** A read-write statement refused with 25006: this server is not the primary any more; forget it and never pool this connection again. */
  private noteFailure(error: unknown): void {
    const { code, severity } = error as { code?: string; severity?: string };
    this.statementFailure = { code, severity };
    if (this.sessionReadOnly || !isReadOnlyRefusal(error)) return;
    this[lostPrimary] = true;
    if (this.selector && this.connectedTo) this.selector.forget(this.connectedTo);
  }

  // pg's query() is heavily overloaded (promise, callback, Submittable); every form passes
  // through to pg's untouched, but for the gate's refusal and its COMMIT and ROLLBACK (the
  // promise form adapter-pg sends them in). Hot: every statement of every request runs here,
  // so it wraps nothing. It notes who the statement is for and its text; the request's one
  // abort listener decides from those, and from pg's statement in flight, which backends to
  // cancel. Errors are seen on the connection itself (the constructor), not per statement.
  override query(config: unknown, values?: unknown, callback?: unknown): never {
    this.statementFailure = undefined;
    if (this.timedByGate) {
      this.statementContext = undefined;
      return this.send(config, values, callback);
    }
    let text: string;
    let context: RequestContext | undefined;
    if (typeof config === 'string') {
      text = config;
      context = currentContext();
    } else {
      const first = config as { text?: string } | null | undefined;
      text = first?.text ?? '';
      // A pool query may reach its client from another request's release; its stamp says whose it is.
      context = (first && madeBy.get(first)) ?? currentContext();
    }
    if (context?.signal.aborted && !neverCancelled.test(text)) return refusedAfterSignal(context, values, callback) as never;
    this.statementText = text;
    this.statementContext = context;
    const gate = this.gate;
    if (isCommit.test(text)) {
      if (gate && typeof values !== 'function' && typeof callback !== 'function') return commitThroughGate(this.gated(), this.sendPromise, config, values, context, gate) as never;
    } else if (gate && isRollback.test(text) && typeof values !== 'function' && typeof callback !== 'function') {
      return rollbackThroughGate(this.gated(), this.sendPromise, config, values, gate) as never;
    } else if (context && !context.signal.aborted) cancelWhenFired(context, this);
    return this.send(config, values, callback);
  }

  /** pg's own query; it reads its three arguments by position (a missing one is undefined): no rest array, no apply. */
  private send(config: unknown, values: unknown, callback: unknown): never {
    return (super.query as unknown as (this: pg.Client, config: unknown, values: unknown, callback: unknown) => never).call(this, config, values, callback);
  }

  /** pg's own query, promise form: how the gate sends a COMMIT or ROLLBACK it let pass. */
  private readonly sendPromise = (config: unknown, values?: unknown): Promise<unknown> => this.send(config, values, undefined);

  /** This client as the gate holds it (its backend, and the pool's `release` of this loan). */
  private gated(): GatedConnection {
    return this as unknown as GatedConnection;
  }

  /** `signal` fired: cancel this client's statement if it was sent under that signal and still runs. */
  cancelOnFire(signal: AbortSignal): void {
    const context = this.statementContext;
    // pg's statement in flight: none once it answered, failed, or ended with its connection
    // (a CancelRequest then would only be one more login into an outage).
    const busy = (this as unknown as { _getActiveQuery(): unknown })._getActiveQuery() != null;
    if (!busy || context?.signal !== signal || neverCancelled.test(this.statementText)) return;
    context.log.info({ processId: (this as unknown as { processID: number }).processID }, 'cancelling a statement at the database');
    sendCancelRequest(this);
  }

  /**
   * Cancels the statement in flight, if any, whatever it is: for a statement that is its own
   * commit (ownCommit.ts), whose cancel ends it rolled back unless it was already committing.
   */
  cancelInFlight(): boolean {
    if ((this as unknown as { _getActiveQuery(): unknown })._getActiveQuery() == null) return false;
    sendCancelRequest(this);
    return true;
  }
}

/**
 * Asks `client` to cancel what it still runs under `context`'s signal when that fires. The
 * request's own signal: its deadline keeps the set and tells each client (no listener per
 * request; adr/0030). A side write's own budget: one abort listener per signal, as before.
 */
function cancelWhenFired(context: RequestContext, client: CancellableClient): void {
  const { signal, deadline } = context;
  if (signal === deadline.signal) return deadline.cancelOnFire(client);
  let clients = clientsBySideSignal.get(signal);
  if (!clients) {
    const known = new Set<CancellableClient>();
    clientsBySideSignal.set(signal, known);
    signal.addEventListener(
      'abort',
      () => {
        for (const each of known) each.cancelOnFire(signal);
        known.clear();
      },
      { once: true },
    );
    clients = known;
  }
  clients.add(client);
}

/** The clients that ran a statement under each side write's own signal (sideWrites.ts with a budget). */
const clientsBySideSignal = new WeakMap<AbortSignal, Set<CancellableClient>>();

/**
 * A pg.Pool that refuses a query once its request's signal fired and stamps each other one
 * with the request that made it, synchronously where the request's AsyncLocalStorage
 * context is still right; the CancellableClient that runs it later reads the stamp.
 */
export class CancellablePool extends pg.Pool {
  // pg-pool's query reads its three arguments by position (a missing one is undefined): no rest array.
  // A statement whose request's signal fired is refused here, before it takes a connection.
  override query(config: unknown, values?: unknown, callback?: unknown): never {
    const context = currentContext();
    if (context?.signal.aborted) return refusedAfterSignal(context, values, callback) as never;
    if (context && typeof config === 'object' && config !== null) madeBy.set(config, context);
    return (super.query as unknown as (this: pg.Pool, config: unknown, values: unknown, callback: unknown) => never).call(this, config, values, callback);
  }
}
