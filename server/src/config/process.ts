/**
 * One family of the server's table (config.ts): each default with its reason and its environment variable.
 */
/** Where the API listens, what it accepts, where its data and metrics live, how many workers it runs. */
export const processDefaults = {
  /** 100 kB (BODY_LIMIT_BYTES): every request body of this API is small; larger is 413. */
  bodyLimitBytes: 100_000,
  /** 8081 (API_PORT). */
  apiPort: 8081,
  /** 127.0.0.1 (API_HOST): the API is reached through the BFF; containers set 0.0.0.0. */
  apiHost: '127.0.0.1',
  /** 127.0.0.1 (API_METRICS_HOST): `/metrics` is for the operator's Prometheus beside the API, never the public (adr/0017). */
  apiMetricsHost: '127.0.0.1',
  /** 9464 (API_METRICS_PORT): `/metrics` on a port of its own, never the API's; 0 switches it off. */
  apiMetricsPort: 9464,
  /** loopback (API_TRUST_PROXY): whose X-Forwarded-For names the client (Express's `trust proxy`): the BFF beside it; a container sets the BFF's network. */
  apiTrustProxy: 'loopback',
  /** ./.data (DATA_DIR): the embedded database's directory when DATABASE_URL is unset. */
  dataDir: './.data',
  /**
   * 0 = the number of cores, `os.availableParallelism()` (API_WORKERS): API processes under one
   * primary (node:cluster, serveApi.ts; adr/0016). Always 1 on the embedded PGlite (one process owns its files).
   */
  apiWorkers: 0,
} as const;

/** The environment variable of each of processDefaults' values. */
export const processEnvNames: { [K in keyof typeof processDefaults]?: string } = {
  bodyLimitBytes: 'BODY_LIMIT_BYTES',
  apiPort: 'API_PORT',
  apiHost: 'API_HOST',
  apiMetricsHost: 'API_METRICS_HOST',
  apiMetricsPort: 'API_METRICS_PORT',
  apiTrustProxy: 'API_TRUST_PROXY',
  dataDir: 'DATA_DIR',
  apiWorkers: 'API_WORKERS',
};
