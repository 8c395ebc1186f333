// Benchmark of the server's memory: `insights serve` started as its own process, as `npm start`
// runs it (dist/ when built), on a fresh data dir with the embedded defaults (PGlite + a DuckDB
// file). It waits for /readyz, sends 200 mixed requests (catalog, cached and uncached executes,
// dashboard and widget CRUD, chat through the built-in parser), lets the process settle 5 s, then
// reads its resident set (VmRSS) and peak (VmHWM) from /proc, and the resident set again 30 s after
// the requests (BENCH_SETTLE_MS, BENCH_LATE_MS). Targets: idle RSS < 220 MB embedded, < 150 MB with
// the system of record on PostgreSQL (--postgres).
// Run: npm run bench -- memory [--tsx] [--runs 3]   (--tsx: run src/ through tsx instead of dist/;
// --runs N: N fresh starts, the median reported)
// npm run bench -- memory --postgres postgres://…/db: the same with the system of record on that
// PostgreSQL server (a fresh database beside db, dropped afterwards) instead of embedded PGlite.
// npm run bench -- memory --big-rows 100000000: the RSS of a start on a data dir with that many
// orders against a start on a small one (target: unchanged; docs/rollups.md).
// It runs node with the flags and environment of package.json's `start` script; BENCH_NODE_ARGS='…'
// replaces the flags.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadAverage, machineLines } from './bench-server.ts';
import { NODE_ARGS, ROOT, START_ENV, startServerProcess } from './fixtures/server-process.ts';

// Issue 39's targets (docs/footprint.md): embedded (PGlite + DuckDB) within ~30 MB of the floor
// node + libduckdb + PGlite (163–193 MB) put together, and with the system of record on PostgreSQL.
const TARGET_MB = 220;
const TARGET_POSTGRES_MB = 150;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 5000);
// A second reading this long after the last request (0: none): V8's memory reducer shrinks the heap
// of a process that stopped allocating some 10 s after its last full collection, after the first
// reading (docs/footprint.md, "Issue 39, fourth round").
const LATE_MS = Number(process.env.BENCH_LATE_MS ?? 30000);
const PARALLEL = 4;

function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

/** The resident set by what backs it: the node binary, libduckdb, other files, anonymous memory (MB). */
function residentParts(pid: number): [string, number][] {
  const parts = new Map<string, number>();
  let name = '';
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const file = head[1];
      name = !file.startsWith('/')
        ? 'anonymous (V8 heap, WASM memory and code, malloc)'
        : file === process.execPath
          ? 'file: the node binary'
          : /libduckdb/.test(file)
            ? 'file: libduckdb.so'
            : 'file: other';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) parts.set(name, (parts.get(name) ?? 0) + Number(rss[1]) / 1024);
  }
  return [...parts].sort((a, b) => b[1] - a[1]);
}

async function waitReady(origin: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const res = await fetch(`${origin}/readyz`).catch(() => undefined);
    if (res?.ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server never became ready');
}

type Call = (method: string, url: string, body?: unknown) => Promise<any>;

/** The i-th request of the warm-up: a tenth each of catalog, chat and the CRUD steps, the rest executes. */
async function request(i: number, call: Call, dashboards: string[]): Promise<void> {
  const day = (n: number) => new Date(Date.UTC(2025, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
  switch (i % 10) {
    case 0:
      await call('GET', '/api/v1/insights');
      return;
    case 1:
    case 2:
      // The same question every time: served from the result cache after the first.
      await call('GET', '/api/v1/insights/revenue/execute?granularity=month');
      return;
    case 3:
    case 4: {
      // A new date range every time: never cached.
      const codes = ['revenue', 'orders_count', 'top_products', 'revenue_by_country', 'average_order_value'];
      await call('GET', `/api/v1/insights/${codes[i % codes.length]}/execute?date_from=${day(i)}&date_to=${day(i + 200)}`);
      return;
    }
    case 5: {
      const d = await call('POST', '/api/v1/dashboards/', { name: `Memory ${i}`, description: 'bench' });
      dashboards.push(d.id);
      await call('POST', `/api/v1/dashboards/${d.id}/widgets`, {
        title: 'Revenue',
        widget_type: 'chart',
        data_source: 'live_insight',
        insight_code: 'revenue',
        granularity: 'week',
      });
      return;
    }
    case 6:
      await call('GET', dashboards.length ? `/api/v1/dashboards/${dashboards[dashboards.length - 1]}` : '/api/v1/dashboards/');
      return;
    case 7:
      if (dashboards.length) await call('PATCH', `/api/v1/dashboards/${dashboards[dashboards.length - 1]}`, { name: `Renamed ${i}` });
      else await call('GET', '/api/v1/dashboards/');
      return;
    case 8:
      if (dashboards.length > 2) await call('DELETE', `/api/v1/dashboards/${dashboards.shift()}`);
      else await call('GET', '/api/v1/dashboards/');
      return;
    default: {
      const questions = [
        'revenue last month',
        'top products this year',
        'orders by week in Germany',
        'refund rate last quarter',
        'revenue by channel',
      ];
      await call('POST', '/api/v1/ai/chat', { message: questions[i % questions.length] });
    }
  }
}

/**
 * A data dir whose warehouse holds `rows` orders: the demo seed (small) plus generated orders
 * written with DuckDB directly (the generator of `demo seed` takes far longer at this size). The
 * rows keep the data version, so the rollups count as current and no build starts: what is
 * measured is the start itself on a big warehouse.
 */
async function bigDataDir(rows: number, useTsx: boolean): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `insights-bench-memory-${rows}-`));
  const cli = useTsx ? ['--import', 'tsx', path.join(ROOT, 'src/cli.ts')] : [path.join(ROOT, 'bin/insights.js')];
  const env: NodeJS.ProcessEnv = { ...process.env, INSIGHTS_DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.WAREHOUSE_URL;
  const seeded = spawnSync(process.execPath, [...cli, 'demo', 'seed', '--rows', '2000'], { cwd: ROOT, env, encoding: 'utf8' });
  if (seeded.status !== 0) throw new Error(`demo seed failed: ${seeded.stderr}`);
  if (rows === 0) return dataDir;
  const t0 = Date.now();
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(path.join(dataDir, 'warehouse.duckdb'));
  const conn = await instance.connect();
  await conn.run(`INSERT INTO orders SELECT 10000000 + i, CASE WHEN i % 2 = 0 THEN 'demo' ELSE 'acme' END, 1 + i % 5000,
    TIMESTAMP '2024-01-01' + to_seconds(i % 94608000), ['DE','FR','US','GB'][1 + i % 4], ['web','mobile','marketplace'][1 + i % 3],
    CASE WHEN i % 10 = 0 THEN 'refunded' ELSE 'completed' END, 1 + i % 4, CAST(5 + i % 500 AS DECIMAL(12,2)), 0
    FROM range(${rows}) t(i)`);
  conn.closeSync();
  instance.closeSync();
  process.stderr.write(`Wrote ${rows.toLocaleString('en')} orders in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  return dataDir;
}

/** The RSS of a start on a data dir with many rows, against one on a fresh data dir (target: unchanged). */
async function startOnBigData(rows: number, useTsx: boolean): Promise<void> {
  const measure = async (dataDir: string) => {
    const { child, origin } = await startServerProcess(dataDir, useTsx);
    try {
      await waitReady(origin);
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      return memoryOf(child.pid!);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  };
  // Both dirs are seeded the same way (the demo's 2 000 orders) by the command line, so neither
  // start generates data; the big one has `rows` orders more.
  const empty = await bigDataDir(0, useTsx);
  const big = await bigDataDir(rows, useTsx);
  try {
    const base = await measure(empty);
    const t0 = Date.now();
    const loaded = await measure(big);
    const seconds = (Date.now() - t0) / 1000 - SETTLE_MS / 1000;
    const load = os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
    console.log(
      `\nStart on a data dir with ${rows.toLocaleString('en')} orders (${(fs.statSync(path.join(big, 'warehouse.duckdb')).size / 1024 ** 3).toFixed(1)} GB warehouse) vs a seeded small one; load average ${load}:`,
    );
    console.log(`  ${'measure'.padEnd(40)} ${'small'.padStart(8)} ${'big'.padStart(8)} ${'ratio'.padStart(7)}  target`);
    console.log(
      `  ${'RSS settled after start (MB)'.padEnd(40)} ${base.rss.toFixed(0).padStart(8)} ${loaded.rss.toFixed(0).padStart(8)} ${(loaded.rss / base.rss).toFixed(2).padStart(7)}  unchanged (≤ 1.10)`,
    );
    console.log(
      `  ${'peak RSS, VmHWM (MB)'.padEnd(40)} ${base.hwm.toFixed(0).padStart(8)} ${loaded.hwm.toFixed(0).padStart(8)} ${(loaded.hwm / base.hwm).toFixed(2).padStart(7)}`,
    );
    console.log(`  big start ready in ${seconds.toFixed(1)} s → target ${loaded.rss / base.rss <= 1.1 ? 'met' : 'NOT met'}`);
  } finally {
    fs.rmSync(empty, { recursive: true, force: true });
    fs.rmSync(big, { recursive: true, force: true });
  }
}

interface Measured {
  ready: { rss: number; hwm: number };
  idle: { rss: number; hwm: number };
  late?: { rss: number; hwm: number };
  parts: [string, number][];
  startedMs: number;
  warmMs: number;
}

/** One first start on a fresh data dir (and a fresh database with --postgres), the warm-up, the settle. */
async function measureOnce(useTsx: boolean, pgUrl: string | undefined): Promise<Measured> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-bench-memory-'));
  // --postgres URL: the system of record on that PostgreSQL server (a fresh database made beside
  // the URL's and dropped afterwards) instead of embedded PGlite; the warehouse stays DuckDB.
  const systemOfRecord = pgUrl ? await freshDatabase(pgUrl) : undefined;
  const { child, origin, token, startedMs } = await startServerProcess(
    dataDir,
    useTsx,
    systemOfRecord ? { DATABASE_URL: systemOfRecord.url } : {},
  );
  try {
    await waitReady(origin);
    await new Promise((r) => setTimeout(r, 1000));
    const ready = memoryOf(child.pid!);
    const call: Call = async (method, url, body) => {
      const res = await fetch(origin + url, {
        method,
        headers: { authorization: `Svc ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${url} → ${res.status} ${text}`);
      return text ? JSON.parse(text) : undefined;
    };
    const dashboards: string[] = [];
    const t0 = Date.now();
    for (let i = 0; i < REQUESTS; i += PARALLEL) {
      await Promise.all(Array.from({ length: Math.min(PARALLEL, REQUESTS - i) }, (_, k) => request(i + k, call, dashboards)));
    }
    const warmMs = Date.now() - t0;
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const idle = memoryOf(child.pid!);
    const parts = residentParts(child.pid!);
    let late: Measured['late'];
    if (LATE_MS > SETTLE_MS) {
      await new Promise((r) => setTimeout(r, LATE_MS - SETTLE_MS));
      late = memoryOf(child.pid!);
    }
    return { ready, idle, late, parts, startedMs, warmMs };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
    await systemOfRecord?.drop();
  }
}

export async function run(args: string[]): Promise<void> {
  const useTsx = args.includes('--tsx');
  const big = args.indexOf('--big-rows');
  if (big >= 0) return startOnBigData(Number(args[big + 1].replace(/_/g, '')), useTsx);
  if (!useTsx && !fs.existsSync(path.join(ROOT, 'dist/cli.js'))) {
    throw new Error('dist/ is missing: run `npm run build` first (or pass --tsx)');
  }
  const pgAt = args.indexOf('--postgres');
  const pgUrl = pgAt >= 0 ? args[pgAt + 1] : undefined;
  if (pgAt >= 0 && !pgUrl) throw new Error('--postgres needs a URL, e.g. postgres://postgres@127.0.0.1:5432/test');
  // --runs N: N starts one after the other, the median reported (the machine is shared: docs/footprint.md).
  const runsAt = args.indexOf('--runs');
  const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 1;
  const target = pgUrl ? TARGET_POSTGRES_MB : TARGET_MB;
  const loadAtStart = loadAverage();
  const results: Measured[] = [];
  for (let i = 0; i < runs; i++) results.push(await measureOnce(useTsx, pgUrl));
  const byIdle = [...results].sort((a, b) => a.idle.rss - b.idle.rss);
  const mid = byIdle[Math.floor(byIdle.length / 2)];
  const list = (f: (m: Measured) => number) => results.map((m) => f(m).toFixed(0)).join(', ');

  const row = (name: string, mb: string, target = '', ratio = '') =>
    `  ${name.padEnd(48)} ${mb.padStart(14)} ${target.padStart(8)} ${ratio.padStart(7)}`;
  console.log(
    `\nMemory of \`insights serve\` (${useTsx ? 'src/ through tsx' : 'dist/'}${NODE_ARGS.length ? `, node ${NODE_ARGS.join(' ')}` : ''}${
      Object.keys(START_ENV).length
        ? `, ${Object.entries(START_ENV)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')}`
        : ''
    }), ${pgUrl ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite'} + DuckDB, first start on an empty data dir, ${runs} run${runs > 1 ? 's' : ''}:`,
  );
  console.log(`  ${machineLines('', loadAtStart)[1]}`);
  console.log(
    `  started and seeded in ${list((m) => m.startedMs / 1000)} s; ${REQUESTS} requests (${PARALLEL} at a time) in ${list((m) => m.warmMs / 1000)} s; settled ${SETTLE_MS / 1000} s`,
  );
  console.log(`  ${'phase'.padEnd(48)} ${'MB (each run)'.padStart(14)} ${'target'.padStart(8)} ${'ratio'.padStart(7)}`);
  console.log(
    row(
      'RSS when ready',
      list((m) => m.ready.rss),
    ),
  );
  console.log(
    row(
      `RSS idle after ${REQUESTS} mixed requests`,
      list((m) => m.idle.rss),
    ),
  );
  console.log(row('  median', mid.idle.rss.toFixed(0), `< ${target}`, (mid.idle.rss / target).toFixed(2)));
  console.log(
    row(
      'peak RSS (VmHWM, includes the first-start seed)',
      list((m) => m.idle.hwm),
    ),
  );
  console.log("  the median run's idle RSS by what backs it:");
  for (const [part, mb] of mid.parts) console.log(row(`  ${part}`, mb.toFixed(0)));
  const lates = results.map((m) => m.late?.rss).filter((x): x is number => x !== undefined);
  const lateMid = [...lates].sort((a, b) => a - b)[Math.floor(lates.length / 2)];
  if (lates.length) {
    console.log(row(`RSS idle ${LATE_MS / 1000} s after the requests`, lates.map((x) => x.toFixed(0)).join(', ')));
    console.log(row('  median', lateMid.toFixed(0), `< ${target}`, (lateMid / target).toFixed(2)));
  }
  console.log(`  target idle RSS < ${target} MB (median, ${SETTLE_MS / 1000} s after) → ${mid.idle.rss < target ? 'met' : 'NOT met'}`);
  if (lates.length) console.log(`  ${LATE_MS / 1000} s after → ${lateMid < target ? 'met' : 'NOT met'}`);
}

/** A new empty database on the server of `url`, and how to drop it. */
async function freshDatabase(url: string | undefined): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!url) throw new Error('--postgres needs a URL, e.g. postgres://postgres@127.0.0.1:5432/test');
  const { default: pg } = await import('pg');
  const name = `insights_bench_memory_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
