/**
 * The direction of the server's layers, checked by `npm run lint` (adr/0014-layers.md).
 *
 *   app.ts, main.ts, serveApi.ts, cli/  (composition: may import every layer)
 *          │
 *        http/            Express only: the router, authentication, request shape, answers
 *          │
 *        domain/          the bank's rules and the operations' handlers
 *          │
 *        data/            the one door to the database (families behind their index.ts)
 *
 *   sandbox/          API_SANDBOX only (adr/0044): composed by app.ts, imported by no layer
 *
 *   request/ errors/ contract/   neutral: what every layer needs about "the current
 *                                request", its problems and the handler types; they
 *                                import no layer (request/ may name errors/' types).
 *   config.ts, metrics.ts,       importable by every layer (metrics.ts: one line per
 *   generated/                   event, adr/0017).
 *
 * A layer may import the layers below it and the neutral modules, never one above it,
 * and no module reaches itself again through its imports (no circle, not even through a
 * family's index.ts or a type-only import: a reader follows the imports one way down).
 * Nothing in any workspace's src/ (tests aside) imports a test folder, the test-support
 * workspace or a devDependency.
 */
const server = '^server/src/';
const test = '\\.test\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'No import circle: each module is read before the ones that import it. A family\'s index.ts re-exports its files, so a family that imports another\'s index while that one imports it back closes a circle; a type two families share sits beside them (server/src/data/databaseKind.ts).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-not-to-http',
      comment: 'The domain never sees Express or the http layer: the router hands it plain typed values (contract/).',
      severity: 'error',
      from: { path: `${server}domain/` },
      to: { path: [`${server}http/`, '^node_modules/(express|@types/express|express-openapi-validator|helmet|pino-http)/'] },
    },
    {
      name: 'data-not-to-domain-or-http',
      comment: 'The data layer is the bottom: it never imports the domain or the http layer (nor Express).',
      severity: 'error',
      from: { path: `${server}data/` },
      to: { path: [`${server}(domain|http|contract)/`, '^node_modules/(express|@types/express)/'] },
    },
    {
      name: 'neutral-imports-no-layer',
      comment: 'request/, errors/ and contract/ are what every layer needs; they import none of http/, domain/, data/ (nor app.ts).',
      severity: 'error',
      from: { path: `${server}(request|errors|contract)/` },
      to: { path: [`${server}(http|domain|data)/`, `${server}(app|main|serveApi)\\.ts$`, '^node_modules/(express|@types/express)/'] },
    },
    {
      name: 'errors-and-contract-stand-alone',
      comment: 'errors/ and contract/ import neither each other nor request/; request/ may name the problem extras of errors/.',
      severity: 'error',
      from: { path: `${server}(errors|contract)/` },
      to: { path: `${server}(request|errors|contract)/`, pathNot: `${server}$1/` },
    },
    {
      name: 'layers-not-to-composition',
      comment: 'Only the entries (main.ts, serveApi.ts) and the tests compose the app: no layer imports app.ts, main.ts, serveApi.ts or the CLIs.',
      severity: 'error',
      from: { path: `${server}(http|domain|data|request|errors|contract)/`, pathNot: test },
      to: { path: [`${server}(app|main|serveApi)\\.ts$`, `${server}cli/`] },
    },
    {
      name: 'data-family-through-its-index',
      comment: 'A data family (data/<family>/) is imported from outside the data layer through its index.ts only.',
      severity: 'error',
      from: { pathNot: `${server}data/[^/]+/` },
      to: { path: `${server}data/[^/]+/[^/]+$`, pathNot: `${server}data/[^/]+/index\\.ts$` },
    },
    {
      name: 'data-family-to-family-through-index',
      comment: 'One data family imports another through its index.ts only; inside a family, files import each other directly.',
      severity: 'error',
      from: { path: `${server}data/([^/]+)/` },
      to: { path: `${server}data/[^/]+/[^/]+$`, pathNot: [`${server}data/$1/`, `${server}data/[^/]+/index\\.ts$`] },
    },
    {
      name: 'src-not-to-tests',
      comment: 'Code in a src/ (tests aside) never imports a test folder, a test-support package or a test file.',
      severity: 'error',
      // test-support/src/ is test code itself (the shared helpers' workspace).
      from: { path: '^[^/]+/src/', pathNot: [test, '^test-support/'] },
      to: { path: ['(^|/)test/', '(^|/)test-support/', '^contract-tests/', '(^|/)support/', test] },
    },
    {
      name: 'sandbox-only-from-composition',
      comment: 'sandbox/ (API_SANDBOX, adr/0044) is composed in app.ts only: no layer knows it, so production paths run unchanged.',
      severity: 'error',
      from: { path: `${server}(http|domain|data|request|errors|contract)/` },
      to: { path: `${server}sandbox/` },
    },
    {
      name: 'client-stands-alone',
      comment: '@tidewater/client (client/) is what an integrator runs: it imports the spec\'s types and openapi-fetch, no tier and no shared contract code.',
      severity: 'error',
      from: { path: '^client/src/', pathNot: test },
      to: { path: ['^(server|bff|web-vue|contract|contract-tests|bench)/'] },
    },
    {
      name: 'contract-imports-no-tier',
      comment: 'contract/ is what the tiers share: it imports none of server/, bff/, web-vue/ (they import it).',
      severity: 'error',
      from: { path: '^contract/src/' },
      to: { path: '^(server|bff|web-vue)/' },
    },
    {
      name: 'spa-uses-browser-safe-contract',
      comment: "The SPA runs in a browser: of contract/ it imports only the entries without Node (not src/http/).",
      severity: 'error',
      from: { path: '^web-vue/src/' },
      to: { path: '^contract/src/http/' },
    },
    {
      name: 'otel-sdk-in-one-module',
      comment: 'Only contract/src/otel.ts imports OpenTelemetry (adr/0018): the SDK is loaded when OTLP export is on, never otherwise.',
      severity: 'error',
      from: { pathNot: ['^contract/src/otel\\.ts$', test] },
      to: { path: '^node_modules/@opentelemetry/' },
    },
    {
      name: 'otel-loaded-on-demand',
      comment: 'contract/src/otel.ts is imported dynamically only (http/tracing.ts, when OTEL_EXPORTER_OTLP_ENDPOINT is set), so the SDK costs nothing when export is off.',
      severity: 'error',
      from: {},
      to: { path: '^contract/src/otel\\.ts$', dependencyTypesNot: ['dynamic-import'] },
    },
    {
      name: 'src-not-to-dev-dependencies',
      comment: "Code in a src/ (tests aside) runs in production: it imports no devDependency.",
      severity: 'error',
      from: { path: '^(server|bff)/src/', pathNot: test },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules'] },
    exclude: { path: ['/generated/', '(^|/)dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.json', '.vue'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
