// Benchmark of mixed traffic: `insights serve` as its own process, as `npm start` runs it (dist/ when
// built, the start script's node flags), on a fresh data dir (embedded PGlite + the first start's
// DuckDB demo data), under 64 concurrent clients for 30 s. Each client is an admin of tenant demo
// with an API token of its own, its own dashboard with two live widgets, and sends its next request
// as soon as the last one is answered (closed loop), picking by weight:
//   dashboards 25 % (list, one with its widgets), widgets 15 % (refresh one), execute 35 %
//   (a cached question 25 %, a new date range 10 %), chat 10 % (the built-in parser), logs 15 %.
// Printed: p50/p99 per operation, requests/s, errors, the server's RSS (peak while loaded, and at
// the end) against the targets p99 < 300 ms, ≥ 600 req/s, RSS < 400 MB.
// Run: npm run bench -- traffic [--tsx]  (BENCH_CLIENTS, BENCH_SECONDS, BENCH_NODE_ARGS to change)
// The limits per caller are raised for the run (INSIGHTS_RATE_LIMIT, INSIGHTS_CHAT_RATE_LIMIT): it
// measures the service, not its limiter (which still runs on every request).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NODE_ARGS, ROOT, startServerProcess } from './fixtures/server-process.ts';
import { Pool } from 'undici';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 64);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const WARMUP_SECONDS = 3;
const TARGET = { p99Ms: 300, rps: 600, rssMb: 400 };

const OPERATIONS = ['dashboards', 'widgets', 'execute (cached)', 'execute (new range)', 'chat', 'logs'] as const;
type Operation = (typeof OPERATIONS)[number];
const WEIGHTS: [Operation, number][] = [
  ['dashboards', 25],
  ['widgets', 15],
  ['execute (cached)', 25],
  ['execute (new range)', 10],
  ['chat', 10],
  ['logs', 15],
];
const QUESTIONS = [
  'revenue last month',
  'top products this year',
  'orders by week in Germany',
  'refund rate last quarter',
  'revenue by channel',
];
const CACHED = [
  '/api/v1/insights/revenue/execute?granularity=month',
  '/api/v1/insights/top_products/execute',
  '/api/v1/insights/orders_count/execute?granularity=week&country=DE',
];
const CODES = ['revenue', 'orders_count', 'top_products', 'revenue_by_country', 'average_order_value'];

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;

export async function run(args: string[]): Promise<void> {
  const useTsx = args.includes('--tsx');
  if (!useTsx && !fs.existsSync(path.join(ROOT, 'dist/cli.js')))
    throw new Error('dist/ is missing: run `npm run build` first (or pass --tsx)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-bench-traffic-'));
  const loadAtStart = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const { child, origin, token } = await startServerProcess(dataDir, useTsx, {
    INSIGHTS_RATE_LIMIT: '1000000',
    INSIGHTS_CHAT_RATE_LIMIT: '1000000',
  });
  const pool = new Pool(origin, { connections: CLIENTS, pipelining: 1 });
  try {
    for (let i = 0; ; i++) {
      const res = await fetch(`${origin}/readyz`).catch(() => undefined);
      if (res?.ok) break;
      if (i > 600) throw new Error('the server never became ready');
      await new Promise((r) => setTimeout(r, 100));
    }
    const call = async (auth: string, method: string, p: string, body?: unknown): Promise<{ status: number; data: any }> => {
      const res = await pool.request({
        path: p,
        method: method as 'GET',
        headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.body.text();
      return { status: res.statusCode, data: text && res.headers['content-type']?.toString().includes('json') ? JSON.parse(text) : text };
    };
    const must = async (auth: string, method: string, p: string, body?: unknown) => {
      const r = await call(auth, method, p, body);
      if (r.status >= 300) throw new Error(`${method} ${p} → ${r.status} ${JSON.stringify(r.data)}`);
      return r.data;
    };

    // Set-up: a token, a dashboard and two live widgets per client.
    const owner = `Svc ${token}`;
    const clients = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, i) => {
        const t = await must(owner, 'POST', '/api/v1/auth/tokens', { name: `traffic ${i}`, user_id: `client${i}`, role: 'admin' });
        const auth = `Svc ${t.token}`;
        const d = await must(auth, 'POST', '/api/v1/dashboards/', { name: `Traffic ${i}`, description: 'bench' });
        const widgets: string[] = [];
        for (const [code, type] of [
          ['revenue', 'chart'],
          ['top_products', 'table'],
        ]) {
          const w = await must(auth, 'POST', `/api/v1/dashboards/${d.id}/widgets`, {
            title: code,
            widget_type: type,
            data_source: 'live_insight',
            insight_code: code,
          });
          widgets.push(w.id);
        }
        return { auth, dashboard: d.id as string, widgets };
      }),
    );

    const day = (n: number) => new Date(Date.UTC(2025, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
    let seq = 0;
    const pick = (): Operation => {
      let r = Math.random() * 100;
      for (const [op, w] of WEIGHTS) if ((r -= w) < 0) return op;
      return 'dashboards';
    };
    const send = (c: (typeof clients)[number], op: Operation) => {
      const n = seq++;
      switch (op) {
        case 'dashboards':
          return n % 2 ? call(c.auth, 'GET', '/api/v1/dashboards/') : call(c.auth, 'GET', `/api/v1/dashboards/${c.dashboard}`);
        case 'widgets':
          return call(c.auth, 'POST', `/api/v1/dashboards/${c.dashboard}/widgets/${c.widgets[n % 2]}/refresh`);
        case 'execute (cached)':
          // The same few questions over and over: answered from the result cache.
          return call(c.auth, 'GET', CACHED[n % CACHED.length]);
        case 'execute (new range)':
          return call(
            c.auth,
            'GET',
            `/api/v1/insights/${CODES[n % CODES.length]}/execute?date_from=${day(n % 300)}&date_to=${day((n % 300) + 90)}`,
          );
        case 'chat':
          return call(c.auth, 'POST', '/api/v1/ai/chat', { message: QUESTIONS[n % QUESTIONS.length] });
        default:
          return call(c.auth, 'GET', '/api/v1/notifications/logs');
      }
    };

    const latencies = new Map<Operation, number[]>(OPERATIONS.map((o) => [o, []]));
    const errors = new Map<string, number>();
    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssOf(child.pid!))), 200);
    const loop = async (c: (typeof clients)[number], until: number, record: boolean) => {
      while (Date.now() < until) {
        const op = pick();
        const t = performance.now();
        let status: number;
        try {
          status = (await send(c, op)).status;
        } catch (err) {
          status = 0;
          errors.set(`${op}: ${(err as Error).message}`, (errors.get(`${op}: ${(err as Error).message}`) ?? 0) + 1);
        }
        if (!record) continue;
        latencies.get(op)!.push(performance.now() - t);
        if (status >= 300) errors.set(`${op} → ${status}`, (errors.get(`${op} → ${status}`) ?? 0) + 1);
      }
    };
    await Promise.all(clients.map((c) => loop(c, Date.now() + WARMUP_SECONDS * 1000, false)));
    const t0 = Date.now();
    await Promise.all(clients.map((c) => loop(c, t0 + SECONDS * 1000, true)));
    const elapsed = (Date.now() - t0) / 1000;
    clearInterval(sampler);
    const endRss = rssOf(child.pid!);

    const all = [...latencies.values()].flat().sort((a, b) => a - b);
    const rps = all.length / elapsed;
    const p99 = percentile(all, 99);
    const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
    const lines = [
      `Mixed traffic on \`insights serve\` (${useTsx ? 'src/ through tsx' : 'dist/'}${NODE_ARGS.length ? `, node ${NODE_ARGS.join(' ')}` : ''}), embedded PGlite + DuckDB (first-start demo data), ${CLIENTS} clients × ${SECONDS} s after ${WARMUP_SECONDS} s of warm-up`,
      `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; ${new Date().toISOString().slice(0, 16)}Z, load average at the start ${loadAtStart}, at the end ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} (the load generator runs on the same cores)`,
      '',
      '| operation | requests | p50 ms | p99 ms |',
      '|---|---:|---:|---:|',
      ...OPERATIONS.map((o) => {
        const xs = latencies.get(o)!.sort((a, b) => a - b);
        return `| ${o} | ${xs.length} | ${percentile(xs, 50).toFixed(1)} | ${percentile(xs, 99).toFixed(1)} |`;
      }),
      `| **all** | ${all.length} | ${percentile(all, 50).toFixed(1)} | ${p99.toFixed(1)} |`,
      '',
      '| measure | figure | target | |',
      '|---|---:|---|---|',
      `| p99 latency, all operations — ms | ${p99.toFixed(0)} | < ${TARGET.p99Ms} | ${p99 < TARGET.p99Ms ? 'met' : 'NOT met'} |`,
      `| throughput — requests/s | ${rps.toFixed(0)} | ≥ ${TARGET.rps} | ${rps >= TARGET.rps ? 'met' : 'NOT met'} |`,
      `| server RSS, peak under load — MB | ${peakRss.toFixed(0)} | < ${TARGET.rssMb} | ${peakRss < TARGET.rssMb ? 'met' : 'NOT met'} |`,
      `| server RSS at the end — MB | ${endRss.toFixed(0)} | — | |`,
      `| errors (status ≥ 300 or failed) | ${errorCount} | 0 | ${errorCount === 0 ? 'met' : 'NOT met'} |`,
      ...[...errors].slice(0, 10).map(([k, n]) => `  ${n} × ${k}`),
    ];
    console.log(lines.join('\n'));
  } finally {
    await pool.close();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
