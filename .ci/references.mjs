#!/usr/bin/env node
/**
 * `npm run lint:references`: no comment, doc or Markdown page points at a record or a file
 * that does not exist. Checks, in every tracked source and document:
 *
 * - `adr/NNNN` (and `ADR-NNNN`): an ADR with that number exists in adr/;
 * - "ADR decision N": never (no record is numbered so; name the ADR instead);
 * - a document named bare (`README.md`): a tracked document has that name;
 * - a path to a file (`server/src/config.ts`, `money/runMoneySend.ts`, a Markdown link):
 *   it exists beside the file, or some tracked file's path ends with it, or git ignores it
 *   (a build's or a run's output); an ADR may also name a file the history once held. In
 *   code, only paths in comments are read.
 *
 * Prints each dangling reference as `file:line: what` and exits 1 when there is one.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** What is read: sources and documents, not generated files, lock files or recorded results. */
const checked = /\.(ts|mts|vue|mjs|cjs|js|md|ya?ml|sh)$/;
const skipped = /(^|\/)(generated|node_modules|results|reports)\/|package-lock\.json$/;

const adrNumbers = new Set(readdirSync(join(root, 'adr')).map((name) => /^(\d{4})-/.exec(name)?.[1]).filter(Boolean));

/** A path-like token: folders and a file with an extension we keep in the repository. */
const pathToken = /(?<![\w@$/.-])((?:\.{1,2}\/)*(?:[\w.-]+\/)+[\w.-]+\.(?:ts|mts|vue|mjs|cjs|js|json|md|ya?ml|sql|prisma|sh|svg|html))(?![\w/-])/g;
const markdownLink = /\]\(([^)\s#]+)(?:#[^)]*)?\)/g;

/** Every tracked file, for a path named from inside its folder (`money/moneyStatement.ts`). */
const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);

/** Paths git ignores are made by a build or a run (the docs' HTML, results): they may be named. */
function ignoredByGit(path) {
  try {
    execFileSync('git', ['check-ignore', '-q', '--no-index', path], { cwd: root });
    return true;
  } catch {
    return false;
  }
}

/** Every path the history ever held: an ADR records its day, and may name a file since deleted. */
let everTracked;
function onceTracked(reference) {
  // A shallow clone has no history to ask (null): an ADR's old paths cannot be told from typos there.
  if (everTracked === undefined) {
    const shallow = execFileSync('git', ['rev-parse', '--is-shallow-repository'], { cwd: root, encoding: 'utf8' }).trim() === 'true';
    everTracked = shallow ? null : new Set(execFileSync('git', ['log', '--all', '--format=', '--name-only'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).split('\n').filter(Boolean));
  }
  if (everTracked === null) return true;
  for (const path of everTracked) if (path === reference || path.endsWith(`/${reference}`)) return true;
  return false;
}

function exists(reference, file) {
  if (existsSync(join(root, dirname(file), reference))) return true;
  if (/^\.\.?\//.test(reference)) return ignoredByGit(join(dirname(file), reference));
  if (tracked.some((path) => path === reference || path.endsWith(`/${reference}`))) return true;
  // A package's own file (`ajv/dist/2020.js`), or an output a build or a run makes.
  const workspace = file.split('/')[0];
  if (existsSync(join(root, 'node_modules', reference)) || ignoredByGit(reference) || ignoredByGit(join(workspace, reference))) return true;
  return file.startsWith('adr/') && onceTracked(reference);
}

/** The dangling references of one file's text, as [line, what]. */
export function danglingIn(file, text) {
  const found = [];
  const markdown = file.endsWith('.md');
  // A test names the files it writes itself; its ADR references are still checked.
  const namesItsOwnFiles = /\.(test|spec)\.ts$/.test(file);
  text.split('\n').forEach((line, index) => {
    const at = index + 1;
    for (const match of line.matchAll(/\badr\/(\d{4})|\bADR-(\d{4})\b/g)) {
      const number = match[1] ?? match[2];
      if (!adrNumbers.has(number)) found.push([at, `${match[0]}: no such ADR in adr/`]);
    }
    for (const match of line.matchAll(/\bADR decisions? \d+/g)) found.push([at, `"${match[0]}": name the ADR (adr/NNNN)`]);
    // In code, paths in comments only: an import or a string is the compiler's to check.
    const prose = markdown || !/\.(ts|mts|vue|mjs|cjs|js)$/.test(file) || /^\s*(\*|\/\/|\/\*|<!--)/.test(line);
    const paths = prose ? [...line.matchAll(pathToken)].map((match) => match[1]) : [];
    if (markdown) paths.push(...[...line.matchAll(markdownLink)].map((match) => match[1]).filter((link) => !/^[a-z]+:|^\//.test(link)));
    // A document named bare (`README.md`): some tracked document has that name.
    for (const match of prose ? line.matchAll(/(?<![\w/.-])([\w-]+\.md)\b/g) : []) {
      if (!tracked.some((path) => path === match[1] || path.endsWith(`/${match[1]}`))) found.push([at, `${match[1]}: no such document`]);
    }
    for (const reference of namesItsOwnFiles ? [] : new Set(paths)) {
      if (/^https?:|\/\//.test(reference) || reference.includes('node_modules/')) continue;
      if (!exists(reference, file)) found.push([at, `${reference}: no such file`]);
    }
  });
  return found;
}

function main() {
  const files = tracked.filter((file) => checked.test(file) && !skipped.test(file) && existsSync(join(root, file)));
  let dangling = 0;
  for (const file of files) {
    for (const [line, what] of danglingIn(file, readFileSync(join(root, file), 'utf8'))) {
      console.log(`${file}:${line}: ${what}`);
      dangling += 1;
    }
  }
  if (dangling > 0) {
    console.log(`${dangling} dangling reference(s) in ${files.length} files`);
    process.exit(1);
  }
  console.log(`references: ${files.length} files, none dangling`);
}

if (relative(process.argv[1] ?? '', fileURLToPath(import.meta.url)) === '') main();
