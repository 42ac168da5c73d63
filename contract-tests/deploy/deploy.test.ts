/**
 * The deployable images and docker-compose.yml, checked by what runs here: there is no
 * Docker engine on the build machines (adr/0020). The real files must show no problem
 * (and docker-compose.yml must hold to the Compose Specification's schema);
 * each broken variant must show the problem it has, so the checks can fail; and each
 * image's HEALTHCHECK command is run with node against a server that answers 200, then 503.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namesTheCodeReads } from './codeNames.ts';
import { composeProblems, type ComposeContext } from './compose.ts';
import { composeSchemaErrors } from './composeSchema.ts';
import { dockerfileProblems, execForm, parseDockerfile } from './dockerfile.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string) => readFileSync(join(repoRoot, file), 'utf8');

/**
 * Names and files a branch built alongside this one adds before it is merged (empty: every
 * branch is in). A pending name the code already reads, or a pending file that exists,
 * fails the test below, so an entry cannot outlive its merge.
 */
const pendingNames: Record<'api' | 'bff', readonly string[]> = {
  api: [],
  bff: [],
};
const pendingFiles: readonly string[] = [];

const api = namesTheCodeReads(repoRoot, 'api');
const bff = namesTheCodeReads(repoRoot, 'bff');
const context: ComposeContext = { repoRoot, reads: { api: api.names, bff: bff.names }, pendingNames, pendingFiles };
const compose = read('docker-compose.yml');
const envExample = read('.env.example');
const dockerfiles = ['server/Dockerfile', 'bff/Dockerfile'] as const;

describe('the names the code reads', () => {
  it('finds the config tables and what the entry reads', () => {
    expect(api.unread).toEqual([]);
    expect(bff.unread).toEqual([]);
    for (const name of ['DATABASE_URL', 'DATABASE_REPLICA_URL', 'JWT_SECRET', 'API_PORT', 'REQUEST_DEADLINE_MS', 'LOG_LEVEL']) expect(api.names).toContain(name);
    for (const name of ['BFF_SESSION_DATABASE_URL', 'SESSION_SECRET', 'API_URL', 'BFF_PORT', 'NODE_ENV']) expect(bff.names).toContain(name);
    expect(bff.names).not.toContain('JWT_SECRET');
  });

  it('holds no pending-merge name or file that main already has (delete it from the lists)', () => {
    expect(pendingNames.api.filter((name) => api.names.has(name))).toEqual([]);
    expect(pendingNames.bff.filter((name) => bff.names.has(name))).toEqual([]);
    expect(pendingFiles.filter((file) => { try { read(file); return true; } catch { return false; } })).toEqual([]);
  });
});

describe('docker-compose.yml and .env.example', () => {
  it('show no problem', () => {
    expect(composeProblems(compose, envExample, context)).toEqual([]);
  });

  it('hold to the Compose Specification schema, which fails a misspelt key', () => {
    expect(composeSchemaErrors(compose)).toEqual([]);
    expect(composeSchemaErrors(compose.replace('    expose: ["8081", "9464"]', '    exposes: ["8081", "9464"]'))).toEqual(['/services/api: must NOT have additional properties (exposes)']);
    expect(composeSchemaErrors(compose.replace('condition: service_healthy', 'condition: healthy'))).not.toEqual([]);
  });

  it.each([
    ['a variable the code does not read', ['      API_URL: http://api:8081\n', '      API_URL: http://api:8081\n      BFF_UPSTREAM_TIMEOUT: "1000"\n'], 'bff sets BFF_UPSTREAM_TIMEOUT, which its code does not read'],
    ['a BFF variable on the API', ['      DATABASE_REPLICA_FALLBACK: "1"\n', '      DATABASE_REPLICA_FALLBACK: "1"\n      SESSION_SECRET: ${SESSION_SECRET:?}\n'], 'api sets SESSION_SECRET, which its code does not read'],
    ['a literal secret', [/JWT_SECRET: \$\{JWT_SECRET:\?[^}]*\}/, 'JWT_SECRET: change-me-in-production'], 'api gives JWT_SECRET a value in the file; take it from .env as ${JWT_SECRET:?…}'],
    ['a secret that may be empty', [/SESSION_SECRET: \$\{SESSION_SECRET:\?[^}]*\}/, 'SESSION_SECRET: ${SESSION_SECRET}'], 'bff takes the secret SESSION_SECRET without :? (compose would start with it empty)'],
    ['a password in a URL', [/BFF_SESSION_DATABASE_URL: postgres:\/\/tidewater:\$\{TIDEWATER_DB_PASSWORD:\?[^}]*\}@/, 'BFF_SESSION_DATABASE_URL: postgres://tidewater:tidewater@'], "bff's BFF_SESSION_DATABASE_URL has a password in the file; take it from .env as ${NAME:?…}"],
    ['a literal replication password', [":'replication_password'", "'replicator'"], 'config primary-init writes a literal password'],
    ['a variable .env.example does not name', [/GRAFANA_ADMIN_PASSWORD:\?/, 'GRAFANA_PASSWORD:?'], 'docker-compose.yml uses ${GRAFANA_PASSWORD}, which .env.example does not name'],
    ['an asynchronous standby', ["synchronous_standby_names = 'FIRST 1 (db_standby, db_primary)'", "synchronous_standby_names = ''"], `the primary's synchronous_standby_names ("") must name the standby's cluster_name (db_standby)`],
    ['a commit acknowledged locally', ["synchronous_commit = 'on'", "synchronous_commit = 'local'"], 'synchronous_commit = local acknowledges a commit the standby may not have'],
    ['a primary that waits the default 60 s for a stalled standby', [' -c wal_sender_timeout=10s', ''], "db-primary's wal_sender_timeout (unset) must be the drilled 10s of ops/patroni/node1.yml"],
    ['a standby that waits longer than the drill for its primary', ['-c wal_receiver_timeout=10s', '-c wal_receiver_timeout=60s'], "db-standby's wal_receiver_timeout (60s) must be the drilled 10s of ops/patroni/node1.yml"],
    ['one host in the primary URL', ['@db-primary:5432,db-standby:5432/', '@db-primary:5432/'], "api's DATABASE_URL must name db-primary and db-standby with target_session_attrs=read-write"],
    ['a published metrics port', ['      - "8080:8080"\n', '      - "8080:8080"\n      - "9465:9465"\n'], 'bff publishes the metrics port 9465:9465; metrics stay on the compose network'],
    ['Grafana on every interface', ['"127.0.0.1:3000:3000"', '"3000:3000"'], 'grafana publishes 3000:3000 on every interface'],
    ['the source bind-mounted', ['    image: tidewater-api\n', '    image: tidewater-api\n    volumes:\n      - .:/app\n'], 'api mounts volumes; its image holds all it runs'],
    ['a mount of a missing file', ['./ops/prometheus.yml:', './ops/prometheus.yaml:'], 'prometheus mounts ./ops/prometheus.yaml, which is not in the repository'],
  ] as const)('fail on %s', (_, [from, to], problem) => {
    const broken = compose.replace(from, to);
    expect(broken).not.toBe(compose);
    expect(composeProblems(broken, envExample, context)).toContain(problem);
  });

  it.each([
    ['a value in .env.example', ['JWT_SECRET=\n', 'JWT_SECRET=change-me\n'], '.env.example gives JWT_SECRET a value; it must only name it'],
    ['a stale name in .env.example', ['GRAFANA_ADMIN_PASSWORD=\n', 'GRAFANA_ADMIN_PASSWORD=\nOLD_PASSWORD=\n'], '.env.example names OLD_PASSWORD, which docker-compose.yml does not use'],
    ['a name missing from .env.example', ['REPLICATION_PASSWORD=\n', ''], 'docker-compose.yml uses ${REPLICATION_PASSWORD}, which .env.example does not name'],
  ] as const)('fail on %s', (_, [from, to], problem) => {
    const broken = envExample.replace(from, to);
    expect(broken).not.toBe(envExample);
    expect(composeProblems(compose, broken, context)).toContain(problem);
  });

  it('.env stays out of git and out of every image', () => {
    expect(read('.gitignore').split('\n')).toContain('.env');
    expect(read('.dockerignore').split('\n')).toEqual(expect.arrayContaining(['.env', 'node_modules', '**/node_modules']));
  });
});

describe.each(dockerfiles)('%s', (file) => {
  const text = read(file);

  it('shows no problem', () => {
    expect(dockerfileProblems(repoRoot, file, text)).toEqual([]);
  });

  it.each([
    ['a root user', ['USER node', 'USER root'], `${file}: the runtime stage must run as a non-root USER (got root)`],
    ['no health check', ['HEALTHCHECK', '# HEALTHCHECK'], `${file}: the runtime stage needs a HEALTHCHECK with an exec-form CMD`],
    ['dev dependencies at run time', ['npm ci --omit=dev', 'npm ci'], `${file}: the runtime stage must install with npm ci --omit=dev -w <workspace>`],
    ['a source the repository lacks', ['COPY contract/ contract/', 'COPY contracts/ contract/'], `${file}: COPY contracts/: not in the repository`],
    ['a runtime copy the build stage never made', ['COPY --from=build /app/contract/src contract/src', 'COPY --from=build /app/contract/lib contract/lib'], `${file}: COPY --from=build contract/lib: not in the repository`],
    ['a workspace manifest left out', ['COPY --from=build /app/bench/package.json bench/\n', ''], `${file}: the runtime stage does not copy bench/package.json, which npm ci checks`],
    ['a node older than the one the project runs on', ['ARG NODE_IMAGE=node:24-', 'ARG NODE_IMAGE=node:20-'], `${file}: NODE_IMAGE runs Node 20, the project runs on Node 24`],
    ['tsx at run time', ['CMD ["node", "', 'CMD ["node", "--import", "tsx", "'], `${file}: the runtime stage names tsx, which production does not run`],
  ] as const)('fails on %s', (_, [from, to], problem) => {
    const broken = text.replace(from, to);
    expect(broken).not.toBe(text);
    expect(dockerfileProblems(repoRoot, file, broken)).toContain(problem);
  });

  it('runs its TypeScript on node itself: neither the workspace nor its image carries tsx', () => {
    const workspace = file.split('/')[0] ?? '';
    const manifest = JSON.parse(read(`${workspace}/package.json`)) as { dependencies: Record<string, string>; scripts: Record<string, string> };
    expect(manifest.dependencies.tsx).toBeUndefined();
    expect(manifest.scripts.start).toBe('node src/main.ts');
  });
});

describe('the BFF image', () => {
  it('fails when the build stage does not build the SPA it copies', () => {
    const text = read('bff/Dockerfile');
    const broken = text.replace('npm run docs -w spec && npm run build -w web-vue', 'npm run docs -w spec');
    expect(dockerfileProblems(repoRoot, 'bff/Dockerfile', broken)).toContain('bff/Dockerfile: COPY --from=build web-vue/dist: the build stage never runs "npm run build -w web-vue", which makes it');
  });

  it('copies the SPA and docs from where the build writes them and the BFF reads them', () => {
    expect(JSON.parse(read('spec/package.json')).scripts.docs).toBe('node scripts/docs.mjs');
    // The page and the document beside it, both of which the BFF's image copies.
    expect(read('spec/scripts/docs.mjs')).toContain("path.join(docsDir, 'index.html')");
    expect(read('spec/scripts/docs.mjs')).toContain("path.join(docsDir, 'openapi.yaml')");
    expect(read('bff/Dockerfile')).toContain('COPY --from=build /app/spec/docs/openapi.yaml spec/docs/openapi.yaml');
    expect(read('web-vue/vite.config.ts')).toContain("outDir: 'dist'");
    expect(read('bff/src/config.ts')).toContain('`${repoRoot}web-vue/dist`');
    expect(read('bff/src/config.ts')).toContain('`${repoRoot}spec/docs/index.html`');
  });
});

/** Runs an image's HEALTHCHECK command (node -e …) with `env`; resolves its exit code. */
function runHealthcheck(file: string, env: Record<string, string>): Promise<number> {
  const stage = parseDockerfile(read(file)).at(-1);
  const healthcheck = stage?.instructions.filter((i) => i.keyword === 'HEALTHCHECK').at(-1);
  const [command, ...args] = execForm(healthcheck?.args ?? '') ?? [];
  if (command !== 'node') throw new Error(`${file}: the HEALTHCHECK runs ${command}, which the image may not have; use node`);
  return new Promise((resolve) => {
    execFile(process.execPath, args, { env: { ...process.env, ...env }, timeout: 10_000 }, (error) =>
      resolve(error ? (typeof error.code === 'number' ? error.code : -1) : 0),
    );
  });
}

describe.each([
  ['server/Dockerfile', 'API_PORT', '/api/health'],
  ['bff/Dockerfile', 'BFF_PORT', '/bff/health'],
] as const)('the HEALTHCHECK of %s', (file, portVariable, path) => {
  let status = 200;
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.statusCode = req.url === path ? status : 404;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it(`passes while ${path} answers 200 on ${portVariable}, fails on 503 and when nothing listens`, async () => {
    status = 200;
    expect(await runHealthcheck(file, { [portVariable]: String(port) })).toBe(0);
    status = 503;
    expect(await runHealthcheck(file, { [portVariable]: String(port) })).toBe(1);
    server.closeAllConnections();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    await closed;
    expect(await runHealthcheck(file, { [portVariable]: String(port) })).toBe(1);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  });
});
