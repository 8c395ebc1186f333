// Benchmark of time intelligence (docs/model.md) on 10,000,000 orders (BENCH_ROWS to change; the
// warehouse file of bench/insights.ts, made once and reused), each answer over HTTP, uncached,
// against the SQL one would write by hand in bare DuckDB (@duckdb/node-api on the same file):
//  1. the demo's rolling 3-month revenue by month over the last two whole years — ours a range
//     join of the days to each month's window (compile-rolling.ts), the hand one a window function
//     (sum(…) OVER (ORDER BY month RANGE 2 MONTH PRECEDING)) over monthly sums;
//  2. the demo's monthly customer retention triangle over the last whole year.
// Target: each within 2 × of the hand SQL. The answers are checked equal first; runs interleaved,
// the first two dropped; medians.
import { benchServer, interleaved, loadAverage, machineLines, median } from './bench-server.ts';
import { warehouse } from './insights.ts';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 11);
const round2 = (n: number) => Math.round(n * 100) / 100;
const monthStart = (d: string, back: number) => {
  const t = new Date(Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1 - back, 1));
  return t.toISOString().slice(0, 10);
};

export async function run(): Promise<void> {
  const loadAtStart = loadAverage();
  const wh = await warehouse();
  const [{ n, last }] = await wh.query(
    "SELECT count(*) AS n, CAST(CAST(max(ordered_at) AS DATE) AS VARCHAR) AS last FROM orders WHERE tenant_id = 'demo'",
  );
  const server = await benchServer(wh);
  const hand = await wh.connect();
  const viaHand = async (sql: string) => (await hand.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  // Whole months only: the last two whole years, and the last whole year.
  const end = monthStart(String(last), 0);
  const to = new Date(Date.parse(`${end}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  const two = { from: monthStart(end, 24), to };
  const one = { from: monthStart(end, 12), to };

  const rolling = {
    measures: ['orders.revenue_3m'],
    time: { dimension: 'orders.ordered_at', granularity: 'month', date_from: two.from, date_to: two.to },
  };
  const ROLLING_SQL = `WITH m AS (
      SELECT date_trunc('month', ordered_at) AS month, sum(revenue) AS revenue FROM orders
      WHERE tenant_id = 'demo' AND status = 'completed'
        AND ordered_at >= DATE '${monthStart(two.from, 2)}' AND ordered_at < DATE '${end}'
      GROUP BY 1)
    SELECT CAST(CAST(month AS DATE) AS VARCHAR) AS month, revenue_3m FROM (
      SELECT month, sum(revenue) OVER (ORDER BY month RANGE BETWEEN INTERVAL 2 MONTH PRECEDING AND CURRENT ROW) AS revenue_3m FROM m)
    WHERE month >= DATE '${two.from}' ORDER BY 1`;
  const retention = `/api/v1/insights/customer_retention/execute?date_from=${one.from}&date_to=${one.to}`;
  const RETENTION_SQL = `WITH a AS (
      SELECT DISTINCT customer_id, date_trunc('month', ordered_at) AS m FROM orders
      WHERE tenant_id = 'demo' AND status = 'completed' AND customer_id IS NOT NULL AND ordered_at < DATE '${end}'),
    f AS (SELECT customer_id, min(m) AS c FROM a GROUP BY 1)
    SELECT CAST(CAST(f.c AS DATE) AS VARCHAR) AS cohort, CAST(CAST(a.m AS DATE) AS VARCHAR) AS month, count(*) AS active
    FROM a JOIN f USING (customer_id) WHERE f.c >= DATE '${one.from}' GROUP BY 1, 2 ORDER BY 1, 2`;

  // The same figures first.
  const ours = await server.query(rolling);
  const theirs = await viaHand(ROLLING_SQL);
  const a = ours.map((r) => `${String(r['orders.ordered_at']).slice(0, 10)} ${round2(r['orders.revenue_3m'])}`);
  const b = theirs.map((r) => `${r.month} ${round2(Number(r.revenue_3m))}`);
  if (a.join() !== b.join()) throw new Error(`rolling revenue differs:\n${a.join('\n')}\n---\n${b.join('\n')}`);
  const cells = await server.execute(retention);
  const handCells = await viaHand(RETENTION_SQL);
  const active = (rows: Record<string, unknown>[]) => rows.filter((r) => Number(r.active) > 0).length;
  const sum = (rows: Record<string, unknown>[]) => rows.reduce((s, r) => s + Number(r.active), 0);
  if (active(cells) !== handCells.length || sum(cells) !== sum(handCells)) throw new Error('the retention triangle differs');

  const rollingTimes = await interleaved(
    { ours: () => (server.drop(), server.query(rolling)), hand: () => viaHand(ROLLING_SQL) },
    ITERATIONS,
  );
  const retentionTimes = await interleaved(
    { ours: () => (server.drop(), server.execute(retention)), hand: () => viaHand(RETENTION_SQL) },
    ITERATIONS,
  );
  const rows = [
    [`rolling 3-month revenue by month, ${two.from} … ${two.to} (${ours.length} months)`, rollingTimes],
    [`monthly retention triangle, cohorts ${one.from} … ${one.to} (${cells.length} cells)`, retentionTimes],
  ] as const;
  const ratios = rows.map(([, t]) => median(t.ours) / median(t.hand));
  const out = [
    `Time intelligence benchmark — ${Number(n).toLocaleString('en')} orders of the demo tenant, last day ${last}`,
    ...machineLines(`${ITERATIONS} timed runs per side, interleaved, uncached`, loadAtStart),
    '',
    '| answer | ours (range join; HTTP), median ms | hand SQL (window function; bare DuckDB), median ms | ratio | target |',
    '|---|---|---|---|---|',
    ...rows.map(
      ([name, t], i) => `| ${name} | ${median(t.ours).toFixed(1)} | ${median(t.hand).toFixed(1)} | ${ratios[i].toFixed(2)} | ≤ 2.00 |`,
    ),
    '',
    `Targets: ${ratios.every((r) => r <= 2) ? 'all met' : 'NOT all met'}`,
    '',
    'Hand-written SQL:',
    ROLLING_SQL.replace(/\s+/g, ' '),
    RETENTION_SQL.replace(/\s+/g, ' '),
  ];
  process.stdout.write(`${out.join('\n')}\n`);
  hand.closeSync();
  await server.close();
  await wh.close();
}
