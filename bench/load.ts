// Benchmark of data loading (npm run bench -- load [--rows N] [--upload-rows N] [--rounds N] [--only csv|upload|parquet|fairness]):
//  1. a 10,000,000-row CSV through `insights data load` (a real process) against `CREATE TABLE …
//     AS SELECT * FROM read_csv(…)` in plain DuckDB on the same file, both into a fresh database
//     file, net of the process's start-up (a 1-row load into a fresh data dir, timed in the same
//     round) — speed ratio, target ≥ 1.0 (issue 38: never slower than the engine reading the file);
//  2. a 1,000,000-row NDJSON upload over HTTP to a real `insights serve` process, to the 200 —
//     target ≤ 4 s — and the growth of its resident memory meanwhile (VmRSS from /proc/PID/status,
//     sampled every 20 ms) — target < 200 MB;
//  3. vega-datasets' flights-3m.parquet (3,000,000 real rows, a dev dependency) through `insights
//     data load` against `CREATE TABLE … AS SELECT * FROM read_parquet(…)` in plain DuckDB, net of
//     start-up as in 1 — rows/s and the ratio (examples/flights).
// Three rounds by default, interleaved, the median reported; each figure with the load average
// (1 min) it ran at, since the machine may be shared. The input files are generated once with
// DuckDB COPY into the temp dir and reused.
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

// Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux).
const TICKS = 100;

/**
 * Runs `insights ARGS` and reports its CPU seconds (user + system, every thread) beside its output:
 * through a shell, whose children's times in /proc/<shell>/stat are the command's once it is reaped.
 * On a shared machine the CPU a load spends moves far less with the load average than its wall time.
 */
function runInsights(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; cpu: number }> {
  return new Promise((resolve, reject) => {
    const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const script = `${quoted}; code=$?; echo "insights-bench-cpu $(cut -d' ' -f16,17 /proc/$$/stat)" >&2; exit $code`;
    const child = spawn('/bin/sh', ['-c', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ticks = /insights-bench-cpu (\d+) (\d+)/.exec(out);
      resolve({ code, out, cpu: ticks ? (Number(ticks[1]) + Number(ticks[2])) / TICKS : Number.NaN });
    });
  });
}

function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', ...extra };
  delete env.DATABASE_URL;
  delete env.WAREHOUSE_URL;
  return env;
}

async function plainDuckDb(csv: string): Promise<Sample> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-bench-plain-'));
  try {
    const cpu = process.cpuUsage();
    const started = process.hrtime.bigint();
    const instance = await DuckDBInstance.create(path.join(dir, 'plain.duckdb'));
    const conn = await instance.connect();
    await conn.run(`CREATE TABLE orders AS SELECT * FROM read_csv('${csv}')`);
    conn.closeSync();
    instance.closeSync();
    return sample(Number(process.hrtime.bigint() - started) / 1e9, cpuSince(cpu));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function insightsCli(csv: string, table = 'bench_orders'): Promise<Sample> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-bench-load-'));
  try {
    const started = process.hrtime.bigint();
    const res = await runInsights(
      ['data', 'load', '--table', table, '--file', csv, '--tenant', 'demo'],
      cleanEnv({ INSIGHTS_DATA_DIR: dir }),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (res.code !== 0) throw new Error(`insights data load failed:\n${res.out}`);
    return sample(seconds, res.cpu);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const FLIGHTS_PARQUET = path.join(ROOT, 'node_modules/vega-datasets/data/flights-3m.parquet');

/** One round's seconds, its CPU seconds (user + system, all threads) and the load average (1 min) when it ended. */
interface Sample {
  seconds: number;
  cpu: number;
  load: number;
}

const sample = (seconds: number, cpu: number): Sample => ({ seconds, cpu, load: os.loadavg()[0] });
const cpuSince = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1e6;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const loads = (xs: Sample[]) => xs.map((x) => x.load.toFixed(1)).join(', ');

/**
 * The process's own cost: `insights data load` of a 1-row CSV into a fresh data dir (start-up,
 * model, warehouse file, the load's fixed steps), subtracted from a load's seconds to compare it
 * with DuckDB reading the file in a process already running.
 */
async function startUp(): Promise<Sample> {
  const tiny = path.join(os.tmpdir(), 'insights-bench-load-1.csv');
  if (!fs.existsSync(tiny)) fs.writeFileSync(tiny, 'order_id,country\n1,DE\n');
  return insightsCli(tiny);
}

/** The 3 M-row Parquet of examples/flights: seconds of plain DuckDB and of `insights data load`, interleaved. */
async function parquetLoad(rounds: number): Promise<{ rows: number; plain: Sample[]; ours: Sample[]; start: Sample[] }> {
  const plain: Sample[] = [];
  const ours: Sample[] = [];
  const start: Sample[] = [];
  for (let r = 0; r < rounds; r++) {
    start.push(await startUp());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-bench-parquet-'));
    try {
      const cpu = process.cpuUsage();
      let started = process.hrtime.bigint();
      const instance = await DuckDBInstance.create(path.join(dir, 'plain.duckdb'));
      const conn = await instance.connect();
      await conn.run(`CREATE TABLE flights AS SELECT * FROM read_parquet('${FLIGHTS_PARQUET}')`);
      conn.closeSync();
      instance.closeSync();
      plain.push(sample(Number(process.hrtime.bigint() - started) / 1e9, cpuSince(cpu)));
      started = process.hrtime.bigint();
      const res = await runInsights(
        ['data', 'load', '--table', 'flights', '--file', FLIGHTS_PARQUET, '--tenant', 'demo'],
        cleanEnv({ INSIGHTS_DATA_DIR: path.join(dir, 'data') }),
      );
      if (res.code !== 0) throw new Error(`insights data load failed:\n${res.out}`);
      ours.push(sample(Number(process.hrtime.bigint() - started) / 1e9, res.cpu));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    process.stderr.write(
      `parquet round ${r + 1}: plain DuckDB ${plain.at(-1)!.seconds.toFixed(2)} s, insights data load ${ours.at(-1)!.seconds.toFixed(2)} s (start-up ${start.at(-1)!.seconds.toFixed(2)} s); CPU ${plain.at(-1)!.cpu.toFixed(2)} s vs ${ours.at(-1)!.cpu.toFixed(2)} s (start-up ${start.at(-1)!.cpu.toFixed(2)} s), load average ${ours.at(-1)!.load.toFixed(1)}\n`,
    );
  }
  return { rows: 3_000_000, plain, ours, start };
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

/** The CPU seconds (user + system, all threads) a running process has used. */
function cpuOf(pid: number): number {
  // The fields after the command's name (which is in parentheses and may hold spaces): utime is the 12th, stime the 13th.
  const fields = fs
    .readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

async function upload(ndjson: string): Promise<{ seconds: number; cpu: number; baseMb: number; peakMb: number; rows: number }> {
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
    const cpuBefore = cpuOf(pid);
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
    const cpu = cpuOf(pid) - cpuBefore;
    clearInterval(sampler);
    peak = Math.max(peak, rssKb(pid));
    if (res.statusCode !== 200) throw new Error(`upload answered ${res.statusCode}: ${JSON.stringify(body)}`);
    return { seconds, cpu, baseMb: base / 1024, peakMb: peak / 1024, rows: body.rows_loaded ?? 0 };
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
  const rounds = Number(values.rounds ?? 3);
  const csv = path.join(os.tmpdir(), `insights-bench-load-${rows}.csv`);
  const ndjson = path.join(os.tmpdir(), `insights-bench-load-${uploadRows}.ndjson`);
  const runs = (part: string) => only === undefined || only === part;
  if (runs('csv')) await generate(csv, rows, 'csv');
  if (runs('upload')) await generate(ndjson, uploadRows, 'json');

  // Interleaved rounds, the median of each: the machine may be shared.
  const plain: Sample[] = [];
  const ours: Sample[] = [];
  const start: Sample[] = [];
  for (let r = 0; r < (runs('csv') ? rounds : 0); r++) {
    start.push(await startUp());
    plain.push(await plainDuckDb(csv));
    ours.push(await insightsCli(csv));
    process.stderr.write(
      `csv round ${r + 1}: plain DuckDB ${plain.at(-1)!.seconds.toFixed(2)} s, insights data load ${ours.at(-1)!.seconds.toFixed(2)} s (start-up ${start.at(-1)!.seconds.toFixed(2)} s); CPU ${plain.at(-1)!.cpu.toFixed(2)} s vs ${ours.at(-1)!.cpu.toFixed(2)} s (start-up ${start.at(-1)!.cpu.toFixed(2)} s), load average ${ours.at(-1)!.load.toFixed(1)}\n`,
    );
  }
  const ups: (Awaited<ReturnType<typeof upload>> & { load: number })[] = [];
  for (let r = 0; r < (runs('upload') ? rounds : 0); r++) {
    ups.push({ ...(await upload(ndjson)), load: os.loadavg()[0] });
    const u = ups.at(-1)!;
    process.stderr.write(
      `upload round ${r + 1}: ${u.seconds.toFixed(2)} s, server CPU ${u.cpu.toFixed(2)} s, RSS +${(u.peakMb - u.baseMb).toFixed(0)} MB, load average ${u.load.toFixed(1)}\n`,
    );
  }
  const pq = runs('parquet') ? await parquetLoad(rounds) : undefined;
  const fair = only === undefined ? await tenantFairness(Number((values['fair-rows'] ?? '10000000').replace(/_/g, ''))) : [];

  const mb = (file: string) => (fs.existsSync(file) ? `${(fs.statSync(file).size / 1024 / 1024).toFixed(0)} MB` : '—');
  const net = (xs: Sample[], starts: Sample[], of: 'seconds' | 'cpu' = 'seconds') =>
    median(xs.map((x, i) => Math.max(0.001, x[of] - starts[i][of])));
  const rate = (n: number, seconds: number) => `${Math.round(n / seconds).toLocaleString('en')} rows/s (${seconds.toFixed(2)} s)`;
  const row = (measure: string, oursText: string, base: string, ratio: string, target: string, met: boolean, at: string) =>
    `| ${measure} | ${oursText} | ${base} | ${ratio} | ${target} → ${met ? 'met' : 'NOT met'} | ${at} |`;
  const out = [
    `Data loading benchmark — ${rows.toLocaleString('en')}-row CSV (${mb(csv)}), ${uploadRows.toLocaleString('en')}-row NDJSON (${mb(ndjson)})`,
    `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, DuckDB via @duckdb/node-api; median of ${rounds} interleaved rounds`,
    '',
    '| measure | insights service | baseline | ratio | target | load average of the rounds |',
    '|---|---|---|---|---|---|',
  ];
  if (ours.length) {
    const o = net(ours, start);
    const p0 = median(plain.map((x) => x.seconds));
    const oc = net(ours, start, 'cpu');
    const pc = median(plain.map((x) => x.cpu));
    out.push(
      row(
        '`insights data load` of the CSV, net of start-up, vs plain DuckDB `CREATE TABLE AS SELECT * FROM read_csv`',
        `${rate(rows, o)}; start-up ${median(start.map((x) => x.seconds)).toFixed(2)} s, whole process ${median(ours.map((x) => x.seconds)).toFixed(2)} s`,
        rate(rows, p0),
        `${(p0 / o).toFixed(2)} ×`,
        '≥ 1.0 ×',
        p0 / o >= 1,
        loads(ours),
      ),
      row(
        'the same in CPU seconds (user + system, all threads), net of start-up',
        `${oc.toFixed(2)} s (runs: ${ours.map((x, i) => (x.cpu - start[i].cpu).toFixed(2)).join(', ')})`,
        `${pc.toFixed(2)} s (runs: ${plain.map((x) => x.cpu.toFixed(2)).join(', ')})`,
        `${(pc / oc).toFixed(2)} ×`,
        '—',
        true,
        loads(ours),
      ).replace(' → met', ''),
    );
  }
  if (ups.length) {
    const seconds = median(ups.map((u) => u.seconds));
    const growth = median(ups.map((u) => u.peakMb - u.baseMb));
    const at = ups.map((u) => u.load.toFixed(1)).join(', ');
    out.push(
      row(
        `\`POST /api/v1/data/{table}\` of the NDJSON (${ups[0].rows.toLocaleString('en')} rows), to the 200`,
        `${seconds.toFixed(2)} s (runs: ${ups.map((u) => u.seconds.toFixed(2)).join(', ')}); the server's CPU ${median(ups.map((u) => u.cpu)).toFixed(2)} s`,
        '—',
        '—',
        '≤ 4 s',
        seconds <= 4,
        at,
      ),
      row(
        'server RSS growth during that upload',
        `${growth.toFixed(0)} MB (runs: ${ups.map((u) => `+${(u.peakMb - u.baseMb).toFixed(0)}`).join(', ')})`,
        '—',
        '—',
        '< 200 MB',
        growth < 200,
        at,
      ),
    );
  }
  if (pq) {
    const o = net(pq.ours, pq.start);
    const p0 = median(pq.plain.map((x) => x.seconds));
    const oc = net(pq.ours, pq.start, 'cpu');
    const pc = median(pq.plain.map((x) => x.cpu));
    out.push(
      row(
        '`insights data load` of flights-3m.parquet (3,000,000 rows), net of start-up, vs plain DuckDB CTAS from read_parquet',
        `${rate(pq.rows, o)}; whole process ${median(pq.ours.map((x) => x.seconds)).toFixed(2)} s; CPU ${oc.toFixed(2)} s vs ${pc.toFixed(2)} s (${(pc / oc).toFixed(2)} ×)`,
        rate(pq.rows, p0),
        `${(p0 / o).toFixed(2)} ×`,
        '—',
        true,
        loads(pq.ours),
      ).replace(' → met', ''),
    );
  }
  out.push(
    ...fair.map((r) => `${r} ${os.loadavg()[0].toFixed(1)} |`),
    '',
    "Baseline: `CREATE TABLE … AS SELECT * FROM read_csv(file)` (read_parquet) through @duckdb/node-api into a fresh database file, in this process. Ours: `insights data load` as a child process into a fresh data dir (detection, checks, the transaction and the tenant column included), less the same process loading a 1-row file in that round. CPU seconds are user + system time of every thread (the child's from /proc once it is reaped, this process's own for the baseline, the server's from /proc/PID/stat around the upload): on a shared machine they move far less with the load average than wall time.",
  );
  console.log(out.join('\n'));
}
