// Benchmark of mixed traffic (issue 39): `insights serve` as its own process, as `npm start` runs it
// (dist/ when built, the start script's node flags), on a fresh data dir (embedded PGlite + the
// first start's DuckDB demo data, 200,000 orders of tenants demo and acme), under 64 concurrent
// clients for 30 s over keep-alive. Half the clients are of tenant demo (API tokens), half of
// tenant acme (JWTs); within each, owners, admins and members in turn. Each client loops, sending
// its next request as soon as the last one is answered (closed loop), over:
//   list dashboards, get a dashboard, create + patch + delete a widget (owners and admins: a member
//   may not edit a dashboard, so members skip these three), execute an insight with parameters that
//   vary per request (other insights, date ranges, granularities, filters, limits: no cache hit),
//   ask chat a question that varies the same way (the built-in parser), list the delivery log.
// Printed: p50/p99 per operation client-side (from send to the last byte) and server-side (the
// server's own latency histogram, /metrics, scraped before and after the run: quantiles
// interpolated within its buckets as Prometheus' histogram_quantile does), the share of varied
// executes answered from the cache, requests/s, errors, the server's RSS (peak while loaded, and at
// the end) against the targets p99 < 300 ms, ≥ 600 req/s, RSS < 400 MB, 0 errors.
// Run: npm run bench -- traffic [--tsx]  (BENCH_CLIENTS, BENCH_SECONDS, BENCH_NODE_ARGS to change;
// BENCH_ONLY=chat,execute keeps only the operations whose names contain one of those words, to
// measure one operation's cost alone)
// The limits per caller are raised for the run (INSIGHTS_RATE_LIMIT, INSIGHTS_CHAT_RATE_LIMIT): it
// measures the service, not its limiter (which still runs on every request).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import { Pool } from 'undici';
import { loadAverage, machineLines } from './bench-server.ts';
import { NODE_ARGS, ROOT, startServerProcess } from './fixtures/server-process.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 64);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const WARMUP_SECONDS = 3;
const TARGET = { p99Ms: 300, rps: 600, rssMb: 400 };

/** Each operation and the route the server's histogram names it by. */
const OPERATIONS = {
  'list dashboards': 'GET /api/v1/dashboards/',
  'get a dashboard': 'GET /api/v1/dashboards/:id',
  'create a widget': 'POST /api/v1/dashboards/:id/widgets',
  'patch a widget': 'PATCH /api/v1/dashboards/:id/widgets/:wid',
  'delete a widget': 'DELETE /api/v1/dashboards/:id/widgets/:wid',
  'execute (varied)': 'GET /api/v1/insights/:code/execute',
  chat: 'POST /api/v1/ai/chat',
  'delivery log': 'GET /api/v1/notifications/logs',
} as const;
type Operation = keyof typeof OPERATIONS;
const ONLY = process.env.BENCH_ONLY?.split(',')
  .map((w) => w.trim())
  .filter(Boolean);
const sends = (op: Operation) => !ONLY || ONLY.some((w) => op.includes(w));
const ROLES = ['owner', 'admin', 'member'] as const;

// The varied parameters: insights with what each takes. n picks every choice independently
// (different primes), so over a run the combinations practically never repeat.
const INSIGHTS: { code: string; granularity?: boolean; limit?: number; category?: boolean }[] = [
  { code: 'revenue', granularity: true },
  { code: 'orders_count', granularity: true },
  { code: 'average_order_value', granularity: true },
  { code: 'refund_rate', granularity: true },
  { code: 'revenue_kpi', granularity: true },
  { code: 'revenue_by_country', limit: 50 },
  { code: 'revenue_by_channel', limit: 10 },
  { code: 'top_products', limit: 100, category: true },
];
const GRANULARITIES = ['day', 'week', 'month', 'quarter'];
const COUNTRIES = ['DE', 'FR', 'US', 'GB', 'ES', 'IT', 'NL'];
const CHANNELS = ['web', 'mobile', 'marketplace', 'retail'];
const CATEGORIES = ['Electronics', 'Toys', 'Books', 'Garden'];
const QUESTION_SUBJECTS = [
  'revenue',
  'orders',
  'average order value',
  'refund rate',
  'revenue by channel',
  'top products',
  'revenue by country',
];
const QUESTION_PLACES = ['', ' in Germany', ' in France', ' on mobile', ' in the United States', ' on the marketplace'];
const QUESTION_TIMES = [
  'last month',
  'last quarter',
  'this year',
  'last 30 days',
  'last 90 days',
  'by week last quarter',
  'by month this year',
  'last year',
];

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** CPU time (user + system) the process has used, in ms: in all, and its main thread's (the task whose id is the pid). */
function cpuOf(pid: number): { all: number; main: number } {
  const ticks = (stat: string) => {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  };
  return {
    all: ticks(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')),
    main: ticks(fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8')),
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : Number.NaN;

/** The server's latency histogram by "METHOD route": cumulative counts per upper bound (seconds). */
type Histograms = Map<string, Map<number, number>>;

function parseHistograms(text: string): Histograms {
  const out: Histograms = new Map();
  const re = /^http_request_duration_seconds_bucket\{([^}]*)\} (\d+(?:\.\d+)?)/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const labels = Object.fromEntries([...m[1].matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    const key = `${labels.method} ${labels.route}`;
    const le = labels.le === '+Inf' ? Number.POSITIVE_INFINITY : Number(labels.le);
    const buckets = out.get(key) ?? new Map<number, number>();
    // Statuses are summed: the bench counts its errors separately.
    buckets.set(le, (buckets.get(le) ?? 0) + Number(m[2]));
    out.set(key, buckets);
  }
  return out;
}

/** A quantile of the requests between two scrapes, interpolated linearly within its bucket (histogram_quantile). */
function serverQuantile(before: Histograms, after: Histograms, key: string, q: number): number {
  const a = after.get(key);
  if (!a) return Number.NaN;
  const b = before.get(key);
  const bounds = [...a.keys()].sort((x, y) => x - y);
  const counts = bounds.map((le) => a.get(le)! - (b?.get(le) ?? 0));
  const total = counts[counts.length - 1];
  if (!total) return Number.NaN;
  const rank = q * total;
  for (let i = 0; i < bounds.length; i++) {
    if (counts[i] < rank) continue;
    const lower = i === 0 ? 0 : bounds[i - 1];
    const below = i === 0 ? 0 : counts[i - 1];
    // Above the last finite bound Prometheus answers that bound.
    if (!Number.isFinite(bounds[i])) return lower * 1000;
    return (lower + ((bounds[i] - lower) * (rank - below)) / (counts[i] - below || 1)) * 1000;
  }
  return Number.NaN;
}

export async function run(args: string[]): Promise<void> {
  const useTsx = args.includes('--tsx');
  if (!useTsx && !fs.existsSync(path.join(ROOT, 'dist/cli.js')))
    throw new Error('dist/ is missing: run `npm run build` first (or pass --tsx)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-bench-traffic-'));
  const loadAtStart = loadAverage();
  const jwtSecret = crypto.randomBytes(32).toString('base64url');
  const { child, origin, token } = await startServerProcess(dataDir, useTsx, {
    INSIGHTS_RATE_LIMIT: '1000000',
    INSIGHTS_CHAT_RATE_LIMIT: '1000000',
    INSIGHTS_JWT_SECRET: jwtSecret,
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
    const jwt = (tenant: string, role: string, sub: string) =>
      new SignJWT({ tenant_id: tenant, role })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(sub)
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(jwtSecret));

    // Set-up: per client a credential; per tenant and creator a dashboard with a live widget, which
    // every client of that tenant reads, and owners and admins edit widgets on their own one.
    const owner = `Svc ${token}`;
    const clients = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, i) => {
        const tenant = i % 2 ? 'acme' : 'demo';
        const role = ROLES[Math.floor(i / 2) % 3];
        const auth =
          tenant === 'demo'
            ? `Svc ${(await must(owner, 'POST', '/api/v1/auth/tokens', { name: `traffic ${i}`, user_id: `client${i}`, role })).token}`
            : `Bearer ${await jwt(tenant, role, `client${i}`)}`;
        return { i, tenant, role, auth, dashboard: '' };
      }),
    );
    for (const tenant of ['demo', 'acme']) {
      const admin = clients.find((c) => c.tenant === tenant && c.role === 'admin')!;
      const shared = await must(admin.auth, 'POST', '/api/v1/dashboards/', {
        name: `Traffic ${tenant}`,
        description: 'bench',
        is_shared: true,
      });
      await must(admin.auth, 'POST', `/api/v1/dashboards/${shared.id}/widgets`, {
        title: 'Revenue',
        widget_type: 'chart',
        data_source: 'live_insight',
        insight_code: 'revenue',
      });
      for (const c of clients.filter((x) => x.tenant === tenant)) {
        c.dashboard =
          c.role === 'member'
            ? shared.id
            : (await must(c.auth, 'POST', '/api/v1/dashboards/', { name: `Traffic ${c.i}`, description: 'bench' })).id;
      }
    }

    const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
    const day = (back: number) => new Date(today - back * 86_400_000).toISOString().slice(0, 10);
    let seq = 0;
    const variedExecute = (n: number): string => {
      const ins = INSIGHTS[n % INSIGHTS.length];
      const span = 14 + ((n * 37) % 360);
      const from = span + ((n * 53) % (700 - span));
      const q = new URLSearchParams({ date_from: day(from), date_to: day(from - span) });
      if (ins.granularity) q.set('granularity', GRANULARITIES[(n * 3) % GRANULARITIES.length]);
      if (n % 3 === 1) q.set('country', COUNTRIES[(n * 5) % COUNTRIES.length]);
      if (n % 4 === 2) q.set('channel', CHANNELS[(n * 7) % CHANNELS.length]);
      if (ins.category && n % 2) q.set('category', CATEGORIES[(n * 11) % CATEGORIES.length]);
      if (ins.limit) q.set('limit', String(1 + ((n * 13) % ins.limit)));
      return `/api/v1/insights/${ins.code}/execute?${q}`;
    };
    const question = (n: number) =>
      `${QUESTION_SUBJECTS[n % QUESTION_SUBJECTS.length]}${QUESTION_PLACES[(n * 5) % QUESTION_PLACES.length]} ${QUESTION_TIMES[(n * 3) % QUESTION_TIMES.length]}`;

    const latencies = new Map<Operation, number[]>(Object.keys(OPERATIONS).map((o) => [o as Operation, []]));
    const errors = new Map<string, number>();
    let executes = 0;
    let executesCached = 0;
    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssOf(child.pid!))), 200);
    const loop = async (c: (typeof clients)[number], until: number, record: boolean) => {
      const timed = async (op: Operation, method: string, p: string, body?: unknown) => {
        if (!sends(op)) return { status: 204, data: undefined };
        const t = performance.now();
        let r: { status: number; data: any };
        try {
          r = await call(c.auth, method, p, body);
        } catch (err) {
          r = { status: 0, data: undefined };
          errors.set(`${op}: ${(err as Error).message}`, (errors.get(`${op}: ${(err as Error).message}`) ?? 0) + 1);
        }
        if (record) {
          latencies.get(op)!.push(performance.now() - t);
          if (r.status >= 300) {
            const key = `${op} → ${r.status} ${JSON.stringify(r.data)?.slice(0, 200)}`;
            errors.set(key, (errors.get(key) ?? 0) + 1);
          }
        }
        return r;
      };
      // A client none of whose operations BENCH_ONLY keeps (a member, when only widget writes are
      // measured) stops: its loop would never wait for I/O and would starve the others.
      if (!(Object.keys(OPERATIONS) as Operation[]).some((op) => sends(op) && (c.role !== 'member' || !op.includes('widget')))) return;
      while (Date.now() < until) {
        const n = seq++;
        await timed('list dashboards', 'GET', '/api/v1/dashboards/');
        await timed('get a dashboard', 'GET', `/api/v1/dashboards/${c.dashboard}`);
        if (c.role !== 'member' && sends('create a widget')) {
          const w = await timed('create a widget', 'POST', `/api/v1/dashboards/${c.dashboard}/widgets`, {
            title: `Orders ${n}`,
            widget_type: 'chart',
            data_source: 'live_insight',
            insight_code: 'orders_count',
          });
          if (w.data?.id) {
            await timed('patch a widget', 'PATCH', `/api/v1/dashboards/${c.dashboard}/widgets/${w.data.id}`, {
              title: `Orders by week ${n}`,
            });
            await timed('delete a widget', 'DELETE', `/api/v1/dashboards/${c.dashboard}/widgets/${w.data.id}`);
          }
        }
        const e = await timed('execute (varied)', 'GET', variedExecute(n));
        if (record && e.status === 200) {
          executes++;
          if (e.data?.data?.cached) executesCached++;
        }
        await timed('chat', 'POST', '/api/v1/ai/chat', { message: question(n) });
        await timed('delivery log', 'GET', '/api/v1/notifications/logs');
      }
    };
    await Promise.all(clients.map((c) => loop(c, Date.now() + WARMUP_SECONDS * 1000, false)));
    const scrape = async () => parseHistograms((await call(owner, 'GET', '/metrics')).data as string);
    const before = await scrape();
    const cpuBefore = cpuOf(child.pid!);
    const ownCpuBefore = process.cpuUsage();
    const t0 = Date.now();
    await Promise.all(clients.map((c) => loop(c, t0 + SECONDS * 1000, true)));
    const elapsed = (Date.now() - t0) / 1000;
    const cpuAfter = cpuOf(child.pid!);
    const ownCpu = process.cpuUsage(ownCpuBefore);
    const after = await scrape();
    clearInterval(sampler);
    const endRss = rssOf(child.pid!);

    const all = [...latencies.values()].flat().sort((a, b) => a - b);
    const rps = all.length / elapsed;
    const p99 = percentile(all, 99);
    const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
    const f = (x: number) => (Number.isNaN(x) ? '—' : x.toFixed(1));
    const lines = [
      `Mixed traffic on \`insights serve\` (${useTsx ? 'src/ through tsx' : 'dist/'}${NODE_ARGS.length ? `, node ${NODE_ARGS.join(' ')}` : ''}), embedded PGlite + DuckDB (first-start demo data, 200,000 orders), ${CLIENTS} clients of 2 tenants × ${SECONDS} s after ${WARMUP_SECONDS} s of warm-up`,
      ...machineLines('the load generator on the same cores', loadAtStart),
      '',
      '| operation | requests | client p50 ms | client p99 ms | server p50 ms | server p99 ms |',
      '|---|---:|---:|---:|---:|---:|',
      ...(Object.keys(OPERATIONS) as Operation[]).map((o) => {
        const xs = latencies.get(o)!.sort((a, b) => a - b);
        const route = OPERATIONS[o];
        return `| ${o} | ${xs.length} | ${f(percentile(xs, 50))} | ${f(percentile(xs, 99))} | ${f(serverQuantile(before, after, route, 0.5))} | ${f(serverQuantile(before, after, route, 0.99))} |`;
      }),
      `| **all** | ${all.length} | ${f(percentile(all, 50))} | ${f(p99)} | | |`,
      '',
      `Varied executes answered from the cache: ${executesCached} of ${executes}.`,
      `Server CPU per request (user + system, /proc; steadier than the latencies on a shared machine): ${((cpuAfter.all - cpuBefore.all) / all.length).toFixed(2)} ms, of which its main thread ${((cpuAfter.main - cpuBefore.main) / all.length).toFixed(2)} ms; the load generator's ${((ownCpu.user + ownCpu.system) / 1000 / all.length).toFixed(2)} ms.`,
      ...(ONLY ? [`Only the operations matching ${ONLY.join(', ')} (BENCH_ONLY).`] : []),
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
