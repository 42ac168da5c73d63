/**
 * Which Node.js runs the project's scripts, said once at the start of each command a person or
 * CI types (the root package.json's `pre*` hooks), and one sentence instead of a stack trace
 * when it cannot run them.
 *
 * `npm install` brings Node.js 24 itself (the npm registry's `node` package, a devDependency), and
 * npm puts `node_modules/.bin` first on PATH for every script, so the scripts run on that Node
 * whatever the machine has (adr/0056). `node scripts/nodeVersion.cjs install` is the root
 * `preinstall`: it refuses an npm too old to install the workspaces at all.
 *
 * Written for any Node that can still start it (no `?.`, no `??`): the point is to speak on the
 * old ones.
 */
'use strict';
const path = require('path');

/** Node.js major the project runs on (adr/0053). */
const RUNTIME_MAJOR = 24;
/** npm major that understands workspaces and the lock file (lockfileVersion 3). */
const INSTALL_NPM_MAJOR = 7;

const major = (version) => Number(String(version).replace(/^v/, '').split('.')[0]);

if (process.argv[2] === 'install') {
  const agent = process.env.npm_config_user_agent || '';
  const npmVersion = (agent.match(/npm\/(\d+)/) || [])[1];
  if (npmVersion && major(npmVersion) < INSTALL_NPM_MAJOR) {
    console.error(
      `Tidewater cannot be installed with npm ${npmVersion} (Node ${process.version}): install Node.js 20 or later with its npm (Debian: apt-get install nodejs npm; or from nodejs.org), then run npm install again.`,
    );
    process.exit(1);
  }
  process.exit(0);
}

const ours = path.resolve(__dirname, '..', 'node_modules', 'node', 'bin', 'node');
const where = path.resolve(process.execPath).startsWith(path.dirname(ours))
  ? 'node_modules/.bin/node, installed by npm install'
  : `${process.execPath}, the first node on PATH`;
if (major(process.version) < RUNTIME_MAJOR) {
  console.error(
    `Tidewater runs on Node.js ${RUNTIME_MAJOR}, which npm install brings into node_modules/.bin, but this is Node ${process.version} (${where}): run npm install first, or put a Node.js ${RUNTIME_MAJOR} LTS first on PATH.`,
  );
  process.exit(1);
}
console.log(`[tidewater] Node.js ${process.version} (${where})`);
