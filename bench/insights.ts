// Benchmark of the insight engine on 10,000,000 orders (BENCH_ROWS to change, or BENCH_WAREHOUSE for
// a warehouse file made beforehand, e.g. by `insights demo seed --rows 100000000`):
//  1. execute over HTTP, uncached: revenue by week, country=DE, over the whole range — median
//     latency against the best hand-written DuckDB query for the same answer, run directly through
//     @duckdb/node-api (target ratio ≤ 1.10); then the rollups are built (timed) and the same
//     query is answered from the orders.daily rollup (target < 0.1 of the raw hand query);
//  2. cached hits per second over HTTP against a bare node:http server returning the same bytes
//     (target ≥ 0.8), with a bare Fastify route (the JSON as an object, and as bytes) for reference.
// The warehouse file is generated once into the temp dir and reused while rows and day match.
import http from 'node:http';
import os from 'node:os';
import { performance as nodePerformance } from 'node:perf_hooks';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Fastify from 'fastify';
import { request } from 'undici';
import { loadConfig } from '../src/config/index.ts';
import { DuckDbWarehouse } from '../src/warehouse/duckdb/duckdb.ts';
import { seedDemo } from '../src/warehouse/demo/demo.ts';
import { benchServer, loadAverage, machineLines } from './bench-server.ts';
import { warehouseDdl } from '../src/warehouse/warehouse.ts';
import { ROLLUP_SCHEMA } from '../src/semantic/rollups.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 41);
const LOAD_MS = Number(process.env.BENCH_LOAD_MS ?? 3000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

const HAND_SQL = `SELECT date_trunc('week', ordered_at) AS week, sum(revenue) AS revenue
FROM orders WHERE tenant_id = 'demo' AND status = 'completed' AND country = 'DE'
GROUP BY 1 ORDER BY 1`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The benchmark warehouse of ROWS orders ending today, generated once into the temp dir (bench/query.ts uses it too). */
export async function warehouse(): Promise<DuckDbWarehouse> {
  const today = new Date().toISOString().slice(0, 10);
  // BENCH_WAREHOUSE: a warehouse file made beforehand (e.g. by `insights demo seed --rows 100000000`).
  const given = process.env.BENCH_WAREHOUSE;
  const file = given ?? path.join(os.tmpdir(), `insights-bench-${ROWS}.duckdb`);
  // The server's own ceiling and threads (INSIGHTS_DUCKDB_*): the ratios hold at the footprint it runs with.
  const wh = await DuckDbWarehouse.open(file, loadConfig().duckdb);
  // Raw first: rollups of an earlier run are dropped, and built (and timed) by this run.
  await wh.exec(`DROP SCHEMA IF EXISTS ${ROLLUP_SCHEMA} CASCADE`);
  if (given) return wh;
  await wh.exec(warehouseDdl('duckdb'));
  const meta = await wh.query('SELECT rows_requested, CAST(end_day AS VARCHAR) AS end_day FROM warehouse_meta');
  if (meta.length && meta[0].rows_requested === ROWS && meta[0].end_day === today) return wh;
  // Generated as `insights demo seed` does: with more memory than the server's query ceiling.
  await wh.close();
  process.stdout.write(`Generating ${ROWS.toLocaleString('en')} orders into ${file} … `);
  const t = Date.now();
  const gen = await DuckDbWarehouse.open(file, { memoryLimit: '2GB', threads: os.cpus().length });
  await gen.exec('SET preserve_insertion_order = false');
  await seedDemo(gen, { rows: ROWS, tenants: ['demo', 'acme'], endDay: today, now: new Date() });
  await gen.close();
  process.stdout.write(`${((Date.now() - t) / 1000).toFixed(1)} s\n`);
  return DuckDbWarehouse.open(file, loadConfig().duckdb);
}

/**
 * Closed-loop load from a worker thread. Besides requests/s (which the machine's load decides as
 * much as the server), the main thread's busy time per answered request: every server of this
 * bench runs on this process's main thread, which does nothing else meanwhile, so that figure
 * depends far less on what else the machine runs (docs/performance.md).
 */
async function load(
  origin: string,
  p: string,
  headers: Record<string, string>,
): Promise<{ rps: number; failed: number; bytes: number; busyUs: number }> {
  const before = nodePerformance.eventLoopUtilization();
  const out = await new Promise<{ rps: number; failed: number; bytes: number; done: number }>((resolve, reject) => {
    const w = new Worker(new URL('./load-worker.mjs', import.meta.url), {
      workerData: { origin, path: p, headers, connections: CONNECTIONS, durationMs: LOAD_MS },
    });
    w.once('message', resolve);
    w.once('error', reject);
  });
  const busy = nodePerformance.eventLoopUtilization(before);
  return { ...out, busyUs: (busy.active * 1000) / Math.max(1, out.done) };
}

export async function run(): Promise<void> {
  const loadAtStart = loadAverage();
  const wh = await warehouse();
  const [{ n, first, last }] = await wh.query(
    'SELECT count(*) AS n, CAST(CAST(min(ordered_at) AS DATE) AS VARCHAR) AS first, CAST(CAST(max(ordered_at) AS DATE) AS VARCHAR) AS last FROM orders',
  );
  // The same in-process server the other benches use (bench-server.ts): a member's JWT of tenant demo.
  const server = await benchServer(wh);
  const { app, origin } = server;
  const headers = { authorization: server.headers.authorization };
  const url = `/api/v1/insights/revenue/execute?granularity=week&country=DE&date_from=${first}&date_to=${last}`;
  const hand = await wh.connect();

  const viaHttp = async () => {
    const res = await request(origin + url, { headers });
    const body = (await res.body.json()) as { data: { rows: { period: string; revenue: number }[]; cached: boolean } };
    if (res.statusCode !== 200) throw new Error(`execute → ${res.statusCode}`);
    return body.data;
  };
  const viaHand = async () => (await hand.runAndReadAll(HAND_SQL)).getRowObjectsJson() as { week: string; revenue: string }[];

  // Same answer: every week of the hand query has the same revenue in the insight's rows.
  const ours = await viaHttp();
  const theirs = await viaHand();
  const byWeek = new Map(ours.rows.map((r) => [r.period, r.revenue]));
  for (const r of theirs) {
    if (byWeek.get(r.week.slice(0, 10)) !== Math.round(Number(r.revenue) * 100) / 100) throw new Error(`mismatch in week ${r.week}`);
  }

  const timeHttp = async () => {
    app.services.insights.invalidate();
    const t = performance.now();
    const d = await viaHttp();
    if (d.cached) throw new Error('expected an uncached execution');
    return performance.now() - t;
  };
  const timeHand = async () => {
    const t = performance.now();
    await viaHand();
    return performance.now() - t;
  };
  const interleaved = async () => {
    const httpMs: number[] = [];
    const handMs: number[] = [];
    for (let i = 0; i < ITERATIONS + 2; i++) {
      // Alternate which goes first, so neither always runs on caches the other just warmed.
      let a: number;
      let b: number;
      if (i % 2 === 0) {
        a = await timeHttp();
        b = await timeHand();
      } else {
        b = await timeHand();
        a = await timeHttp();
      }
      // The first two rounds warm both paths.
      if (i >= 2) {
        httpMs.push(a);
        handMs.push(b);
      }
    }
    return { httpMs, handMs };
  };
  // 1. The raw path: no rollup is built yet.
  const { httpMs, handMs } = await interleaved();
  // 2. The rollups, built as the server would, then the same query answered from them.
  const buildStarted = performance.now();
  // BENCH_ROLLUPS=orders.daily builds only the rollups named (comma-separated).
  const builds = await app.services.rollups.build(process.env.BENCH_ROLLUPS?.split(','));
  const buildMs = performance.now() - buildStarted;
  const rollupRows = await wh.query(`SELECT count(*) AS n FROM ${ROLLUP_SCHEMA}."orders__daily"`);
  const fromRollup = await viaHttp();
  if (JSON.stringify(fromRollup.rows) !== JSON.stringify(ours.rows)) throw new Error('the rollup answers differently from the raw rows');
  const rolled = await interleaved();

  // Cached hits against a bare route returning a constant JSON of the same size.
  await viaHttp();
  // Baselines: a bare route returning the same JSON as a constant object (Fastify serializes it per
  // request, as any route returning data does), and, stricter, as constant bytes (no serialization).
  const cachedText = await (await request(origin + url, { headers })).body.text();
  const cachedObject = JSON.parse(cachedText) as unknown;
  const bare = Fastify({ logger: false });
  bare.get('/constant', async () => cachedObject);
  bare.get('/constant-bytes', async (_req, reply) => reply.type('application/json; charset=utf-8').send(cachedText));
  await bare.listen({ host: '127.0.0.1', port: 0 });
  const bareOrigin = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;
  // The floor: node:http answering the same bytes with the same content type, nothing else.
  const cachedBytes = Buffer.from(cachedText);
  const node = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': cachedBytes.length });
    res.end(cachedBytes);
  });
  await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
  const nodeOrigin = `http://127.0.0.1:${(node.address() as { port: number }).port}`;
  const nodeRps: number[] = [];
  const oursRps: number[] = [];
  const nodeBusy: number[] = [];
  const oursBusy: number[] = [];
  const bareRps: number[] = [];
  const bytesRps: number[] = [];
  let bytes = 0;
  // Rotating order round by round, so drifting machine load hits every side alike.
  const sides = [
    async () => {
      const o = await load(nodeOrigin, '/', {});
      nodeRps.push(o.rps);
      nodeBusy.push(o.busyUs);
    },
    async () => bareRps.push((await load(bareOrigin, '/constant', {})).rps),
    async () => bytesRps.push((await load(bareOrigin, '/constant-bytes', {})).rps),
    async () => {
      const o = await load(origin, url, headers);
      if (o.failed) throw new Error(`${o.failed} failed requests`);
      oursRps.push(o.rps);
      oursBusy.push(o.busyUs);
      bytes = o.bytes;
    },
  ];
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < sides.length; i++) await sides[(round + i) % sides.length]();
  }

  // The raw hand query is timed in both phases (it reads no rollup): all its runs are its baseline.
  const handAll = [...handMs, ...rolled.handMs];
  const met = [
    median(httpMs) / median(handMs) <= 1.1,
    median(rolled.httpMs) / median(handAll) < 0.1,
    median(oursRps) / median(nodeRps) >= 0.8,
  ];
  const rows = [
    [
      'execute revenue/week/DE, whole range, uncached, raw rows — median ms',
      median(httpMs).toFixed(1),
      median(handMs).toFixed(1),
      (median(httpMs) / median(handMs)).toFixed(2),
      '≤ 1.10',
    ],
    [
      'the same from the orders.daily rollup (vs the raw hand query) — median ms',
      median(rolled.httpMs).toFixed(1),
      median(handAll).toFixed(1),
      (median(rolled.httpMs) / median(handAll)).toFixed(3),
      '< 0.1',
    ],
    ['rollup build, every tenant — s', (buildMs / 1000).toFixed(1), '—', '—', '—'],
    [
      'cached execute vs bare node:http, same bytes — requests/s',
      Math.round(median(oursRps)).toString(),
      Math.round(median(nodeRps)).toString(),
      (median(oursRps) / median(nodeRps)).toFixed(2),
      '≥ 0.8',
    ],
    [
      "cached execute vs bare node:http — the main thread's busy µs per request (bare / ours)",
      median(oursBusy).toFixed(1),
      median(nodeBusy).toFixed(1),
      (median(nodeBusy) / median(oursBusy)).toFixed(2),
      '—',
    ],
    [
      'cached execute vs bare Fastify, JSON object — requests/s',
      Math.round(median(oursRps)).toString(),
      Math.round(median(bareRps)).toString(),
      (median(oursRps) / median(bareRps)).toFixed(2),
      '—',
    ],
    [
      'cached execute vs bare Fastify, constant bytes — requests/s',
      Math.round(median(oursRps)).toString(),
      Math.round(median(bytesRps)).toString(),
      (median(oursRps) / median(bytesRps)).toFixed(2),
      '—',
    ],
  ];
  const out = [
    `Insight engine benchmark — ${Number(n).toLocaleString('en')} orders (${first} … ${last}), ${ours.rows.length} weekly rows, response ${bytes} bytes`,
    `Rollups: ${builds.map((b) => `${b.rollup} ${(b.ms / 1000).toFixed(1)} s`).join(', ')}; orders.daily holds ${Number(rollupRows[0].n).toLocaleString('en')} rows`,
    ...machineLines(
      `DuckDB via @duckdb/node-api, ${ITERATIONS} timed runs, ${CONNECTIONS} connections × ${LOAD_MS / 1000} s × ${ROUNDS} rounds (medians)`,
      loadAtStart,
    ),
    '',
    '| measure | insights service | baseline | ratio | target |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
    `Targets: ${met.every(Boolean) ? 'all met' : `NOT met: ${['raw ≤ 1.10', 'rollup < 0.1', 'cached ≥ 0.8'].filter((_, i) => !met[i]).join(', ')}`}`,
    '',
    'Baselines: the hand-written query (below) through @duckdb/node-api on the same file, interleaved run by run; a bare node:http server answering the same bytes; a bare Fastify route (no plugins) returning the same JSON as a constant object, and as constant bytes. Ours runs the full stack: JWT auth (HS256), rate limit, metrics, query validation, cache.',
    '',
    '```sql',
    HAND_SQL,
    '```',
  ];
  console.log(out.join('\n'));
  hand.closeSync();
  await bare.close();
  await new Promise((r) => node.close(r));
  await server.close();
  await wh.close();
}
