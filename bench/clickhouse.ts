// npm run bench -- clickhouse: the demo insights on ClickHouse (chdb, ClickHouse 26.7 in-process,
// driven over HTTP by @clickhouse/client through the loopback stand-in of the tests) and on DuckDB,
// on the same machine and the same rows (BENCH_ROWS demo orders, default 100 M), uncached, then
// from rollups; and the load rate of a BENCH_LOAD_ROWS-row CSV (default 10 M) into each.
// Target: ClickHouse no slower than 1.5 × DuckDB. docs/clickhouse.md turns these figures into a
// cluster's size. The generated DuckDB file and ClickHouse data are kept under BENCH_DIR and reused.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config/index.ts';
import { systemClock } from '../src/lib/clock.ts';
import { InsightsService, type ExecuteParams } from '../src/modules/insights/insights.service.ts';
import { ROLLUP_SCHEMA } from '../src/semantic/rollups.ts';
import { ClickHouseWarehouse } from '../src/warehouse/clickhouse/clickhouse.ts';
import { DEMO_TABLES } from '../src/warehouse/clickhouse/ddl.ts';
import { copyDemoTables } from '../src/warehouse/clickhouse/seed.ts';
import { seedDemo } from '../src/warehouse/demo/demo.ts';
import { DuckDbWarehouse } from '../src/warehouse/duckdb/duckdb.ts';
import { RollupStore } from '../src/warehouse/rollups/rollups.ts';
import type { Warehouse } from '../src/warehouse/warehouse.ts';
import { chdbMissing, startClickHouseStandIn, type ClickHouseStandIn } from '../test/fakes/clickhouse-server.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000_000);
const LOAD_ROWS = Number(process.env.BENCH_LOAD_ROWS ?? 10_000_000);
const ROLLUPS = process.env.BENCH_ROLLUPS !== '0';
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 5);
const DIR = process.env.BENCH_DIR ?? path.join('/var/tmp', 'insights-bench', 'clickhouse');
const TARGET = 1.5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const log = (s: string) => process.stdout.write(s);

async function duckdb(today: string): Promise<DuckDbWarehouse> {
  const file = path.join(DIR, `demo-${ROWS}.duckdb`);
  if (fs.existsSync(file)) {
    const wh = await DuckDbWarehouse.open(file, loadConfig().duckdb);
    const meta = await wh.query('SELECT rows_requested FROM warehouse_meta');
    if (meta.length && meta[0].rows_requested === ROWS) return wh;
    await wh.close();
    fs.rmSync(file, { force: true });
  }
  log(`Generating ${ROWS.toLocaleString('en')} demo orders into ${file} … `);
  const t = Date.now();
  // As `insights demo seed` does: more memory than the server's query ceiling, every core.
  const gen = await DuckDbWarehouse.open(file, { memoryLimit: process.env.BENCH_SEED_MEMORY ?? '4GB', threads: os.cpus().length });
  await gen.exec('SET preserve_insertion_order = false');
  await seedDemo(gen, { rows: ROWS, tenants: ['demo', 'acme'], endDay: today, now: new Date() });
  await gen.close();
  log(`${((Date.now() - t) / 1000).toFixed(0)} s\n`);
  return DuckDbWarehouse.open(file, loadConfig().duckdb);
}

async function clickhouse(duck: DuckDbWarehouse, url: string): Promise<{ ch: ClickHouseWarehouse; copyRowsPerS?: number }> {
  const ch = new ClickHouseWarehouse(url);
  // A copy kept from a run under other column types is made again (the DDL is part of what is measured).
  const kept = await ch.query(
    'SELECT table AS t, name AS c, type FROM system.columns WHERE database = currentDatabase() ORDER BY table, position',
  );
  for (const spec of DEMO_TABLES) {
    const want = spec.columns.join(', ');
    const have = kept
      .filter((r) => r.t === spec.name)
      .map((r) => `"${String(r.c)}" ${String(r.type)}`)
      .join(', ');
    if (have && have !== want) await ch.query(`DROP TABLE "${spec.name}"`);
  }
  await ch.ensureTables();
  const [have] = await ch.query('SELECT count() AS n FROM orders');
  const [want] = await duck.query('SELECT count(*) AS n FROM orders');
  if (have.n === want.n) return { ch };
  log(`Copying the same rows into ClickHouse as Parquet … `);
  const t = Date.now();
  const scratch = fs.mkdtempSync(path.join(DIR, 'copy-'));
  try {
    // Writing Parquet wants more than the server's query ceiling; put back for the timings.
    await duck.exec(`SET memory_limit = '2GB'`);
    await copyDemoTables(ch, duck, scratch, ['demo', 'acme']);
  } finally {
    await duck.exec(`SET memory_limit = '${loadConfig().duckdb.memoryLimit}'`);
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  const [{ n }] = await ch.query(
    'SELECT (SELECT count() FROM orders) + (SELECT count() FROM order_items) + (SELECT count() FROM customers) AS n',
  );
  log(`${((Date.now() - t) / 1000).toFixed(0)} s\n`);
  return { ch, copyRowsPerS: Number(n) / ((Date.now() - t) / 1000) };
}

/** What each insight is asked in the bench: its heaviest ordinary question, the whole history. */
function cases(service: InsightsService, first: string, last: string): { code: string; params: ExecuteParams }[] {
  return service.catalog().map((e) => {
    if (e.kind === 'kpi') return { code: e.code, params: { granularity: 'month' } };
    const params: ExecuteParams = { date_from: first, date_to: last };
    if (e.kind === 'timeseries') params.granularity = 'week';
    return { code: e.code, params };
  });
}

interface Timing {
  ms: number;
  /** The process's CPU time (both engines run in it: a busy machine stretches wall time, less so this). */
  cpu: number;
  rows: unknown;
}

async function timed(service: InsightsService, code: string, params: ExecuteParams): Promise<Timing> {
  service.invalidate();
  const c = process.cpuUsage();
  const t = performance.now();
  const r = await service.execute('demo', code, params);
  const ms = performance.now() - t;
  const d = process.cpuUsage(c);
  return { ms, cpu: (d.user + d.system) / 1000, rows: r.rows };
}

/** Medians per case: [DuckDB ms, ClickHouse ms, DuckDB CPU ms, ClickHouse CPU ms]. */
type Medians = [number, number, number, number];

/** Median ms per case on both engines, interleaved so neither always runs on caches the other warmed. */
async function measure(
  a: InsightsService,
  b: InsightsService,
  list: { code: string; params: ExecuteParams }[],
  afterB?: (code: string) => Promise<void>,
): Promise<Map<string, Medians>> {
  const out = new Map<string, Medians>();
  for (const c of list) {
    const x: Timing[] = [];
    const y: Timing[] = [];
    for (let i = 0; i < ITERATIONS + 1; i++) {
      let p: Timing;
      let q: Timing;
      if (i % 2) {
        q = await timed(b, c.code, c.params);
        await afterB?.(c.code);
        p = await timed(a, c.code, c.params);
      } else {
        p = await timed(a, c.code, c.params);
        q = await timed(b, c.code, c.params);
        await afterB?.(c.code);
      }
      assert.deepEqual(q.rows, p.rows, `${c.code}: both engines give the same rows`);
      if (i > 0) {
        x.push(p);
        y.push(q);
      }
    }
    const m: Medians = [median(x.map((t) => t.ms)), median(y.map((t) => t.ms)), median(x.map((t) => t.cpu)), median(y.map((t) => t.cpu))];
    out.set(c.code, m);
    // A line per insight as it is measured: at 100 M a pass takes an hour, and an interrupted run
    // still leaves what it measured.
    log(
      `\n  ${c.code}: DuckDB ${m[0].toFixed(0)} ms, ClickHouse ${m[1].toFixed(0)} ms (${(m[1] / m[0]).toFixed(2)} ×; CPU ${(m[3] / m[2]).toFixed(2)} ×)`,
    );
  }
  log('\n');
  return out;
}

/** The engine's own time for the query an execute just sent, called directly (no HTTP, no client). */
async function engineOnly(server: ClickHouseStandIn, request: { query: string; params: Record<string, string> }): Promise<number> {
  const [sql, format] = /^([\s\S]*?)\s*FORMAT\s+(\w+)\s*$/.exec(request.query)?.slice(1) ?? [request.query, 'TabSeparated'];
  const t = performance.now();
  await server.bind(sql, request.params, format);
  return performance.now() - t;
}

async function loadRate(wh: Warehouse, file: string): Promise<number> {
  const t = Date.now();
  const r = await wh.load({ table: 'bench_load', file: { path: file, format: 'csv' }, tenantId: 'bench', mode: 'replace' });
  assert.equal(r.rowsLoaded, LOAD_ROWS);
  return LOAD_ROWS / ((Date.now() - t) / 1000);
}

function csvFile(): string {
  const file = path.join(DIR, `load-${LOAD_ROWS}.csv`);
  if (fs.existsSync(file)) return file;
  log(`Writing a ${LOAD_ROWS.toLocaleString('en')}-row CSV … `);
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, 'order_id,customer_id,ordered_at,country,channel,status,items,revenue,discount\n');
  const countries = ['DE', 'FR', 'US', 'GB', 'ES', 'IT'];
  for (let i = 0; i < LOAD_ROWS; i += 100_000) {
    let chunk = '';
    for (let j = i; j < Math.min(LOAD_ROWS, i + 100_000); j++) {
      const day = new Date(Date.UTC(2025, 0, 1) + (j % 730) * 86_400_000 + (j % 86_400) * 1000)
        .toISOString()
        .replace('T', ' ')
        .slice(0, 19);
      chunk += `${j},${j % 50_000},${day},${countries[j % 6]},${j % 3 ? 'web' : 'mobile'},completed,${(j % 4) + 1},${((j % 9973) / 100).toFixed(2)},0.00\n`;
    }
    fs.writeSync(fd, chunk);
  }
  fs.closeSync(fd);
  log('done\n');
  return file;
}

export async function run(): Promise<void> {
  const missing = chdbMissing();
  if (missing) throw new Error(missing);
  fs.mkdirSync(DIR, { recursive: true });
  const today = new Date().toISOString().slice(0, 10);
  const duck = await duckdb(today);
  await duck.exec(`DROP SCHEMA IF EXISTS ${ROLLUP_SCHEMA} CASCADE`);
  const server = await startClickHouseStandIn({ path: path.join(DIR, `chdb-${ROWS}`) });
  const { ch, copyRowsPerS } = await clickhouse(duck, await server.urlFor('bench'));
  // Parts the copy left are merged in the background: timings start once ClickHouse is idle.
  for (let i = 0; i < 600; i++) {
    const [{ n }] = await ch.query('SELECT count() AS n FROM system.merges');
    if (Number(n) === 0) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  const [{ first, last }] = await duck.query(
    "SELECT CAST(CAST(min(ordered_at) AS DATE) AS VARCHAR) AS first, CAST(CAST(max(ordered_at) AS DATE) AS VARCHAR) AS last FROM orders WHERE tenant_id = 'demo'",
  );

  // 1. Raw rows, uncached.
  const rawDuck = new InsightsService(duck, systemClock);
  const rawCh = new InsightsService(ch, systemClock);
  const list = cases(rawDuck, String(first), String(last));
  const loadBefore = os.loadavg()[0];
  log(`Timing ${list.length} insights × ${ITERATIONS} on the raw rows … `);
  // Right after each ClickHouse execute, its last request (the insight's query; before it the
  // version, when its memo is stale) once more on the engine directly: interleaved like the rest.
  const direct = new Map<string, number[]>();
  const raw = await measure(rawDuck, rawCh, list, async (code) => {
    const ms = await engineOnly(server, server.requests.at(-1)!);
    direct.set(code, [...(direct.get(code) ?? []), ms]);
  });
  const engine = new Map([...direct].map(([code, ms]) => [code, median(ms.slice(1))]));
  log('done\n');

  // 2. Rollups, built on each engine (timed), then the same questions (BENCH_ROLLUPS=0: skipped,
  // the builds take minutes from 10 M rows on a busy machine).
  let rolled = new Map<string, Medians>();
  let duckBuild = NaN;
  let chBuild = NaN;
  if (ROLLUPS) {
    const duckStore = new RollupStore(duck, rawDuck.model.rollups);
    const chStore = new RollupStore(ch, rawDuck.model.rollups);
    let t = Date.now();
    await duckStore.build();
    duckBuild = Date.now() - t;
    t = Date.now();
    await chStore.build();
    chBuild = Date.now() - t;
    log(`Timing again from the rollups … `);
    rolled = await measure(
      new InsightsService(duck, systemClock, rawDuck.model, duckStore),
      new InsightsService(ch, systemClock, rawDuck.model, chStore),
      list,
    );
    log('done\n');
  }

  // 3. Loading a CSV (BENCH_LOAD_ROWS=0: skipped).
  let duckLoad = NaN;
  let chLoad = NaN;
  if (LOAD_ROWS > 0) {
    const file = csvFile();
    log('Loading it into each … ');
    duckLoad = await loadRate(duck, file);
    chLoad = await loadRate(ch, file);
    log('done\n');
  }
  log('\n');

  const ratio = (a: number, b: number) => (b / a).toFixed(2);
  const rows: string[][] = [];
  let worst = 0;
  let worstCpu = 0;
  for (const c of list) {
    const [d, h, dc, hc] = raw.get(c.code)!;
    const [rd, rh] = rolled.get(c.code) ?? [NaN, NaN];
    worst = Math.max(worst, h / d);
    worstCpu = Math.max(worstCpu, hc / dc);
    rows.push([
      c.code,
      d.toFixed(0),
      h.toFixed(0),
      ratio(d, h),
      hc.toFixed(0),
      ratio(dc, hc),
      engine.get(c.code)!.toFixed(0),
      ROLLUPS ? rd.toFixed(0) : '—',
      ROLLUPS ? rh.toFixed(0) : '—',
    ]);
  }
  const total = (m: Map<string, Medians>, i: 0 | 1 | 2 | 3) => [...m.values()].reduce((s, v) => s + v[i], 0);
  const engineTotal = [...engine.values()].reduce((a, b) => a + b, 0);
  rows.push([
    'all insights, summed',
    total(raw, 0).toFixed(0),
    total(raw, 1).toFixed(0),
    ratio(total(raw, 0), total(raw, 1)),
    total(raw, 3).toFixed(0),
    ratio(total(raw, 2), total(raw, 3)),
    engineTotal.toFixed(0),
    ...(ROLLUPS ? [total(rolled, 0).toFixed(0), total(rolled, 1).toFixed(0)] : ['—', '—']),
  ]);
  if (ROLLUPS)
    rows.push([
      'rollup build, every tenant — s',
      (duckBuild / 1000).toFixed(1),
      (chBuild / 1000).toFixed(1),
      ratio(duckBuild, chBuild),
      '—',
      '—',
      '—',
      '—',
      '—',
    ]);
  if (LOAD_ROWS > 0)
    rows.push([
      `load ${LOAD_ROWS.toLocaleString('en')}-row CSV — rows/s`,
      Math.round(duckLoad).toLocaleString('en'),
      Math.round(chLoad).toLocaleString('en'),
      ratio(chLoad, duckLoad),
      '—',
      '—',
      '—',
      '—',
      '—',
    ]);
  const head = [
    'insight (demo tenant, uncached, median ms)',
    'DuckDB',
    'ClickHouse',
    'CH / DuckDB',
    'CH CPU ms',
    'CPU CH / DuckDB',
    'CH engine alone',
    'DuckDB rollup',
    'CH rollup',
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => (i ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((w, i) => (i ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`);
  for (const r of rows) console.log(line(r));
  const [{ n: orders }] = await ch.query('SELECT count() AS n FROM orders');
  const [{ n: demoOrders }] = await ch.query("SELECT count() AS n FROM orders WHERE tenant_id = 'demo'");
  console.log(
    `\n${Number(orders).toLocaleString('en')} orders (${Number(demoOrders).toLocaleString('en')} of tenant demo, ${first} … ${last}); ${os.cpus().length} cores; ` +
      `DuckDB at the server's settings (${loadConfig().duckdb.memoryLimit}, ${loadConfig().duckdb.threads} threads); ClickHouse ${(await ch.query('SELECT version() AS v'))[0].v} (chdb) over HTTP ` +
      `("CH engine alone": the same SQL on chdb without HTTP and client); load average ${loadBefore.toFixed(1)} before the timings, ${os.loadavg()[0].toFixed(1)} after.` +
      (copyRowsPerS ? ` The demo copy into ClickHouse ran at ${Math.round(copyRowsPerS).toLocaleString('en')} rows/s.` : ''),
  );
  console.log(
    `Target: ClickHouse no slower than ${TARGET} × DuckDB per insight: worst ${worst.toFixed(2)} × in time (${worstCpu.toFixed(2)} × in CPU) — ${worst <= TARGET ? 'met' : 'NOT met'}.`,
  );
  await ch.close();
  await duck.close();
  await server.close();
}
