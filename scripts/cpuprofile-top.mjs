// The top frames of a V8 .cpuprofile (node --cpu-prof): self time by function and, with --by=file,
// by source file (node_modules grouped by package), as a Markdown table (docs/performance.md).
//   node scripts/cpuprofile-top.mjs PROFILE [--top=25] [--by=function|file|package]
import fs from 'node:fs';

const file = process.argv[2];
const top = Number(process.argv.find((a) => a.startsWith('--top='))?.slice(6) ?? 25);
const by = process.argv.find((a) => a.startsWith('--by='))?.slice(5) ?? 'function';
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map();
// timeDeltas[i] is the time before samples[i]: the sample is charged with the next delta.
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
}
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

function label(n) {
  const { functionName, url, lineNumber } = n.callFrame;
  const short = url.replace(/^file:\/\//, '').replace(/^.*?\/(node_modules|src|bench|dist)\//, '$1/');
  if (by === 'package') {
    const m = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
    if (m) return m[1];
    if (!url) return `(${functionName || 'native'})`;
    if (url.startsWith('node:')) return 'node core';
    return short.split('/').slice(0, 2).join('/');
  }
  if (by === 'file') return short || `(${functionName || 'native'})`;
  return `${functionName || '(anonymous)'} ${short ? `${short}:${lineNumber + 1}` : ''}`.trim();
}

const grouped = new Map();
for (const [id, us] of selfUs) {
  const key = label(byId.get(id));
  grouped.set(key, (grouped.get(key) ?? 0) + us);
}
const rows = [...grouped].sort((a, b) => b[1] - a[1]).slice(0, top);
console.log(`${file}: ${(total / 1e6).toFixed(2)} s sampled`);
console.log(`| self % | self ms | ${by} |`);
console.log('|---:|---:|---|');
for (const [k, us] of rows) console.log(`| ${((us / total) * 100).toFixed(1)} | ${(us / 1000).toFixed(0)} | ${k.replace(/\|/g, '\\|')} |`);
