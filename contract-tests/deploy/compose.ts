/**
 * docker-compose.yml checked without a Docker engine (adr/0020): the problems that would
 * make the deployment wrong or unsafe, each named. The API and the BFF are built from
 * their Dockerfiles and set only variables their code reads; no secret has a value in the
 * file; every `${VAR}` is named in .env.example (which gives none a value); the standby is
 * synchronous, and its servers give up on a stalled peer as the Patroni drill's do
 * (`ops/patroni/node1.yml`'s wal_sender_timeout and wal_receiver_timeout); both of the API's
 * URLs name both database hosts; metrics stay on the compose network.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { Service } from './codeNames.ts';

interface ComposeService {
  image?: string;
  build?: { context?: string; dockerfile?: string };
  environment?: Record<string, string | number | boolean | null>;
  ports?: Array<string | number>;
  volumes?: Array<string | { source?: string }>;
  command?: string | string[];
}

interface ComposeFile {
  services?: Record<string, ComposeService>;
  configs?: Record<string, { content?: string }>;
}

/** What the check knows besides the files: the names each process reads, and what is not merged yet. */
export interface ComposeContext {
  repoRoot: string;
  reads: Record<Service, Set<string>>;
  /** Names another branch adds to the code; allowed on that service until merged. */
  pendingNames: Record<Service, readonly string[]>;
  /** Files another branch adds (bind-mount sources); allowed to be missing until merged. */
  pendingFiles: readonly string[];
}

const images: Record<Service, string> = { api: 'server/Dockerfile', bff: 'bff/Dockerfile' };
const secretName = /SECRET|PASSWORD|TOKEN|PRIVATE_KEY/;
/** A value compose must take from the env file: `${NAME:?message}`, which refuses to start while it is unset or empty. */
const requiredVariable = /^\$\{[A-Z_][A-Z0-9_]*:\?[^}]*\}$/;
const databaseServices = ['db-primary', 'db-standby'] as const;

/** Every `${NAME…}` in the text (compose's `$$` is a literal dollar, not a variable). */
function variablesUsed(text: string): Set<string> {
  return new Set([...text.matchAll(/(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1] ?? ''));
}

function hostsOf(url: string): string[] {
  const authority = /^postgres(?:ql)?:\/\/(?:[^@/]*@)?([^/?]*)/.exec(url)?.[1] ?? '';
  return authority.split(',').map((host) => host.replace(/:\d+$/, ''));
}

/** Every problem of docker-compose.yml (its text) against .env.example (its text); empty when none. */
export function composeProblems(composeText: string, envExampleText: string, context: ComposeContext): string[] {
  const problems: string[] = [];
  const compose = parse(composeText) as ComposeFile;
  const services = compose.services ?? {};

  for (const service of ['api', 'bff'] as const) {
    const spec = services[service];
    if (!spec) {
      problems.push(`service ${service} is missing`);
      continue;
    }
    if (spec.build?.dockerfile !== images[service] || (spec.build.context ?? '.') !== '.') problems.push(`${service} must be built from ${images[service]} with the repository as context`);
    if (spec.image?.startsWith('node:')) problems.push(`${service} runs a bare ${spec.image} image; it must run its own`);
    if (spec.volumes?.length) problems.push(`${service} mounts volumes; its image holds all it runs`);
    for (const name of Object.keys(spec.environment ?? {})) {
      const known = context.reads[service].has(name) || context.pendingNames[service].includes(name);
      if (!known) problems.push(`${service} sets ${name}, which its code does not read`);
    }
  }

  // No secret anywhere in the file: secret-named variables and the passwords in connection URLs come from .env.
  for (const [serviceName, spec] of Object.entries(services)) {
    for (const [name, value] of Object.entries(spec.environment ?? {})) {
      const text = String(value ?? '');
      if (secretName.test(name) && !requiredVariable.test(text)) problems.push(`${serviceName} gives ${name} a value in the file; take it from .env as \${${name}:?…}`);
      for (const [, password] of text.matchAll(/:\/\/[^:/@\s]+:([^@\s]*)@/g)) {
        if (!requiredVariable.test(password ?? '')) problems.push(`${serviceName}'s ${name} has a password in the file; take it from .env as \${NAME:?…}`);
      }
    }
  }
  for (const [name, config] of Object.entries(compose.configs ?? {})) {
    if (/PASSWORD\s+'[^']*'/i.test(config.content ?? '')) problems.push(`config ${name} writes a literal password`);
  }
  if (/change-?me|changeme/i.test(composeText)) problems.push('docker-compose.yml holds a change-me placeholder');
  for (const [serviceName, spec] of Object.entries(services)) {
    for (const variable of variablesUsed(JSON.stringify(spec.environment ?? {}))) {
      if (secretName.test(variable) && !new RegExp(`\\$\\{${variable}:\\?`).test(JSON.stringify(spec.environment))) problems.push(`${serviceName} takes the secret ${variable} without :? (compose would start with it empty)`);
    }
  }

  // .env.example names exactly the variables the file uses, and gives none a value.
  const example = new Map(
    envExampleText.split(/\r?\n/).filter((line) => /^[A-Za-z_]/.test(line)).map((line) => [line.split('=')[0] ?? '', line.slice(line.indexOf('=') + 1)] as const),
  );
  for (const variable of variablesUsed(composeText)) if (!example.has(variable)) problems.push(`docker-compose.yml uses \${${variable}}, which .env.example does not name`);
  for (const [name, value] of example) {
    if (!variablesUsed(composeText).has(name)) problems.push(`.env.example names ${name}, which docker-compose.yml does not use`);
    if (value.trim() !== '') problems.push(`.env.example gives ${name} a value; it must only name it`);
  }

  // A synchronous standby: the primary waits for the standby's cluster_name on every commit.
  const standbyName = /cluster_name=(\w+)/.exec([services['db-standby']?.command ?? ''].flat().join(' '))?.[1];
  const init = Object.values(compose.configs ?? {}).map((config) => config.content ?? '').join('\n');
  const waitsFor = /synchronous_standby_names\s*=\s*'([^']*)'/.exec(init)?.[1] ?? '';
  if (!standbyName || !waitsFor.split(/[\s,()]+/).includes(standbyName)) problems.push(`the primary's synchronous_standby_names ("${waitsFor}") must name the standby's cluster_name (${standbyName ?? 'unset'})`);
  const commitLevel = /synchronous_commit\s*=\s*'(\w+)'/.exec(init)?.[1] ?? 'on';
  if (!['on', 'remote_apply'].includes(commitLevel)) problems.push(`synchronous_commit = ${commitLevel} acknowledges a commit the standby may not have`);

  // The replication timeouts the Patroni drill proves (docs/operations.md): a stalled peer is let go as soon.
  const drilled = (parse(readFileSync(join(context.repoRoot, 'ops/patroni/node1.yml'), 'utf8')) as { bootstrap: { dcs: { postgresql: { parameters: Record<string, string> } } } }).bootstrap.dcs.postgresql.parameters;
  for (const [service, setting] of [['db-primary', 'wal_sender_timeout'], ['db-standby', 'wal_receiver_timeout']] as const) {
    const value = new RegExp(`-c ${setting}=(\\w+)`).exec([services[service]?.command ?? ''].flat().join(' '))?.[1];
    if (value !== drilled[setting]) problems.push(`${service}'s ${setting} (${value ?? 'unset'}) must be the drilled ${drilled[setting]} of ops/patroni/node1.yml`);
  }

  // Failover wiring (adr/0019): both hosts in both URLs, the primary by its role.
  const apiEnv = services.api?.environment ?? {};
  const wiring: Array<[string, string]> = [['DATABASE_URL', 'target_session_attrs=read-write'], ['DATABASE_REPLICA_URL', 'target_session_attrs=prefer-standby']];
  for (const [name, attribute] of wiring) {
    const url = String(apiEnv[name] ?? '');
    const hosts = hostsOf(url);
    if (!databaseServices.every((host) => hosts.includes(host)) || !url.includes(attribute)) problems.push(`api's ${name} must name ${databaseServices.join(' and ')} with ${attribute}`);
  }

  // Published ports: the BFF's 8080 for visitors; anything else only on 127.0.0.1; never a metrics port.
  for (const [serviceName, spec] of Object.entries(services)) {
    for (const port of spec.ports ?? []) {
      const text = String(port);
      if (/(^|:)946[45](\/|$)/.test(text)) problems.push(`${serviceName} publishes the metrics port ${text}; metrics stay on the compose network`);
      else if (!(serviceName === 'bff' && text === '8080:8080') && !text.startsWith('127.0.0.1:')) problems.push(`${serviceName} publishes ${text} on every interface`);
    }
  }

  // Bind mounts name files that exist (or that a branch being merged adds).
  for (const [serviceName, spec] of Object.entries(services)) {
    for (const volume of spec.volumes ?? []) {
      const source = typeof volume === 'string' ? volume.split(':')[0] ?? '' : volume.source ?? '';
      if (!source.startsWith('./')) continue;
      const path = source.slice(2);
      if (!existsSync(join(context.repoRoot, path)) && !context.pendingFiles.includes(path)) problems.push(`${serviceName} mounts ${source}, which is not in the repository`);
    }
  }
  return [...new Set(problems)];
}
