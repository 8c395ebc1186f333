// A workload to profile one hot path in isolation (docs/performance.md), not a benchmark:
//   node --import tsx bench/profile.ts cached-svc|cached-jwt|bare|rollup|varied [seconds] [out.cpuprofile]
//   node scripts/cpuprofile-top.mjs out.cpuprofile
// The main thread is profiled (node:inspector) only while the load runs: start-up, migrations and
// the rollup build stay out of the figures.
// cached-*: closed-loop load (16 connections, from a worker thread, which has its own profile) on
// one cached execute, authenticated by an API token (Svc) or a JWT (Bearer). rollup: the same
// execute one at a time with the result cache emptied before each, answered from orders.daily.
// The warehouse is PROFILE_WAREHOUSE (default: 200,000 demo orders generated once into the temp dir).
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { Worker } from 'node:worker_threads';
import { SignJWT } from 'jose';
import { request } from 'undici';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/index.ts';
import { PGliteDb } from '../src/db/index.ts';
import { migrate } from '../src/db/migrate.ts';
import { systemClock } from '../src/lib/clock.ts';
import { SecretBox } from '../src/lib/secrets.ts';
import { DuckDbWarehouse } from '../src/warehouse/duckdb/duckdb.ts';
import { seedDemo } from '../src/warehouse/demo/demo.ts';

const mode = process.argv[2] ?? 'cached-svc';
const seconds = Number(process.argv[3] ?? 10);
const SECRET = crypto.randomBytes(32).toString('base64url');

const file = process.env.PROFILE_WAREHOUSE ?? path.join(os.tmpdir(), 'insights-profile-200000.duckdb');
if (!fs.existsSync(file)) {
  const gen = await DuckDbWarehouse.open(file, { memoryLimit: '1GB', threads: 2 });
  await seedDemo(gen, { rows: 200_000, tenants: ['demo', 'acme'], endDay: new Date().toISOString().slice(0, 10), now: new Date() });
  await gen.close();
}
const wh = await DuckDbWarehouse.open(file, loadConfig().duckdb);
const db = await PGliteDb.open({});
await migrate(db);
const config = loadConfig({ INSIGHTS_JWT_SECRET: SECRET, INSIGHTS_RATE_LIMIT: '1000000', INSIGHTS_DATA_DIR: os.tmpdir() });
const app = await buildApp({
  config,
  db,
  clock: systemClock,
  secrets: new SecretBox(crypto.randomBytes(32)),
  warehouse: wh,
  logger: false,
});
await app.listen({ host: '127.0.0.1', port: 0 });
const origin = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
await app.services.rollups.build(['orders.daily']);

let headers: Record<string, string>;
if (mode === 'cached-jwt') {
  const jwt = await new SignJWT({ tenant_id: 'demo', role: 'member' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('bench')
    .setExpirationTime('2h')
    .sign(new TextEncoder().encode(SECRET));
  headers = { authorization: `Bearer ${jwt}` };
} else {
  const { token } = await app.services.tokens.create({ tenantId: 'demo', name: 'profile', userId: 'bench', role: 'member' });
  headers = { authorization: `Svc ${token}` };
}
const url = '/api/v1/insights/revenue/execute?granularity=week&country=DE&date_from=2024-01-01&date_to=2025-12-31';
const first = await request(origin + url, { headers });
if (first.statusCode !== 200) throw new Error(`execute → ${first.statusCode} ${await first.body.text()}`);
const answer = Buffer.from(await first.body.arrayBuffer());
// bare: a node:http server in this same process answering the same bytes to the same requests
// (the cached bench's reference), to compare its profile with cached-svc's.
let target = { origin, url };
if (mode === 'bare') {
  const bare = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': answer.length });
    res.end(answer);
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  target = { origin: `http://127.0.0.1:${(bare.address() as { port: number }).port}`, url: '/' };
}

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.start');
let done = 0;
const t0 = performance.now();
if (mode === 'varied') {
  // Executes whose parameters differ every time (insight, window, granularity, filters, limit), as
  // the traffic bench sends them: never a cache hit. Prints the median wall time of one.
  const codes = ['revenue', 'orders_count', 'average_order_value', 'refund_rate', 'revenue_kpi', 'revenue_by_country', 'top_products'];
  const day = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);
  const end = Date.now() + seconds * 1000;
  const times: number[] = [];
  for (let n = 0; Date.now() < end; n++) {
    const span = 14 + ((n * 37) % 360);
    const from = span + ((n * 53) % (700 - span));
    const q = new URLSearchParams({ date_from: day(from), date_to: day(from - span) });
    if (n % 3 === 1) q.set('country', ['DE', 'FR', 'US'][n % 3]);
    const t = performance.now();
    const res = await request(`${origin}/api/v1/insights/${codes[n % codes.length]}/execute?${q}`, { headers });
    const body = (await res.body.json()) as { data: { cached: boolean } };
    if (res.statusCode !== 200) throw new Error(JSON.stringify(body));
    times.push(performance.now() - t);
    done++;
  }
  times.sort((a, b) => a - b);
  console.log(`varied: median ${times[times.length >> 1].toFixed(1)} ms, p90 ${times[Math.floor(times.length * 0.9)].toFixed(1)} ms`);
} else if (mode === 'rollup') {
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    app.services.insights.invalidate();
    const res = await request(origin + url, { headers });
    const body = (await res.body.json()) as { data: { cached: boolean } };
    if (body.data.cached) throw new Error('expected an uncached execution');
    done++;
  }
} else {
  const out = await new Promise<{ done: number; failed: number }>((resolve, reject) => {
    const w = new Worker(new URL('./load-worker.mjs', import.meta.url), {
      workerData: { origin: target.origin, path: target.url, headers, connections: 16, durationMs: seconds * 1000 },
    });
    w.once('message', resolve);
    w.once('error', reject);
  });
  if (out.failed) throw new Error(`${out.failed} failed`);
  done = out.done;
}
const ms = performance.now() - t0;
const { profile } = await session.post('Profiler.stop');
fs.writeFileSync(process.argv[4] ?? `${mode}.cpuprofile`, JSON.stringify(profile));
console.log(
  `${mode}: ${done} requests in ${(ms / 1000).toFixed(1)} s (${Math.round((done / ms) * 1000)}/s); load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
await app.close();
await db.close();
await wh.close();
process.exit(0);
