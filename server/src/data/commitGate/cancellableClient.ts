/**
 * A `pg` client whose statements end at the database when their request's signal fires
 * (deadline or hang-up): it sends PostgreSQL's CancelRequest for its backend, so a hung
 * statement stops holding locks and a connection. COMMIT and ROLLBACK are never
 * cancelled (the commit gate has disarmed the signal before COMMIT anyway).
 * Used as the pool's `Client` class (a supported `pg.Pool` option).
 */
import { connect } from 'node:net';
import pg from 'pg';
import { connectToListedHost, type Host, type HostSelector } from '@tidewater/contract/hostList';
import { currentTransactionAttempt, isReadOnlyRefusal } from '../retry/index.ts';
import { currentContext, type RequestContext } from '../../request/requestContext.ts';

/** Where a pool query carries the context of the request that made it (see CancellablePool). */
const madeBy = Symbol('tidewater.requestContext');
type Stamped = { [madeBy]?: RequestContext };

/** PostgreSQL's CancelRequest code (protocol §55.2.7): 1234 in the high half, 5678 in the low. */
const CANCEL_REQUEST_CODE = 80877102;

/** Sends a CancelRequest for a connected client's backend, on a socket of its own. */
function sendCancelRequest(client: pg.Client): void {
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
  socket.on('connect', () => socket.end(message));
}

const neverCancelled = /^\s*(COMMIT|ROLLBACK|END|ABORT)\b/i;
const isCommit = /^\s*(COMMIT|END)\b/i;

/** Tells the transaction attempt whose COMMIT this is which server process receives it. */
function noteCommitBackend(client: pg.Client): void {
  const attempt = currentTransactionAttempt();
  const { processID } = client as unknown as { processID: number | null };
  if (attempt && processID !== null) attempt.commitBackend = processID;
}

/** What the pool's clients are made with: pg's settings plus who hears a connection's errors. */
export type CancellablePoolConfig = pg.PoolConfig & {
  /** Told of every error a connection emits, whoever holds it (never fatal). */
  onConnectionError?: (error: Error) => void;
  /** The URL named several hosts or a target_session_attrs (adr/0019): each connection goes where this says. */
  hostSelector?: HostSelector;
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

  constructor(config?: string | CancellablePoolConfig) {
    super(config);
    const settings = typeof config === 'object' ? config : undefined;
    this.selector = settings?.hostSelector;
    this.sessionReadOnly = /default_transaction_read_only=on/.test(String(settings?.options ?? ''));
    this.on('error', (error: Error) => settings?.onConnectionError?.(error));
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
    if (this.sessionReadOnly || !isReadOnlyRefusal(error)) return;
    this[lostPrimary] = true;
    if (this.selector && this.connectedTo) this.selector.forget(this.connectedTo);
  }

  // pg's query() is heavily overloaded (promise, callback, Submittable); we pass every form through.
  // Hot: every statement of every request runs here, so it allocates little: no listener per
  // statement, and the promise form is pg's callback form under one promise of ours (pg's own
  // promise form makes two, and a `.then` on it a third).
  override query(...args: unknown[]): never {
    const first = args[0] as string | ({ text?: string; submit?: unknown } & Stamped) | undefined;
    // A pool query may reach its client from another request's release; its stamp says whose it is.
    const context = (typeof first === 'object' && first?.[madeBy]) || currentContext();
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    const ending = neverCancelled.test(text);
    // A COMMIT notes the backend it goes to, for the look at its outcome should its answer be lost.
    if (ending && isCommit.test(text)) noteCommitBackend(this);
    // The statements of this request now running: its one abort listener cancels them.
    const running = context && !context.signal.aborted && !ending ? runningStatements(context) : undefined;
    running?.add(this);
    const superQuery = super.query as (...a: unknown[]) => never;
    const last = args.at(-1);
    if (typeof last === 'function') {
      // pg answers a callback with (error, result), nothing more: no rest array, no spread call.
      args[args.length - 1] = (error: unknown, result: unknown) => {
        running?.delete(this);
        if (error) this.noteFailure(error);
        return (last as (error: unknown, result: unknown) => unknown)(error, result);
      };
      return superQuery.apply(this, args);
    }
    // A Submittable (pg-cursor and the like) answers through its own events: passed through as it is.
    if (typeof first === 'object' && typeof first?.submit === 'function') return superQuery.apply(this, args);
    return new Promise((resolve, reject) => {
      const answered = (error: unknown, result?: unknown) => {
        running?.delete(this);
        if (!error) return resolve(result);
        this.noteFailure(error);
        reject(error);
      };
      try {
        args.push(answered); // args is this call's own rest array
        superQuery.apply(this, args);
      } catch (error) {
        answered(error); // pg refused the call itself (no query given)
      }
    }) as never;
  }
}

/**
 * The clients running a statement for each request, by its signal: one abort listener
 * per request (not one per statement) sends a CancelRequest for each of them.
 */
const runningByRequest = new WeakMap<AbortSignal, Set<CancellableClient>>();

function runningStatements(context: RequestContext): Set<CancellableClient> {
  const { signal } = context;
  const known = runningByRequest.get(signal);
  if (known) return known;
  const clients = new Set<CancellableClient>();
  runningByRequest.set(signal, clients);
  signal.addEventListener(
    'abort',
    () => {
      for (const client of clients) {
        context.log.info({ processId: (client as unknown as { processID: number }).processID }, 'cancelling a statement at the database');
        sendCancelRequest(client);
      }
      clients.clear();
    },
    { once: true },
  );
  return clients;
}

/**
 * A pg.Pool that stamps each query with the request that made it, synchronously where the
 * request's AsyncLocalStorage context is still right; the CancellableClient that runs it
 * later reads the stamp.
 */
export class CancellablePool extends pg.Pool {
  override query(...args: unknown[]): never {
    const first = args[0];
    const context = currentContext();
    if (context && typeof first === 'object' && first !== null) (first as Stamped)[madeBy] = context;
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}
