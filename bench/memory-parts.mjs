// A diagnostic preload, not part of the server: where a running server's resident memory is, part by
// part, once a second (docs/performance.md §9). Run the traffic bench with it:
//   BENCH_NODE_ARGS="--max-semi-space-size=2 --heap-growing-percent=20 --import ./bench/memory-parts.mjs" npm run bench -- traffic
// Each second one JSON line goes to $MEMORY_PARTS_DIR/parts-PID.jsonl (default /tmp), in MB:
//   v8: the V8 heap's physical size (oldUsed: the old space's live and not yet collected objects);
//   wasm: PGlite's WASM memory, resident (the mapping whose size is its byteLength);
//   arenas: glibc's per-thread malloc arenas (64 MB-aligned mappings);
//   native: every other anonymous mapping minus the V8 heap (DuckDB's jemalloc, large mallocs);
//   brk, node, libduckdb, files: the main malloc heap and the file-backed pages;
//   duckdb: DuckDB's own account (duckdb_memory(): its buffer manager only).
// kill -USR2 PID adds the largest mappings to the file.
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { DuckDBInstance } from '@duckdb/node-api';
import { PGlite } from '@electric-sql/pglite';

const MB = 1048576;
const ARENA = 64 * MB;
const file = path.join(process.env.MEMORY_PARTS_DIR ?? '/tmp', `parts-${process.pid}.jsonl`);

let pglite;
let duckdb;
let duckdbConn;
let duckdbMb;
const pgliteCreate = PGlite.create;
PGlite.create = async function (...args) {
  const db = await pgliteCreate.apply(this, args);
  pglite ??= db;
  return db;
};
const duckdbCreate = DuckDBInstance.create;
DuckDBInstance.create = async function (...args) {
  const instance = await duckdbCreate.apply(this, args);
  if (!duckdb && String(args[0]).endsWith('.duckdb')) duckdb = instance;
  return instance;
};

function mappings() {
  const out = [];
  let cur;
  for (const line of fs.readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (m) {
      cur = { start: Number.parseInt(m[1], 16), end: Number.parseInt(m[2], 16), perm: m[3], name: m[4] || '[anon]', rss: 0 };
      out.push(cur);
      continue;
    }
    const rss = /^Rss:\s+(\d+)/.exec(line);
    if (rss && cur) cur.rss = Number(rss[1]) / 1024;
  }
  return out;
}

function parts() {
  const maps = mappings();
  const wasmBytes = pglite?.mod?.HEAPU8?.byteLength ?? -1;
  const p = { wasm: 0, arenas: 0, anon: 0, brk: 0, node: 0, libduckdb: 0, files: 0 };
  for (let i = 0; i < maps.length; i++) {
    const r = maps[i];
    const next = maps[i + 1];
    const anon = r.name === '[anon]';
    if (anon && r.end - r.start === wasmBytes) p.wasm += r.rss;
    else if (
      anon &&
      r.perm === 'rw-p' &&
      r.start % ARENA === 0 &&
      (r.end - r.start === ARENA || (next?.perm === '---p' && next.start === r.end && next.end - r.start === ARENA))
    )
      p.arenas += r.rss;
    else if (anon) p.anon += r.rss;
    else if (r.name === '[heap]') p.brk += r.rss;
    else if (r.name.endsWith('/node')) p.node += r.rss;
    else if (r.name.includes('duckdb')) p.libduckdb += r.rss;
    else if (r.name.startsWith('/')) p.files += r.rss;
  }
  const spaces = v8.getHeapSpaceStatistics();
  const heap = spaces.reduce((a, s) => a + s.physical_space_size, 0) / MB;
  const old = spaces.find((s) => s.space_name === 'old_space');
  const mb = (n) => Math.round(n * 10) / 10;
  return {
    t: new Date().toISOString(),
    rss: mb(process.memoryUsage.rss() / MB),
    v8: mb(heap),
    oldUsed: mb(old.space_used_size / MB),
    native: mb(p.anon - heap),
    wasm: mb(p.wasm),
    arenas: mb(p.arenas),
    brk: mb(p.brk),
    node: mb(p.node),
    libduckdb: mb(p.libduckdb),
    files: mb(p.files),
    duckdb: duckdbMb,
  };
}

async function readDuckdb() {
  if (!duckdb) return;
  duckdbConn ??= await duckdb.connect();
  const reader = await duckdbConn.runAndReadAll('SELECT sum(memory_usage_bytes)::DOUBLE AS b FROM duckdb_memory()');
  duckdbMb = Math.round(Number(reader.getRowObjectsJson()[0].b) / MB);
}

setInterval(() => {
  readDuckdb().catch(() => {});
  fs.appendFileSync(file, `${JSON.stringify(parts())}\n`);
}, 1000).unref();

process.on('SIGUSR2', () => {
  const largest = mappings()
    .filter((r) => r.rss >= 1)
    .sort((a, b) => b.rss - a.rss)
    .slice(0, 30)
    .map((r) => ({ rss: Math.round(r.rss), size: Math.round((r.end - r.start) / MB), perm: r.perm, name: r.name }));
  fs.appendFileSync(file, `${JSON.stringify({ t: new Date().toISOString(), largest })}\n`);
});
