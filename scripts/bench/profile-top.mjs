// Prints the top self-time functions of a V8 CPU profile (node --cpu-prof), as a share of all samples,
// or the top allocating functions of a sampling heap profile (.heapprofile), with the stacks under
// the replay's own code (src/) that led to them:
//   node scripts/bench/profile-top.mjs FILE.cpuprofile|FILE.heapprofile [count]
// The sessions bench writes one per replay child with BENCH_CPU_PROF=DIR or BENCH_HEAP_PROF=DIR.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [file, count = '15'] = process.argv.slice(2);
if (!file) {
  console.error('[mcp-golden] profile-top needs a profile: node scripts/bench/profile-top.mjs FILE.cpuprofile [count]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const where = ({ functionName, url, lineNumber }) =>
  `${functionName || '(anonymous)'} ${url ? `${relative(process.cwd(), url.replace(/^file:\/\//, ''))}:${lineNumber + 1}` : ''}`.trim();
if (profile.head) {
  heapTop(profile, Number(count));
  process.exit(0);
}
const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map();
for (const [i, id] of profile.samples.entries()) {
  const node = byNode.get(id);
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url ? `${relative(process.cwd(), url.replace(/^file:\/\//, ''))}:${lineNumber + 1}` : '';
  const key = `${functionName || '(anonymous)'} ${where}`.trim();
  selfUs.set(key, (selfUs.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const idle = selfUs.get('(idle)') ?? 0;
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled, ${(((total - idle) / total) * 100).toFixed(1)} % busy`);
console.log('self % of busy | self ms | function');
for (const [key, us] of [...selfUs]
  .filter(([k]) => k !== '(idle)')
  .sort((a, b) => b[1] - a[1])
  .slice(0, Number(count))) {
  console.log(
    `${((us / (total - idle)) * 100).toFixed(1).padStart(13)} % | ${(us / 1000).toFixed(0).padStart(7)} | ${key}`,
  );
}

/** A sampling heap profile: bytes allocated by function (self), and by the nearest frame of dist/ that called it. */
function heapTop(profile, count) {
  const self = new Map();
  const ours = new Map();
  let total = 0;
  const walk = (node, oursFrame) => {
    const key = where(node.callFrame);
    const mine = node.callFrame.url.includes('/dist/') ? key : oursFrame;
    if (node.selfSize > 0) {
      total += node.selfSize;
      self.set(key, (self.get(key) ?? 0) + node.selfSize);
      ours.set(mine ?? '(no frame of ours)', (ours.get(mine ?? '(no frame of ours)') ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, mine);
  };
  walk(profile.head, undefined);
  const print = (title, map) => {
    console.log(title);
    for (const [key, bytes] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count)) {
      console.log(
        `${((bytes / total) * 100).toFixed(1).padStart(6)} % | ${(bytes / 2 ** 20).toFixed(2).padStart(7)} MB | ${key}`,
      );
    }
  };
  console.log(`${file}: ${(total / 2 ** 20).toFixed(1)} MB sampled`);
  print('by allocating function (self):', self);
  print('by the nearest calling frame of ours (dist/):', ours);
}
