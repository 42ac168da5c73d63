// Prints the top 15 frames of a .cpuprofile by self time, grouped by function + file.
// Usage: node bench/profile/topFrames.mjs FILE.cpuprofile [count]
import { readFileSync } from 'node:fs';

const [file, count = '15'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map();
const deltas = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[i + 1] ?? 0));
}
const groups = new Map();
let total = 0;
for (const [id, us] of selfUs) {
  const { callFrame } = byId.get(id);
  const where = callFrame.url ? callFrame.url.replace(/^file:\/\//, '').replace(/.*node_modules\//, 'nm/').replace(/.*\/wt-[^/]+\//, '') : '';
  const key = `${callFrame.functionName || '(anonymous)'}  ${where}${where ? `:${callFrame.lineNumber + 1}` : ''}`;
  groups.set(key, (groups.get(key) ?? 0) + us);
  total += us;
}
const idle = [...groups].filter(([k]) => k.startsWith('(idle)')).reduce((s, [, v]) => s + v, 0);
console.log(`total ${(total / 1e6).toFixed(2)} s sampled, busy ${((total - idle) / 1e6).toFixed(2)} s`);
for (const [key, us] of [...groups].filter(([k]) => !k.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, Number(count))) {
  console.log(`${((100 * us) / (total - idle)).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`);
}

// Self time by package (or by our own folder): where the CPU goes, coarsely.
const byPackage = new Map();
for (const [id, us] of selfUs) {
  const url = byId.get(id).callFrame.url;
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  const own = /\/wt-[^/]+\/([^/]+\/src\/[^/]+)/.exec(url) ?? /\/main\/([^/]+\/src\/[^/]+)/.exec(url);
  const key = m ? m[1] : own ? own[1] : url.startsWith('node:') ? 'node:' + url.slice(5).split('/')[1] : byId.get(id).callFrame.functionName || '(native)';
  if (key === '(idle)') continue;
  byPackage.set(key, (byPackage.get(key) ?? 0) + us);
}
console.log('by package:');
for (const [key, us] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, Number(count))) {
  console.log(`${((100 * us) / (total - idle)).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`);
}
