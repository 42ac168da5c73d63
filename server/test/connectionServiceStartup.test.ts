/**
 * The API takes its connection string from a connection service and nothing else: no
 * DATABASE_URL, a real local HTTP service that answers the throwaway cluster's URL after
 * one transient 503, and a real PostgreSQL behind it.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiProcess } from '@tidewater/test-support/apiProcess';
import { call } from '@tidewater/test-support/httpClient';
import { startPrimary, type PgCluster } from '@tidewater/test-support/pgCluster';

describe('the API started from a connection service', () => {
  let cluster: PgCluster;
  let service: Server;
  let api: ApiProcess;
  const seen: Array<{ url: string; authorization: string | undefined }> = [];

  beforeAll(async () => {
    cluster = await startPrimary();
    service = createServer((req, res) => {
      seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
      if (seen.length === 1) return void res.writeHead(503).end('warming up');
      if (req.url !== '/connections/bank-primary') return void res.writeHead(404).end('no such connection');
      res.writeHead(200, { 'content-type': 'text/plain' }).end(cluster.urlFor('tidewater'));
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const port = (service.address() as { port: number }).port;
    api = await startApi({
      DATABASE_URL: '',
      DATA_DIR: '/nonexistent/should-not-be-used',
      DB_CONNECTION_API_URL: `http://127.0.0.1:${port}`,
      DB_CONNECTION_NAME: 'bank-primary',
      DB_CONNECTION_API_TOKEN: 'service-token-123',
      DB_CONNECTION_BACKOFF_MS: '50,50,50',
    });
  });
  afterAll(async () => {
    await api?.stop();
    service?.close();
    await cluster?.destroy();
  });

  it('retrieves the URL (retrying the 503 once), migrates PostgreSQL and serves', async () => {
    expect(seen.map((s) => s.url)).toEqual(['/connections/bank-primary', '/connections/bank-primary']);
    expect(seen.every((s) => s.authorization === 'Bearer service-token-123')).toBe(true);
    expect((await call(api.url, 'GET', '/api/ready')).status).toBe(200);
    const visitor = { email: 'svc@example.com', password: 'correct horse battery', displayName: 'Svc', handle: 'svc_user', pin: '1357' };
    expect((await call(api.url, 'POST', '/api/auth/register', { body: visitor })).status).toBe(201);
    // The row is in the cluster the service named, not in some other database.
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: cluster.urlFor('tidewater') });
    await client.connect();
    const { rows } = await client.query('SELECT handle FROM users');
    await client.end();
    expect(rows).toEqual([{ handle: 'svc_user' }]);
  });

  it('never writes the token or the connection string to its log', () => {
    const log = api.logLines.join('\n');
    expect(log).not.toContain('service-token-123');
    expect(log).not.toContain(cluster.urlFor('tidewater'));
    expect(log).toMatch(/connection service/);
  });
});
