// Benchmark of the semantic query (docs/query.md) on 10,000,000 orders (BENCH_ROWS to change; the
// warehouse file of bench/insights.ts, made once and reused):
//  1. a query and the insight that means the same answer, over HTTP, within 1.1 × of each other,
//     uncached (both caches dropped before each run) and cached (requests per second); the answers
//     are checked equal first;
//  2. a query over three cubes (order items by product category and customer country, for one
//     channel, over a year) within 1.2 × of the SQL written by hand, run directly through
//     @duckdb/node-api on the same file; the answers are checked equal first.
// Runs are interleaved, the first two of each pair dropped; medians.
import { benchServer, interleaved, loadAverage, machineLines, median } from './bench-server.ts';
import { warehouse } from './insights.ts';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 21);
const CACHED_REQUESTS = Number(process.env.BENCH_CACHED ?? 2000);
const round2 = (n: number) => Math.round(n * 100) / 100;

interface Pair {
  name: string;
  insight: string;
  query: Record<string, unknown>;
  /** The insight's rows and the query's, as comparable lists. */
  same: (insightRows: any[], queryRows: any[]) => boolean;
}

export async function run(): Promise<void> {
  const loadAtStart = loadAverage();
  const wh = await warehouse();
  const [{ n, first, last }] = await wh.query(
    'SELECT count(*) AS n, CAST(CAST(min(ordered_at) AS DATE) AS VARCHAR) AS first, CAST(CAST(max(ordered_at) AS DATE) AS VARCHAR) AS last FROM orders',
  );
  const server = await benchServer(wh);
  const { drop, execute, query } = server;
  const lastDay = String(last);
  const year = { date_from: `${Number(lastDay.slice(0, 4)) - 1}${lastDay.slice(4)}`, date_to: lastDay };
  const pairs: Pair[] = [
    {
      name: 'revenue by week, country DE, whole range',
      insight: `/api/v1/insights/revenue/execute?granularity=week&country=DE&date_from=${first}&date_to=${last}`,
      query: {
        measures: ['orders.revenue'],
        time: { dimension: 'orders.ordered_at', granularity: 'week', date_from: first, date_to: last },
        filters: [{ member: 'orders.country', operator: 'equals', values: ['DE'] }],
      },
      same: (a, b) =>
        JSON.stringify(a.map((r) => [r.period, r.revenue])) === JSON.stringify(b.map((r) => [r['orders.ordered_at'], r['orders.revenue']])),
    },
    {
      name: 'top 10 products by revenue, last year',
      insight: `/api/v1/insights/top_products/execute?limit=10&date_from=${year.date_from}&date_to=${year.date_to}`,
      query: {
        measures: ['order_items.revenue', 'order_items.units'],
        dimensions: ['products.product_id', 'products.product_name', 'products.category', 'products.brand'],
        time: { dimension: 'orders.ordered_at', ...year },
        limit: 10,
      },
      same: (a, b) =>
        JSON.stringify(a.map((r) => [r.product_id, r.revenue, r.units])) ===
        JSON.stringify(b.map((r) => [r['products.product_id'], r['order_items.revenue'], r['order_items.units']])),
    },
    {
      name: 'revenue, last year against the year before (KPI)',
      insight: `/api/v1/insights/revenue_kpi/execute?date_from=${year.date_from}&date_to=${year.date_to}`,
      query: { measures: ['orders.revenue'], time: { dimension: 'orders.ordered_at', ...year }, compare: 'previous_period' },
      same: (a, b) => a[0].value === b[0]['orders.revenue'] && a[0].previous_value === b[0]['orders.revenue.previous'],
    },
  ];

  const rows: string[][] = [];
  const met: boolean[] = [];
  for (const p of pairs) {
    drop();
    if (!p.same(await execute(p.insight), await query(p.query))) throw new Error(`${p.name}: the query and the insight answer differently`);
    const cold = await interleaved(
      {
        insight: () => (drop(), execute(p.insight)),
        query: () => (drop(), query(p.query)),
      },
      ITERATIONS,
    );
    // Cached: requests one after the other over keep-alive, the answer in the cache.
    const cached = { insight: 0, query: 0 };
    for (const which of ['insight', 'query', 'insight', 'query'] as const) {
      const t = performance.now();
      for (let i = 0; i < CACHED_REQUESTS / 2; i++) await (which === 'insight' ? execute(p.insight) : query(p.query));
      cached[which] += CACHED_REQUESTS / 2 / ((performance.now() - t) / 1000) / 2;
    }
    const coldRatio = median(cold.query) / median(cold.insight);
    const cachedRatio = cached.insight / cached.query;
    met.push(coldRatio <= 1.1, cachedRatio <= 1.1);
    rows.push(
      [`${p.name}: uncached, median ms`, median(cold.query).toFixed(1), median(cold.insight).toFixed(1), coldRatio.toFixed(2), '≤ 1.10'],
      [
        `${p.name}: cached, requests/s (insight / query)`,
        Math.round(cached.query).toString(),
        Math.round(cached.insight).toString(),
        cachedRatio.toFixed(2),
        '≤ 1.10',
      ],
    );
  }

  // Three cubes against the SQL written by hand.
  const three = {
    measures: ['order_items.revenue'],
    dimensions: ['products.category', 'customers.country'],
    time: { dimension: 'orders.ordered_at', ...year },
    filters: [{ member: 'orders.channel', operator: 'equals', values: ['web'] }],
    limit: 10000,
  };
  const HAND = `SELECT p.category, c.country, sum(oi.quantity * oi.unit_price) AS revenue
    FROM order_items oi JOIN orders o ON o.order_id = oi.order_id AND o.tenant_id = oi.tenant_id
    JOIN products p ON p.product_id = oi.product_id AND p.tenant_id = oi.tenant_id
    JOIN customers c ON c.customer_id = o.customer_id AND c.tenant_id = o.tenant_id
    WHERE oi.tenant_id = 'demo' AND o.status = 'completed' AND o.channel = 'web'
      AND o.ordered_at >= TIMESTAMP '${year.date_from}' AND o.ordered_at < TIMESTAMP '${year.date_to}' + INTERVAL 1 DAY
    GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2`;
  const hand = await wh.connect();
  const viaHand = async () =>
    (await hand.runAndReadAll(HAND)).getRowObjectsJson() as { category: string; country: string; revenue: string }[];
  const ours = await query(three);
  const theirs = await viaHand();
  const key = (cat: unknown, country: unknown, revenue: number) => `${cat}|${country}|${round2(revenue)}`;
  const a = new Set(ours.map((r) => key(r['products.category'], r['customers.country'], r['order_items.revenue'])));
  const b = new Set(theirs.map((r) => key(r.category, r.country, Number(r.revenue))));
  if (a.size !== b.size || [...a].some((x) => !b.has(x))) throw new Error('the 3-cube query and the hand-written SQL answer differently');
  const times = await interleaved({ ours: () => (drop(), query(three)), hand: viaHand }, ITERATIONS);
  const threeRatio = median(times.ours) / median(times.hand);
  met.push(threeRatio <= 1.2);
  rows.push([
    `3 cubes: order items by category and customer country, web, a year (${ours.length} rows), uncached, median ms`,
    median(times.ours).toFixed(1),
    median(times.hand).toFixed(1),
    threeRatio.toFixed(2),
    '≤ 1.20',
  ]);

  const out = [
    `Semantic query benchmark — ${Number(n).toLocaleString('en')} orders (${first} … ${last})`,
    ...machineLines(`${ITERATIONS} timed runs per side, interleaved`, loadAtStart),
    '',
    '| measure | query | baseline (the insight; the hand SQL) | ratio | target |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
    `Targets: ${met.every(Boolean) ? 'all met' : 'NOT all met'}`,
    '',
    'Hand-written SQL of the 3-cube row:',
    HAND.replace(/\s+/g, ' '),
  ];
  process.stdout.write(`${out.join('\n')}\n`);
  hand.closeSync();
  await server.close();
  await wh.close();
}
