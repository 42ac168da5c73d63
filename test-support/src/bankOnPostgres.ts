/**
 * The set-up the API-on-PostgreSQL tests share: a throwaway primary (`pgCluster.ts`), the
 * real API process on its `tidewater` database (migrations run at its start), optionally
 * through the TCP fault proxy (`tcpProxy.ts`), and a bank client on the API (`bank.ts`).
 * `stop()` undoes it in reverse (API, proxy, cluster), also after a start that failed
 * half-way. The tests then sign their own customers up.
 *
 *   let setup: BankOnPostgres;
 *   beforeAll(async () => {
 *     setup = await bankOnPostgres({ env: { ACCOUNT_LOCK_WAIT_MS: '100' } });
 *     ada = await setup.bank.signUp();
 *   });
 *   afterAll(() => setup?.stop());
 */
import { startApi, type ApiProcess } from './apiProcess.ts';
import { bank, type Bank } from './bank.ts';
import { startPrimary, type PgCluster } from './pgCluster.ts';
import { startTcpProxy, type TcpProxy } from './tcpProxy.ts';

/** What {@link bankOnPostgres} starts. */
export interface BankOnPostgresOptions {
  /** Extra postgresql.conf settings of the primary (see `startPrimary`). */
  settings?: Record<string, string>;
  /** The API's environment beyond DATABASE_URL, e.g. `{ VALIDATE_RESPONSES: '1' }`. */
  env?: Record<string, string>;
  /** Put the TCP fault proxy between the API and PostgreSQL. */
  proxy?: boolean;
}

/** A running bank on PostgreSQL. */
export interface BankOnPostgres {
  readonly cluster: PgCluster;
  /** The `tidewater` database on the primary, directly (a test's own SQL never goes through the proxy). */
  readonly url: string;
  readonly api: ApiProcess;
  /** The proxy the API reaches PostgreSQL through; undefined unless `proxy: true`. */
  readonly proxy: TcpProxy | undefined;
  /** A client of the API. */
  readonly bank: Bank;
  /** Stops the API and the proxy, and destroys the cluster. */
  stop(): Promise<void>;
}

/** Starts a primary, (a proxy,) and the API on it. */
export async function bankOnPostgres(options: BankOnPostgresOptions = {}): Promise<BankOnPostgres> {
  const started: { api?: ApiProcess; proxy?: TcpProxy; cluster?: PgCluster } = {};
  const stop = async () => {
    await started.api?.stop();
    await started.proxy?.close();
    await started.cluster?.destroy();
  };
  try {
    const cluster = (started.cluster = await startPrimary(options.settings ? { settings: options.settings } : {}));
    const url = cluster.urlFor('tidewater');
    const proxy = options.proxy ? (started.proxy = await startTcpProxy({ host: '127.0.0.1', port: cluster.port })) : undefined;
    const api = (started.api = await startApi({ ...options.env, DATABASE_URL: proxy ? proxy.urlFor(url) : url }));
    return { cluster, url, api, proxy, bank: bank(api.url), stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
