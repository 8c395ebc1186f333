// Benchmark of data loading (npm run bench -- load [--rows N] [--upload-rows N] [--rounds N] [--only csv|upload|parquet]):
//  1. a 10,000,000-row CSV through `insights data load` (a real process, start-up included) against
//     `CREATE TABLE … AS SELECT * FROM read_csv(…)` in plain DuckDB on the same file, both into a
//     fresh database file — speed ratio, target ≥ 0.8;
//  2. a 1,000,000-row NDJSON upload over HTTP to a real `insights serve` process: the growth of
//     its resident memory (VmRSS from /proc/PID/status, sampled every 20 ms) — target < 200 MB.
//  3. vega-datasets' flights-3m.parquet (3,000,000 real rows, a dev dependency) through `insights
//     data load` against `CREATE TABLE … AS SELECT * FROM read_parquet(…)` in plain DuckDB — rows/s
//     and the ratio, target ≥ 0.8 (examples/flights).
// The input files are generated once with DuckDB COPY into the temp dir and reused.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { SignJWT } from 'jose';
import { request } from 'undici';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin/insights.js');

const GENERATOR = (rows: number) => `SELECT i AS order_id, 1 + (i * 7919) % 50000 AS customer_id,
  TIMESTAMP '2025-01-01' + to_seconds((i * 61) % 31536000) AS ordered_at,
  ['DE','FR','US','GB','NL','ES'][1 + i % 6] AS country, ['web','app','store'][1 + i % 3] AS channel,
  CASE WHEN i % 10 = 0 THEN 'refunded' ELSE 'completed' END AS status, 1 + i % 5 AS items,
  round(5 + (i * 37) % 50000 / 100.0, 2) AS revenue
  FROM range(${rows}) t(i)`;

async function generate(file: string, rows: number, format: 'csv' | 'json'): Promise<void> {
  if (fs.existsSync(file)) return;
  process.stderr.write(`Generating ${rows.toLocaleString('en')} rows into ${file} … `);
  const started = Date.now();
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  const tmp = `${file}.${process.pid}.tmp`;
  await conn.run(`COPY (${GENERATOR(rows)}) TO '${tmp}' (FORMAT ${format}${format === 'csv' ? ', HEADER true' : ''})`);
  conn.closeSync();
  instance.closeSync();
  fs.renameSync(tmp, file);
  process.stderr.write(`${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

function runInsights(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', ...extra };
  delete env.DATABASE_URL;
  delete env.WAREHOUSE_URL;
  return env;
}

async function plainDuckDb(csv: string): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-bench-plain-'));
  try {
    const started = process.hrtime.bigint();
    const instance = await DuckDBInstance.create(path.join(dir, 'plain.duckdb'));
    const conn = await instance.connect();
    await conn.run(`CREATE TABLE orders AS SELECT * FROM read_csv('${csv}')`);
    conn.closeSync();
    instance.closeSync();
    return Number(process.hrtime.bigint() - started) / 1e9;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function insightsCli(csv: string): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-bench-load-'));
  try {
    const started = process.hrtime.bigint();
    const res = await runInsights(
      ['data', 'load', '--table', 'bench_orders', '--file', csv, '--tenant', 'demo'],
      cleanEnv({ INSIGHTS_DATA_DIR: dir }),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (res.code !== 0) throw new Error(`insights data load failed:\n${res.out}`);
    return seconds;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const FLIGHTS_PARQUET = path.join(ROOT, 'node_modules/vega-datasets/data/flights-3m.parquet');

/** The 3 M-row Parquet of examples/flights: best seconds of plain DuckDB and of `insights data load`, interleaved. */
async function parquetLoad(rounds: number): Promise<{ rows: number; plain: number; ours: number }> {
  const plain: number[] = [];
  const ours: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-bench-parquet-'));
    try {
      let started = process.hrtime.bigint();
      const instance = await DuckDBInstance.create(path.join(dir, 'plain.duckdb'));
      const conn = await instance.connect();
      await conn.run(`CREATE TABLE flights AS SELECT * FROM read_parquet('${FLIGHTS_PARQUET}')`);
      conn.closeSync();
      instance.closeSync();
      plain.push(Number(process.hrtime.bigint() - started) / 1e9);
      started = process.hrtime.bigint();
      const res = await runInsights(
        ['data', 'load', '--table', 'flights', '--file', FLIGHTS_PARQUET, '--tenant', 'demo'],
        cleanEnv({ INSIGHTS_DATA_DIR: path.join(dir, 'data') }),
      );
      if (res.code !== 0) throw new Error(`insights data load failed:\n${res.out}`);
      ours.push(Number(process.hrtime.bigint() - started) / 1e9);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    process.stderr.write(
      `parquet round ${r + 1}: plain DuckDB ${plain.at(-1)!.toFixed(2)} s, insights data load ${ours.at(-1)!.toFixed(2)} s\n`,
    );
  }
  return { rows: 3_000_000, plain: Math.min(...plain), ours: Math.min(...ours) };
}

function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : 0;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function upload(ndjson: string): Promise<{ seconds: number; baseMb: number; peakMb: number; rows: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-bench-serve-'));
  const secret = crypto.randomBytes(32).toString('base64url');
  const port = await freePort();
  let child: ChildProcess | undefined;
  try {
    // A tiny demo warehouse first, so the server does not generate the full demo data set at start.
    const seeded = await runInsights(['demo', 'seed', '--rows', '100'], cleanEnv({ INSIGHTS_DATA_DIR: dir }));
    if (seeded.code !== 0) throw new Error(seeded.out);
    // Over the API a tenant loads only into tables the model reads: the demo model plus a cube on bench_events.
    const model = path.join(dir, 'model');
    fs.mkdirSync(model);
    fs.copyFileSync(path.join(ROOT, 'models/demo.yml'), path.join(model, 'demo.yml'));
    fs.writeFileSync(
      path.join(model, 'bench.yml'),
      'cubes:\n  - name: bench_events\n    sql_table: bench_events\n    tenant_column: tenant_id\n    measures:\n      - { name: rows, type: count }\n',
    );
    child = spawn(process.execPath, [BIN, 'serve'], {
      cwd: ROOT,
      env: cleanEnv({ INSIGHTS_DATA_DIR: dir, PORT: String(port), INSIGHTS_JWT_SECRET: secret, INSIGHTS_MODEL: model }),
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const origin = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${origin}/readyz`)).ok) break;
      } catch {
        // not yet
      }
      if (i > 600) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const jwt = await new SignJWT({ tenant_id: 'demo', role: 'owner' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('bench')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(secret));
    const headers = { authorization: `Bearer ${jwt}` };
    // Warm the process up (routes, DuckDB) before taking the baseline.
    await (await fetch(`${origin}/api/v1/data/tables`, { headers })).text();
    await new Promise((r) => setTimeout(r, 500));
    const pid = child.pid!;
    const base = rssKb(pid);
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, rssKb(pid))), 20);
    const started = process.hrtime.bigint();
    const res = await request(`${origin}/api/v1/data/bench_events?mode=replace`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-ndjson', 'content-length': String(fs.statSync(ndjson).size) },
      body: fs.createReadStream(ndjson),
      bodyTimeout: 0,
      headersTimeout: 0,
    });
    const body = (await res.body.json()) as { rows_loaded?: number };
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    clearInterval(sampler);
    peak = Math.max(peak, rssKb(pid));
    if (res.statusCode !== 200) throw new Error(`upload answered ${res.statusCode}: ${JSON.stringify(body)}`);
    return { seconds, baseMb: base / 1024, peakMb: peak / 1024, rows: body.rows_loaded ?? 0 };
  } finally {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const ORDERS_GENERATOR = (rows: number) => `SELECT i AS order_id, 1 + i % 50000 AS customer_id,
  TIMESTAMP '2025-01-01' + to_seconds((i * 61) % 31536000) AS ordered_at, ['DE','FR','US','GB'][1 + i % 4] AS country,
  ['web','mobile','marketplace'][1 + i % 3] AS channel, CASE WHEN i % 10 = 0 THEN 'refunded' ELSE 'completed' END AS status,
  1 + i % 5 AS items, round(5 + (i * 37) % 50000 / 100.0, 2) AS revenue, 0 AS discount FROM range(${rows}) t(i)`;

/**
 * Tenant fairness: tenant acme uploads a `rows`-row CSV into orders; once its load runs, tenant
 * demo's 1-row load is timed (target < 1 s: it must not wait for acme's). Both over HTTP to
 * `insights serve` on a fresh data dir.
 */
async function tenantFairness(rows: number): Promise<string[]> {
  const csv = path.join(os.tmpdir(), `insights-bench-fair-${rows}.csv`);
  if (!fs.existsSync(csv)) {
    process.stderr.write(`Generating ${rows.toLocaleString('en')} orders into ${csv} … `);
    const instance = await DuckDBInstance.create(':memory:');
    const conn = await instance.connect();
    await conn.run(`COPY (${ORDERS_GENERATOR(rows)}) TO '${csv}.tmp' (FORMAT csv, HEADER true)`);
    conn.closeSync();
    instance.closeSync();
    fs.renameSync(`${csv}.tmp`, csv);
    process.stderr.write('done\n');
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-bench-fair-'));
  const secret = crypto.randomBytes(32).toString('base64url');
  const port = await freePort();
  let child: ChildProcess | undefined;
  try {
    const seeded = await runInsights(['demo', 'seed', '--rows', '100'], cleanEnv({ INSIGHTS_DATA_DIR: dir }));
    if (seeded.code !== 0) throw new Error(seeded.out);
    child = spawn(process.execPath, [BIN, 'serve'], {
      cwd: ROOT,
      env: cleanEnv({ INSIGHTS_DATA_DIR: dir, PORT: String(port), INSIGHTS_JWT_SECRET: secret }),
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const origin = `http://127.0.0.1:${port}`;
    for (
      let i = 0;
      !(await fetch(`${origin}/readyz`).then(
        (r) => r.ok,
        () => false,
      ));
      i++
    ) {
      if (i > 600) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const auth = async (tenant: string) =>
      `Bearer ${await new SignJWT({ tenant_id: tenant, role: 'owner' }).setProtectedHeader({ alg: 'HS256' }).setSubject('bench').setExpirationTime('1h').sign(new TextEncoder().encode(secret))}`;
    const [acme, demo] = [await auth('acme'), await auth('demo')];
    let bodySent!: () => void;
    const sent = new Promise<void>((r) => (bodySent = r));
    const bigStarted = process.hrtime.bigint();
    let bigDone = false;
    const big = request(`${origin}/api/v1/data/orders`, {
      method: 'POST',
      headers: { authorization: acme, 'content-type': 'text/csv', 'content-length': String(fs.statSync(csv).size) },
      body: fs.createReadStream(csv).on('end', () => bodySent()),
      bodyTimeout: 0,
      headersTimeout: 0,
    }).then(async (res) => {
      bigDone = true;
      return { status: res.statusCode, body: (await res.body.json()) as { rows_loaded?: number } };
    });
    await sent;
    // The body is stored; give the server a moment to start loading it.
    await new Promise((r) => setTimeout(r, 1500));
    const smallStarted = process.hrtime.bigint();
    const small = await request(`${origin}/api/v1/data/orders`, {
      method: 'POST',
      headers: { authorization: demo, 'content-type': 'text/csv' },
      body: 'order_id,customer_id,ordered_at,country,channel,status,items,revenue,discount\n1,1,2026-01-01 10:00:00,DE,web,completed,1,10.00,0\n',
    });
    await small.body.text();
    const smallSeconds = Number(process.hrtime.bigint() - smallStarted) / 1e9;
    const whileRunning = !bigDone;
    const done = await big;
    const bigSeconds = Number(process.hrtime.bigint() - bigStarted) / 1e9;
    if (small.statusCode !== 200 || done.status !== 200)
      throw new Error(`answers: small ${small.statusCode}, big ${done.status} ${JSON.stringify(done.body)}`);
    return [
      `| another tenant's 1-row load while a ${rows.toLocaleString('en')}-row load ${whileRunning ? 'runs' : 'ran (it had ended: not measured under load)'} | ${smallSeconds.toFixed(2)} s (the big load: ${bigSeconds.toFixed(1)} s in all) | 1 s | ${smallSeconds.toFixed(2)} | < 1 s → ${smallSeconds < 1 && whileRunning ? 'met' : 'NOT met'} |`,
    ];
  } finally {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      rows: { type: 'string' },
      'upload-rows': { type: 'string' },
      'fair-rows': { type: 'string' },
      rounds: { type: 'string' },
      only: { type: 'string' },
    },
  });
  const only = values.only;
  if (only === 'fairness') {
    const fairRows = Number((values['fair-rows'] ?? '10000000').replace(/_/g, ''));
    const rows = await tenantFairness(fairRows);
    console.log(
      [
        `Tenant fairness — load average ${os
          .loadavg()
          .map((x) => x.toFixed(2))
          .join(' ')}, ${os.cpus().length} cores`,
        '',
        '| measure | insights service | baseline | ratio | target |',
        '|---|---|---|---|---|',
        ...rows,
      ].join('\n'),
    );
    return;
  }
  const rows = Number((values.rows ?? '10000000').replace(/_/g, ''));
  const uploadRows = Number((values['upload-rows'] ?? '1000000').replace(/_/g, ''));
  const rounds = Number(values.rounds ?? 2);
  const csv = path.join(os.tmpdir(), `insights-bench-load-${rows}.csv`);
  const ndjson = path.join(os.tmpdir(), `insights-bench-load-${uploadRows}.ndjson`);
  const parquetOnly = only === 'parquet';
  if (only !== 'upload' && !parquetOnly) await generate(csv, rows, 'csv');
  if (only !== 'csv' && !parquetOnly) await generate(ndjson, uploadRows, 'json');

  // Interleaved, best of each: the machine is shared, and the best run is the least disturbed.
  const plain: number[] = [];
  const ours: number[] = [];
  for (let r = 0; r < (only === 'upload' || parquetOnly ? 0 : rounds); r++) {
    plain.push(await plainDuckDb(csv));
    ours.push(await insightsCli(csv));
    process.stderr.write(`round ${r + 1}: plain DuckDB ${plain.at(-1)!.toFixed(2)} s, insights data load ${ours.at(-1)!.toFixed(2)} s\n`);
  }
  const bestPlain = Math.min(...plain);
  const bestOurs = Math.min(...ours);
  const up = only === 'csv' || parquetOnly ? undefined : await upload(ndjson);
  const pq = only === undefined || parquetOnly ? await parquetLoad(rounds) : undefined;
  const fair =
    only === 'csv' || only === 'upload' || parquetOnly
      ? []
      : await tenantFairness(Number((values['fair-rows'] ?? '10000000').replace(/_/g, '')));

  const mb = (file: string) => (fs.existsSync(file) ? `${(fs.statSync(file).size / 1024 / 1024).toFixed(0)} MB` : '—');
  const out = [
    `Data loading benchmark — ${rows.toLocaleString('en')}-row CSV (${mb(csv)}), ${uploadRows.toLocaleString('en')}-row NDJSON (${mb(ndjson)})`,
    `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, DuckDB via @duckdb/node-api; best of ${rounds} interleaved rounds`,
    '',
    '| measure | insights service | baseline | ratio | target |',
    '|---|---|---|---|---|',
    ...(ours.length
      ? [
          `| CSV load, rows/s (\`insights data load\`, whole process vs plain DuckDB CTAS) | ${Math.round(rows / bestOurs).toLocaleString('en')} (${bestOurs.toFixed(2)} s) | ${Math.round(rows / bestPlain).toLocaleString('en')} (${bestPlain.toFixed(2)} s) | ${(bestPlain / bestOurs).toFixed(2)} | ≥ 0.8 |`,
        ]
      : []),
    ...(up
      ? [
          `| NDJSON upload over HTTP, server RSS growth | ${(up.peakMb - up.baseMb).toFixed(0)} MB (${up.baseMb.toFixed(0)} → ${up.peakMb.toFixed(0)} MB; ${up.rows.toLocaleString('en')} rows in ${up.seconds.toFixed(1)} s) | — | — | < 200 MB |`,
        ]
      : []),
    ...(pq
      ? [
          `| Parquet load, rows/s (vega-datasets flights-3m, 3,000,000 rows, vs plain DuckDB CTAS from read_parquet) | ${Math.round(pq.rows / pq.ours).toLocaleString('en')} (${pq.ours.toFixed(2)} s) | ${Math.round(pq.rows / pq.plain).toLocaleString('en')} (${pq.plain.toFixed(2)} s) | ${(pq.plain / pq.ours).toFixed(2)} | ≥ 0.8 |`,
        ]
      : []),
    ...fair,
    '',
    'Baseline: `CREATE TABLE orders AS SELECT * FROM read_csv(file)` through @duckdb/node-api into a fresh database file, in this process. Ours: `insights data load` as a child process into a fresh data dir (process start, detection, checks, the transaction and the tenant column included).',
  ];
  console.log(out.join('\n'));
}
