/**
 * A Dockerfile read the way the deploy test needs it (no Docker engine here, adr/0020):
 * stages of instructions, and the problems that would make the image wrong or unsafe,
 * each named: a root user, no health check, a COPY of something neither the repository
 * nor the build stage has, a runtime that installs dev dependencies, or lacks a workspace
 * manifest that `npm ci` checks, or cannot run its CMD.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One instruction: its keyword (upper case) and the rest of its line, continuations joined. */
interface Instruction {
  keyword: string;
  args: string;
}

/** One stage: its name (`AS …`, else its index) and its instructions after FROM. */
export interface Stage {
  name: string;
  instructions: Instruction[];
}

/** Splits a Dockerfile into stages; comments and blank lines dropped. */
export function parseDockerfile(text: string): Stage[] {
  const lines = text.replace(/\\\r?\n/g, ' ').split(/\r?\n/).map((line) => line.trim());
  const stages: Stage[] = [];
  for (const line of lines) {
    if (line === '' || line.startsWith('#')) continue;
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (keyword.toUpperCase() === 'FROM') {
      stages.push({ name: /\sAS\s+(\S+)$/i.exec(args)?.[1] ?? String(stages.length), instructions: [] });
    } else if (keyword.toUpperCase() !== 'ARG' || stages.length > 0) {
      stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), args });
    }
  }
  return stages;
}

/** The JSON (exec) form of an instruction's arguments, or undefined for the shell form. */
export function execForm(args: string): string[] | undefined {
  const json = args.slice(args.indexOf('['));
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) && parsed.every((part) => typeof part === 'string') ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** What the build stage makes that the repository does not hold, and the command that makes it. */
const builtInBuildStage: Record<string, string> = {
  'spec/docs': 'npm run docs -w spec',
  'web-vue/dist': 'npm run build -w web-vue',
};

interface Copy {
  from: string | undefined;
  sources: string[];
  dest: string;
}

function copiesOf(stage: Stage): Copy[] {
  return stage.instructions
    .filter((instruction) => instruction.keyword === 'COPY')
    .map((instruction) => {
      const parts = instruction.args.split(/\s+/);
      const from = /^--from=(\S+)$/.exec(parts[0] ?? '')?.[1];
      const paths = parts.filter((part) => !part.startsWith('--'));
      return { from, sources: paths.slice(0, -1), dest: paths.at(-1) ?? '' };
    });
}

const normalise = (path: string) => path.replace(/^\.\//, '').replace(/^\/app\//, '').replace(/\/+$/, '');

/** Every problem of the Dockerfile at `file` (relative to `repoRoot`, the build context); empty when none. */
export function dockerfileProblems(repoRoot: string, file: string, text = readFileSync(join(repoRoot, file), 'utf8')): string[] {
  const problems: string[] = [];
  const stages = parseDockerfile(text);
  const runtime = stages.at(-1);
  const build = stages.find((stage) => stage.name === 'build');
  if (!runtime || !build || stages.length < 2) return [`${file}: wants a build stage named "build" and a runtime stage after it`];
  const last = (keyword: string) => runtime.instructions.filter((instruction) => instruction.keyword === keyword).at(-1);
  const user = last('USER')?.args.trim();
  if (!user || /^(root|0)(:|$)/.test(user)) problems.push(`${file}: the runtime stage must run as a non-root USER (got ${user ?? 'none'})`);
  const healthcheck = last('HEALTHCHECK');
  if (!healthcheck || !execForm(healthcheck.args)?.length) problems.push(`${file}: the runtime stage needs a HEALTHCHECK with an exec-form CMD`);
  if (!last('EXPOSE')) problems.push(`${file}: the runtime stage must EXPOSE its port`);
  if (!runtime.instructions.some((i) => i.keyword === 'ENV' && /\bNODE_ENV=production\b/.test(i.args))) problems.push(`${file}: the runtime stage must set NODE_ENV=production`);
  const runs = (stage: Stage) => stage.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);
  const install = runs(runtime).find((args) => /\bnpm ci\b/.test(args));
  const workspace = /\s-w\s+(\S+)/.exec(install ?? '')?.[1];
  if (!install || !/--omit=dev\b/.test(install) || !workspace) problems.push(`${file}: the runtime stage must install with npm ci --omit=dev -w <workspace>`);

  // Sources: the build stage copies from the context, the runtime stage from the build stage.
  const buildCopies = copiesOf(build);
  for (const { from, sources } of buildCopies) {
    if (from) problems.push(`${file}: the build stage copies from ${from}; only the context is expected`);
    for (const source of sources) if (!existsSync(join(repoRoot, source))) problems.push(`${file}: COPY ${source}: not in the repository`);
  }
  const copiedIntoBuild = buildCopies.flatMap(({ sources, dest }) =>
    sources.map((source) => (dest.endsWith('/') && !source.endsWith('/') ? normalise(dest + source.split('/').pop()) : normalise(dest === './' ? source : dest))),
  );
  const buildRuns = runs(build).join(' && ');
  const runtimeCopies = copiesOf(runtime);
  for (const { from, sources } of runtimeCopies) {
    if (from !== 'build') {
      problems.push(`${file}: the runtime stage copies ${sources.join(' ')} from ${from ?? 'the context'}; only from the build stage is expected`);
      continue;
    }
    for (const source of sources.map(normalise)) {
      const made = Object.entries(builtInBuildStage).find(([path]) => source === path || source.startsWith(`${path}/`));
      if (made) {
        if (!buildRuns.includes(made[1])) problems.push(`${file}: COPY --from=build ${source}: the build stage never runs "${made[1]}", which makes it`);
        continue;
      }
      const copied = copiedIntoBuild.some((path) => path === '' || source === path || source.startsWith(`${path}/`));
      if (!copied) problems.push(`${file}: COPY --from=build ${source}: the build stage never copies it`);
      if (!existsSync(join(repoRoot, source))) problems.push(`${file}: COPY --from=build ${source}: not in the repository`);
    }
  }

  // npm ci checks the lock against every workspace's manifest: all must be in the runtime stage before it.
  const root = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { workspaces: string[] };
  const runtimeSources = runtimeCopies.flatMap(({ sources }) => sources.map(normalise));
  for (const manifest of ['package.json', 'package-lock.json', ...root.workspaces.map((w) => `${w}/package.json`)]) {
    if (!runtimeSources.includes(manifest)) problems.push(`${file}: the runtime stage does not copy ${manifest}, which npm ci checks`);
  }

  // The CMD: `node <entry>.ts`, Node stripping the types itself (adr/0053): no loader at run time.
  const cmd = execForm(last('CMD')?.args ?? '') ?? [];
  const entry = cmd.at(-1) ?? '';
  if (!runtimeSources.some((source) => entry.startsWith(`${source}/`) || entry === source)) problems.push(`${file}: CMD runs ${entry || 'nothing'}, which the runtime stage does not copy`);
  if (cmd.length !== 2 || cmd[0] !== 'node') problems.push(`${file}: CMD must be ["node", "<entry>.ts"] (Node runs the TypeScript itself), got ${JSON.stringify(cmd)}`);
  if (runtime.instructions.some((i) => /\btsx\b/.test(i.args))) problems.push(`${file}: the runtime stage names tsx, which production does not run`);

  // The base image's Node: at least the one the project runs on (the `node` devDependency that npm
  // install brings, adr/0056), where type stripping is on.
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { devDependencies?: { node?: string } };
  const wantedMajor = Number(/(\d+)/.exec(manifest.devDependencies?.node ?? '')?.[1] ?? Number.NaN);
  const image = /^ARG\s+NODE_IMAGE=node:(\d+)\b/m.exec(text);
  if (!image) problems.push(`${file}: wants ARG NODE_IMAGE=node:<major>-… before the first FROM`);
  else if (!(Number(image[1]) >= wantedMajor)) problems.push(`${file}: NODE_IMAGE runs Node ${image[1]}, the project runs on Node ${wantedMajor}`);
  return problems;
}
