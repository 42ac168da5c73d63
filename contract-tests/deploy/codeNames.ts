/**
 * The environment variables each process reads, collected from its code rather than
 * written again here, so a renamed or removed setting makes docker-compose.yml's stale
 * name fail the deploy test (adr/0020):
 * - the name tables of server/src/config.ts (with its families in server/src/config/) and bff/src/config.ts (each quoted
 *   SCREAMING_SNAKE name) and what they read straight off `env` (DATABASE_URL, …);
 * - the timeout chain's names (contract/src/timeoutChain.ts), which both processes read;
 * - a short list of names read elsewhere, each checked to be read in the file it names.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The processes the images run. */
export type Service = 'api' | 'bff';

/** Names read outside the config tables: the file that reads each is checked. */
const readElsewhere: Record<Service, Array<{ name: string; file: string }>> = {
  api: [
    { name: 'LOG_LEVEL', file: 'contract/src/http/serverLogger.ts' },
    { name: 'LOG_FORMAT', file: 'contract/src/http/serverLogger.ts' },
    { name: 'VALIDATE_RESPONSES', file: 'server/src/serveApi.ts' },
    { name: 'OTEL_EXPORTER_OTLP_ENDPOINT', file: 'contract/src/http/tracing.ts' },
    { name: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', file: 'contract/src/http/tracing.ts' },
  ],
  bff: [
    { name: 'LOG_LEVEL', file: 'contract/src/http/serverLogger.ts' },
    { name: 'LOG_FORMAT', file: 'contract/src/http/serverLogger.ts' },
    { name: 'OTEL_EXPORTER_OTLP_ENDPOINT', file: 'contract/src/http/tracing.ts' },
    { name: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', file: 'contract/src/http/tracing.ts' },
  ],
};

/** Read by libraries, not our code: Express (and our BFF config) switch to production by it. */
const readByLibraries = ['NODE_ENV'];

const configFile: Record<Service, string> = { api: 'server/src/config.ts', bff: 'bff/src/config.ts' };

const quotedName = /['"]([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)['"]/g;
const envRead = /\benv(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g;

function namesIn(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((match) => match[1] ?? match[2] ?? '').filter(Boolean);
}

/** Every name `service` reads, and the names of the short list that its file does not read (should be none). */
export function namesTheCodeReads(repoRoot: string, service: Service): { names: Set<string>; unread: string[] } {
  const read = (file: string) => readFileSync(join(repoRoot, file), 'utf8');
  // A table's families, when it has them, sit in the folder of its name (server/src/config/).
  const familyDir = configFile[service].replace(/\.ts$/, '');
  const families = existsSync(join(repoRoot, familyDir)) ? readdirSync(join(repoRoot, familyDir)).filter((file) => file.endsWith('.ts')).map((file) => `${familyDir}/${file}`) : [];
  const config = [configFile[service], ...families].map(read).join('\n');
  const chain = read('contract/src/timeoutChain.ts');
  const names = new Set([
    ...namesIn(config, quotedName),
    ...namesIn(config, envRead),
    ...namesIn(chain, /\benv: '([A-Z][A-Z0-9_]*)'/g),
    ...readByLibraries,
  ]);
  const unread: string[] = [];
  for (const { name, file } of readElsewhere[service]) {
    if (namesIn(read(file), envRead).includes(name)) names.add(name);
    else unread.push(`${name} (${file})`);
  }
  return { names, unread };
}
