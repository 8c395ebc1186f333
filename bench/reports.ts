// Benchmark: (1) the PDF of a 6-widget dashboard, rendered warm; (2) 10,000 insight subscriptions,
// each in a random time zone with a random cron expression, all due in the same hour (the same
// minute: the worst case), sent as signed HTTPS webhooks to a receiver in its own process, on
// PostgreSQL, through the service's own background loops. Run: npm run bench -- reports
// (BENCH_DATABASE_URL, BENCH_SUBSCRIPTIONS to override). Pieces are shared with bench/deliveries.ts.
import crypto from 'node:crypto';
import pg from 'pg';
import { EgressGuard } from '../src/adapters/egress.ts';
import { PostgresDb } from '../src/db/postgres.ts';
import { nextSlotAfter } from '../src/modules/subscriptions/schedule.ts';
import { offsetAt } from '../src/modules/subscriptions/zoned-time.ts';
import { renderDashboardPdf } from '../src/adapters/charts/pdf.ts';
import { DuckDbWarehouse } from '../src/warehouse/duckdb/duckdb.ts';
import {
  insightLatenessMs,
  nextSlot,
  percentile,
  ShiftedClock,
  startReceiverProcess,
  waitDelivered,
  webhookBenchApp,
} from './deliveries.ts';
import { sampleDashboardReport } from './fixtures/dashboard-report.ts';

const URL_ = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 10_000);

async function pdfTimes(): Promise<{ wall: number[]; cpu: number[]; bytes: number }> {
  const at = new Date();
  let bytes = 0;
  for (let i = 0; i < 5; i++) bytes = (await renderDashboardPdf(sampleDashboardReport(), at)).length;
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < 30; i++) {
    // A fresh report each time, as each slot composes one: nothing is cached between renders but
    // the process's warm state (parsed fonts, ECharts instances, JIT).
    const report = sampleDashboardReport();
    const c = process.cpuUsage();
    const t = performance.now();
    await renderDashboardPdf(report, at);
    wall.push(performance.now() - t);
    const u = process.cpuUsage(c);
    cpu.push((u.user + u.system) / 1000);
  }
  return { wall: wall.sort((a, b) => a - b), cpu: cpu.sort((a, b) => a - b), bytes };
}

/** A random cron expression, read in `tz`, that has a run at `slot` (a whole minute). */
function cronAt(slot: Date, tz: string, rnd: () => number): string {
  const local = new Date(slot.getTime() + offsetAt(tz, slot.getTime()));
  const m = local.getUTCMinutes();
  const h = local.getUTCHours();
  const dow = local.getUTCDay();
  const dom = local.getUTCDate();
  const forms = [
    `${m} ${h} * * *`,
    `${m} ${h} * * ${dow}`,
    dow >= 1 && dow <= 5 ? `${m} ${h} * * 1-5` : `${m} ${h} * * 0,6`,
    `${m} ${h},${(h + 12) % 24} * * *`,
    `${m} ${h} ${dom} * *`,
    `${m % 15}-59/15 ${h} * * *`,
    `${m} ${Math.max(0, h - 2)}-${h} * * *`,
  ];
  return forms[Math.floor(rnd() * forms.length)];
}

export async function run(): Promise<void> {
  const pdf = await pdfTimes();

  const schema = `bench_reports_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: URL_ });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const db = new PostgresDb(URL_, { schema, max: 16 });
  const receiver = await startReceiverProcess();
  const egress = new EgressGuard(['127.0.0.0/8'], { ca: receiver.ca });
  const clock = new ShiftedClock();
  const warehouse = await DuckDbWarehouse.open(':memory:');
  try {
    const { app, channel } = await webhookBenchApp(db, clock, warehouse, egress, receiver);

    // Random zones and expressions, each checked by the service's own arithmetic to run at the slot.
    const slot = nextSlot(clock, 8_000);
    const zones = Intl.supportedValuesOf('timeZone');
    let seed = 42;
    const rnd = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const rows = Array.from({ length: SUBSCRIPTIONS }, () => {
      const timezone = zones[Math.floor(rnd() * zones.length)];
      const cron = cronAt(slot, timezone, rnd);
      const next = nextSlotAfter({ schedule: 'daily', time: '08:00', timeZone: timezone, cron }, new Date(slot.getTime() - 1));
      if (next.getTime() !== slot.getTime())
        throw new Error(`${cron} in ${timezone} runs at ${next.toISOString()}, not ${slot.toISOString()}`);
      return { timezone, cron };
    });
    await db.query(
      `INSERT INTO insight_subscriptions (id, tenant_id, created_by, insight_code, channel_id, channel_type, schedule, schedule_time,
         granularity, is_active, next_run_at, created_at, timezone, cron)
       SELECT gen_random_uuid()::text, 'acme', 'bench', 'revenue', $1, 'webhook', 'daily', '08:00', 'month', true, $2, $3, v.tz, v.cron
         FROM unnest($4::text[], $5::text[]) AS v(tz, cron)`,
      [channel.id, slot, clock.now(), rows.map((r) => r.timezone), rows.map((r) => r.cron)],
    );
    const distinct = new Set(rows.map((r) => `${r.timezone} ${r.cron}`)).size;
    app.services.notificationLoops.start();
    await waitDelivered(db, 'insight', SUBSCRIPTIONS, 300_000);
    const late = await insightLatenessMs(db);
    const [{ advanced }] = await db.query<{ advanced: number }>(
      'SELECT count(*)::int AS advanced FROM insight_subscriptions WHERE next_run_at > $1',
      [slot],
    );
    const { verified } = await receiver.count();
    await app.close();

    const p99 = percentile(late, 99);
    const pdfMedian = percentile(pdf.wall, 50);
    const table = [
      ['6-widget dashboard PDF, warm, median (wall)', `${pdfMedian.toFixed(0)} ms`, '< 300 ms', (300 / pdfMedian).toFixed(2)],
      ['6-widget dashboard PDF, warm, median (CPU)', `${percentile(pdf.cpu, 50).toFixed(0)} ms`, '—', '—'],
      ['6-widget dashboard PDF, warm, p95 (wall)', `${percentile(pdf.wall, 95).toFixed(0)} ms`, '—', '—'],
      [
        `${SUBSCRIPTIONS.toLocaleString('en-US')} tz + cron subscriptions: all sent after the slot`,
        `${(late[late.length - 1] / 1000).toFixed(2)} s`,
        '—',
        '—',
      ],
      ['lateness after the slot, p50', `${(percentile(late, 50) / 1000).toFixed(2)} s`, '—', '—'],
      ['lateness after the slot, p99', `${(p99 / 1000).toFixed(2)} s`, '< 5 s', (5000 / p99).toFixed(2)],
    ];
    console.log(
      `\nreports benchmark: PDF ${(pdf.bytes / 1024).toFixed(0)} KiB (30 warm runs); ${SUBSCRIPTIONS} subscriptions in ${zones.length} zones, ` +
        `${distinct} distinct (zone, cron) pairs, PostgreSQL, HTTPS webhook on loopback (${verified} signatures verified, ${advanced} next_run_at advanced)`,
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
