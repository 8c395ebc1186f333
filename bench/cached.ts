import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance as nodePerformance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { request } from 'undici';
import { loadConfig } from '../src/config/index.ts';
import { DuckDbWarehouse } from '../src/warehouse/duckdb/duckdb.ts';
import { seedDemo } from '../src/warehouse/demo/demo.ts';
import { benchServer, loadAverage, machineLines, median } from './bench-server.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const LOAD_MS = Number(process.env.BENCH_LOAD_MS ?? 3000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const TARGET = 0.8;
const URL_PATH = '/api/v1/insights/revenue/execute?granularity=week&country=DE&date_from=2024-01-01&date_to=2025-12-31';

/** The main thread's time on a CPU so far, in ns (the kernel's schedstat of the task whose id is the pid). */
function mainThreadCpuNs(): number {
  return Number(fs.readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]);
}

/**
 * Closed-loop load from a worker thread; with the main thread's busy µs per answered request (event
 * loop utilization: wall time, so it grows when other processes take the cores) and its CPU µs per
 * answered request (time on a CPU: what the server's work costs, steadier on a shared machine).
 */
async function load(origin: string, headers: Record<string, string>, p: string) {
  const before = nodePerformance.eventLoopUtilization();
  const cpuBefore = mainThreadCpuNs();
  const out = await new Promise<{ rps: number; failed: number; bytes: number; done: number }>((resolve, reject) => {
    const w = new Worker(new URL('./load-worker.mjs', import.meta.url), {
      workerData: { origin, path: p, headers, connections: CONNECTIONS, durationMs: LOAD_MS },
    });
    w.once('message', resolve);
    w.once('error', reject);
  });
  if (out.failed) throw new Error(`${out.failed} failed requests on ${origin}${p}`);
  const busy = nodePerformance.eventLoopUtilization(before);
  const done = Math.max(1, out.done);
  return { rps: out.rps, busyUs: (busy.active * 1000) / done, cpuUs: (mainThreadCpuNs() - cpuBefore) / 1000 / done };
}

export async function run(): Promise<void> {
  const loadAtStart = loadAverage();
  const file = process.env.BENCH_WAREHOUSE ?? path.join(os.tmpdir(), 'insights-profile-200000.duckdb');
  if (!fs.existsSync(file)) {
    const gen = await DuckDbWarehouse.open(file, { memoryLimit: '1GB', threads: 2 });
    await seedDemo(gen, { rows: 200_000, tenants: ['demo', 'acme'], endDay: new Date().toISOString().slice(0, 10), now: new Date() });
    await gen.close();
  }
  const wh = await DuckDbWarehouse.open(file, loadConfig().duckdb);
  // The limits per caller are raised (benchServer): the bench measures the service, not its limiter
  // (which still counts every request).
  const server = await benchServer(wh);
  const { app, origin } = server;
  await app.services.rollups.build(['orders.daily']);
  const { token } = await app.services.tokens.create({ tenantId: 'demo', name: 'bench', userId: 'bench', role: 'member' });
  const callers = { jwt: { authorization: server.headers.authorization }, token: { authorization: `Svc ${token}` } };

  // The answer, twice: the second must come from the cache, and both callers get the same bytes.
  let text = '';
  for (const headers of [callers.jwt, callers.jwt, callers.token]) {
    const res = await request(origin + URL_PATH, { headers });
    text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`execute → ${res.statusCode} ${text}`);
  }
  if (!(JSON.parse(text) as { data: { cached: boolean } }).data.cached) throw new Error('expected a cached answer');
  const bytes = Buffer.from(text);
  const bare = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
    res.end(bytes);
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const bareOrigin = `http://127.0.0.1:${(bare.address() as { port: number }).port}`;

  type Side = 'bare' | 'jwt' | 'token';
  type Round = Awaited<ReturnType<typeof load>>;
  const results: Record<Side, Round[]> = { bare: [], jwt: [], token: [] };
  const sides: [Side, () => Promise<Round>][] = [
    ['bare', () => load(bareOrigin, {}, '/')],
    ['jwt', () => load(origin, callers.jwt, URL_PATH)],
    ['token', () => load(origin, callers.token, URL_PATH)],
  ];
  const answeredBefore = app.fastAnswers.answered;
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < sides.length; i++) {
      const [name, go] = sides[(round + i) % sides.length];
      results[name].push(await go());
    }
  }
  const answeredEarly = app.fastAnswers.answered - answeredBefore;

  const ratio = (side: Side) => results[side].map((r, i) => r.rps / results.bare[i].rps);
  const med = (side: Side, f: (r: Round) => number) => median(results[side].map(f));
  const lines = [
    `Cached path: a repeated execute (${bytes.length} bytes, answered from the result cache) vs a bare node:http server answering the same bytes`,
    ...machineLines(
      `${CONNECTIONS} keep-alive connections × ${LOAD_MS / 1000} s × ${ROUNDS} rotating rounds, load from a worker thread`,
      loadAtStart,
    ),
    '',
    '| side | requests/s per round | median | ratio to bare per round | median ratio | main thread busy µs per request (median) | main thread CPU µs per request (median) |',
    '|---|---|---:|---|---:|---:|---:|',
    ...(['bare', 'jwt', 'token'] as Side[]).map((side) => {
      const rps = results[side].map((r) => Math.round(r.rps));
      const ratios = ratio(side);
      return `| ${side === 'bare' ? 'bare `node:http`' : side === 'jwt' ? 'ours, JWT' : 'ours, API token'} | ${rps.join(', ')} | ${Math.round(med(side, (r) => r.rps))} | ${side === 'bare' ? '—' : ratios.map((x) => x.toFixed(2)).join(', ')} | ${side === 'bare' ? '—' : median(ratios).toFixed(2)} | ${med(side, (r) => r.busyUs).toFixed(1)} | ${med(side, (r) => r.cpuUs).toFixed(1)} |`;
    }),
    '',
    `Answered before routing (src/plugins/fast-answers.ts): ${answeredEarly} of the service's requests.`,
    ...(['jwt', 'token'] as Side[]).map(
      (side) => `Target ≥ ${TARGET} (${side}, median of the per-round ratios): ${median(ratio(side)) >= TARGET ? 'met' : 'NOT met'}`,
    ),
  ];
  console.log(lines.join('\n'));
  await new Promise((r) => bare.close(r));
  await server.close();
  await wh.close();
}
