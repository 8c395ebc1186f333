// Benchmark: 10,000 insight subscriptions due in the same minute, delivered to a local HTTPS
// webhook receiver, on PostgreSQL; a 6-widget dashboard report from slot to its channels; chart
// rendering time per PNG. Run: npm run bench -- deliveries  (BENCH_DATABASE_URL to override).
import crypto from 'node:crypto';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { EgressGuard } from '../src/adapters/egress.ts';
import { ChartRenderer } from '../src/adapters/charts/renderer.ts';
import { loadConfig } from '../src/config/index.ts';
import { PostgresDb } from '../src/db/postgres.ts';
import { migrate } from '../src/db/migrate.ts';
import type { Clock } from '../src/lib/clock.ts';
import { SecretBox } from '../src/lib/secrets.ts';
import { TokensRepository } from '../src/modules/tokens/tokens.repository.ts';
import { TokensService } from '../src/modules/tokens/tokens.service.ts';
import { DuckDbWarehouse } from '../src/warehouse/duckdb/duckdb.ts';
import { seedDemo } from '../src/warehouse/demo/demo.ts';
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const URL_ = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 10_000);

/** The receiver runs in its own process (bench/webhook-receiver-process.ts). */
export async function startReceiverProcess() {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./webhook-receiver-process.ts', import.meta.url))], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => JSON.parse((await lines.next()).value as string);
  const { origin, ca } = (await next()) as { origin: string; ca: string };
  return {
    origin,
    ca,
    setSecret: (secret: string) => child.stdin!.write(`secret ${secret}\n`),
    count: async () => {
      child.stdin!.write('count\n');
      return (await next()) as { received: number; verified: number };
    },
    close: () =>
      new Promise<void>((resolve) => {
        child.on('exit', () => resolve());
        child.stdin!.end();
      }),
  };
}

/** Real time shifted so that a whole minute (a slot) comes a moment after set-up. */
export class ShiftedClock implements Clock {
  offset = 0;
  now(): Date {
    return new Date(Date.now() + this.offset);
  }
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export async function inject(app: Awaited<ReturnType<typeof buildApp>>, auth: string, method: 'POST' | 'GET', url: string, body?: unknown) {
  const res = await app.inject({
    method,
    url,
    headers: { authorization: auth, 'content-type': 'application/json' },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} → ${res.statusCode} ${res.body}`);
  return JSON.parse(res.body);
}

/** Waits until every delivery of the given subscriptions succeeded. */
export async function waitDelivered(db: PostgresDb, kind: string, expected: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [{ n }] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM deliveries WHERE subscription_kind = $1 AND status = 'succeeded'`,
      [kind],
    );
    if (n >= expected) return;
    if (Date.now() > deadline) throw new Error(`only ${n} of ${expected} ${kind} deliveries after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Moves the clock so that the next whole minute is `leadMs` away; returns that slot. */
export function nextSlot(clock: ShiftedClock, leadMs: number): Date {
  const real = Date.now();
  const slot = Math.ceil((real + clock.offset + leadMs) / 60_000) * 60_000;
  clock.offset = slot - leadMs - real;
  return new Date(slot);
}

/**
 * The service on `db` with 20,000 demo orders of tenant acme, an owner token, and a webhook channel
 * to the receiver, whose secret the receiver verifies signatures with.
 */
export async function webhookBenchApp(
  db: PostgresDb,
  clock: ShiftedClock,
  warehouse: Awaited<ReturnType<typeof DuckDbWarehouse.open>>,
  egress: EgressGuard,
  receiver: Awaited<ReturnType<typeof startReceiverProcess>>,
) {
  await migrate(db);
  await seedDemo(warehouse, { rows: 20_000, tenants: ['acme'], endDay: clock.now().toISOString().slice(0, 10), now: clock.now() });
  const app = await buildApp({
    config: loadConfig({ INSIGHTS_DATA_DIR: '/nonexistent', INSIGHTS_RATE_LIMIT: '1000000' }),
    db,
    clock,
    secrets: new SecretBox(crypto.randomBytes(32)),
    egress,
    warehouse,
    logger: false,
  });
  await app.ready();
  const { token } = await new TokensService(new TokensRepository(db), clock).create({
    tenantId: 'acme',
    name: 'bench',
    userId: 'bench',
    role: 'owner',
  });
  const auth = `Svc ${token}`;
  const channel = await inject(app, auth, 'POST', '/api/v1/notifications/channels', {
    channel_type: 'webhook',
    config: { webhook_url: `${receiver.origin}/bench` },
  });
  const outbound = await app.services.channels.getForDelivery('acme', channel.id);
  receiver.setSecret(Object.entries(outbound!.config).find(([k]) => /secret/.test(k))![1]);
  return { app, auth, channel };
}

/** How long after its slot each successful insight delivery reached the channel, ascending, in ms. */
export async function insightLatenessMs(db: PostgresDb): Promise<number[]> {
  const rows = await db.query<{ ms: number }>(
    `SELECT extract(epoch FROM (l.sent_at - d.slot_at)) * 1000 AS ms
       FROM delivery_logs l JOIN deliveries d ON d.id = l.delivery_id
      WHERE l.subscription_kind = 'insight' AND l.status = 'success'`,
  );
  return rows.map((r) => Number(r.ms)).sort((a, b) => a - b);
}

export async function run(): Promise<void> {
  const schema = `bench_deliveries_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: URL_ });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const db = new PostgresDb(URL_, { schema, max: 16 });
  const receiver = await startReceiverProcess();
  const egress = new EgressGuard(['127.0.0.0/8'], { ca: receiver.ca });
  const clock = new ShiftedClock();
  const warehouse = await DuckDbWarehouse.open(':memory:');
  try {
    const { app, auth, channel } = await webhookBenchApp(db, clock, warehouse, egress, receiver);

    // 1. 10,000 insight subscriptions due in the same minute.
    const template = await inject(app, auth, 'POST', '/api/v1/notifications/subscriptions', {
      insight_code: 'revenue',
      channel_id: channel.id,
      schedule: 'daily',
      granularity: 'month',
    });
    await db.query('DELETE FROM insight_subscriptions');
    const slot = nextSlot(clock, 3_000);
    await db.query(
      `INSERT INTO insight_subscriptions (id, tenant_id, created_by, insight_code, channel_id, channel_type, schedule, schedule_time,
         granularity, is_active, next_run_at, created_at)
       SELECT gen_random_uuid()::text, 'acme', 'bench', 'revenue', $1, 'webhook', 'daily', $2, 'month', true, $3, $4
         FROM generate_series(1, $5)`,
      [channel.id, slot.toISOString().slice(11, 16), slot, clock.now(), SUBSCRIPTIONS],
    );
    void template;
    app.services.notificationLoops.start();
    const t0 = Date.now();
    await waitDelivered(db, 'insight', SUBSCRIPTIONS, 300_000);
    const wall = Date.now() - t0;
    const late = await insightLatenessMs(db);
    const allDeliveredMs = late[late.length - 1];
    const firstMs = late[0];
    const perSecond = SUBSCRIPTIONS / ((allDeliveredMs - Math.max(0, firstMs) + 1) / 1000);
    const { verified } = await receiver.count();

    // 2. A 6-widget dashboard report, from its slot to its channels.
    const dash = await inject(app, auth, 'POST', '/api/v1/dashboards', { name: 'Bench board' });
    const widgets = [
      ['revenue', 'chart', 'month'],
      ['orders_count', 'chart', 'month'],
      ['average_order_value', 'chart', 'month'],
      ['revenue_by_country', 'chart', null],
      ['top_products', 'table', null],
      ['revenue_kpi', 'kpi', null],
    ] as const;
    for (const [code, type, granularity] of widgets) {
      await inject(app, auth, 'POST', `/api/v1/dashboards/${dash.id}/widgets`, {
        title: code,
        widget_type: type,
        data_source: 'live_insight',
        insight_code: code,
        ...(granularity ? { granularity } : {}),
      });
    }
    const dslot = nextSlot(clock, 2_000);
    await inject(app, auth, 'POST', `/api/v1/dashboards/${dash.id}/subscriptions`, {
      dashboard_id: dash.id,
      dashboard_name: 'Bench board',
      channel_ids: [channel.id],
      schedule: 'daily',
      schedule_time: dslot.toISOString().slice(11, 16),
    });
    await waitDelivered(db, 'dashboard', 1, 60_000);
    const [{ ms: dashboardMs }] = await db.query<{ ms: number }>(
      `SELECT max(extract(epoch FROM (l.sent_at - d.slot_at)) * 1000) AS ms
         FROM delivery_logs l JOIN deliveries d ON d.id = l.delivery_id WHERE l.subscription_kind = 'dashboard'`,
    );
    await app.close();

    // 3. Chart rendering per PNG, warm.
    const renderer = new ChartRenderer();
    const rows = Array.from({ length: 24 }, (_, i) => ({
      period: `2025-${String((i % 12) + 1).padStart(2, '0')}-01`,
      revenue: 1000 + i * 37,
    }));
    const input = {
      type: 'line' as const,
      x_axis: 'period',
      y_axis: ['revenue'],
      title: 'Revenue',
      columns: [
        { name: 'period', type: 'date', label: 'Period' },
        { name: 'revenue', type: 'number', label: 'Revenue' },
      ],
      rows,
    };
    for (let i = 0; i < 5; i++) renderer.png(input as never);
    const times: number[] = [];
    for (let i = 0; i < 30; i++) {
      const s = performance.now();
      renderer.png(input as never);
      times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    const chartMs = percentile(times, 50);

    const table = [
      ['all 10,000 delivered after the slot', `${(allDeliveredMs / 1000).toFixed(2)} s`, '—', '—'],
      ['deliveries per second', perSecond.toFixed(0), '≥ 500/s', (perSecond / 500).toFixed(2)],
      ['lateness after the slot, p50', `${(percentile(late, 50) / 1000).toFixed(2)} s`, '—', '—'],
      ['lateness after the slot, p99', `${(percentile(late, 99) / 1000).toFixed(2)} s`, '< 5 s', (5000 / percentile(late, 99)).toFixed(2)],
      [
        '6-widget dashboard report, slot → channel',
        `${Number(dashboardMs).toFixed(0)} ms`,
        '< 1000 ms',
        (1000 / Number(dashboardMs)).toFixed(2),
      ],
      ['chart PNG render (warm, median)', `${chartMs.toFixed(1)} ms`, '< 30 ms', (30 / chartMs).toFixed(2)],
    ];
    console.log(
      `\ndeliveries benchmark: ${SUBSCRIPTIONS} subscriptions, PostgreSQL, HTTPS webhook on loopback (${verified} signatures verified), wall ${(wall / 1000).toFixed(1)} s`,
    );
    console.log('| metric | result | target | ratio (≥ 1 meets) |\n|---|---|---|---|');
    for (const r of table) console.log(`| ${r.join(' | ')} |`);
  } finally {
    await db.close();
    await warehouse.close();
    await egress.close();
    await receiver.close();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
