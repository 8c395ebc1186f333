// Every insight and granularity against an independent SQL computation (hand-written, with
// bucketing by strftime/isodow instead of date_trunc) on the deterministic test warehouse, and the
// consistency rules between insights.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.ts';
import { InsightsService, type ExecuteParams, type ExecuteResult } from '../../../src/modules/insights/insights.service.ts';
import type { Warehouse } from '../../../src/warehouse/warehouse.ts';
import { testWarehouse } from '../../helpers/warehouse.ts';

const clock = new ManualClock(new Date('2026-11-21T09:30:00Z'));
const FROM = '2025-01-15';
const TO = '2026-11-21';
let wh: Warehouse;
let insights: InsightsService;

before(async () => {
  wh = await testWarehouse(clock.now(), 8000);
  insights = new InsightsService(wh, clock);
});
after(async () => wh?.close());

const BUCKET: Record<string, (x: string) => string> = {
  day: (x) => `strftime(${x}, '%Y-%m-%d')`,
  week: (x) => `strftime(CAST(${x} AS DATE) - CAST(isodow(${x}) - 1 AS INTEGER), '%Y-%m-%d')`,
  month: (x) => `strftime(${x}, '%Y-%m-01')`,
  quarter: (x) => `printf('%04d-%02d-01', year(${x}), (quarter(${x}) - 1) * 3 + 1)`,
  year: (x) => `strftime(${x}, '%Y-01-01')`,
};

function where(tenant: string, f: ExecuteParams, alias = 'o'): string {
  const parts = [`${alias}.tenant_id = '${tenant}'`, `CAST(${alias}.ordered_at AS DATE) BETWEEN DATE '${FROM}' AND DATE '${TO}'`];
  if (f.country) parts.push(`${alias}.country = '${f.country}'`);
  if (f.channel) parts.push(`${alias}.channel = '${f.channel}'`);
  return parts.join(' AND ');
}

async function expectedSeries(code: string, g: string, tenant: string, f: ExecuteParams): Promise<Map<string, Record<string, number>>> {
  const b = BUCKET[g]('o.ordered_at');
  const w = where(tenant, f);
  const sql: Record<string, string> = {
    revenue: `SELECT ${b} AS k, sum(revenue) AS revenue FROM orders o WHERE ${w} AND status = 'completed' GROUP BY 1`,
    orders_count: `SELECT ${b} AS k, count(*) AS orders FROM orders o WHERE ${w} AND status = 'completed' GROUP BY 1`,
    average_order_value: `SELECT ${b} AS k, round(sum(revenue) / count(*), 2) AS average_order_value FROM orders o WHERE ${w} AND status = 'completed' GROUP BY 1`,
    refund_rate: `SELECT ${b} AS k, round(100.0 * sum(CASE WHEN status = 'refunded' THEN 1 ELSE 0 END) / count(*), 2) AS refund_rate FROM orders o WHERE ${w} AND status <> 'cancelled' GROUP BY 1`,
    // The first completed order of each customer, over all time; the filters apply to that order.
    new_customers: `SELECT ${b} AS k, count(*) AS new_customers FROM (
        SELECT * FROM orders x WHERE x.tenant_id = '${tenant}' AND x.status = 'completed'
          AND NOT EXISTS (SELECT 1 FROM orders y WHERE y.tenant_id = x.tenant_id AND y.customer_id = x.customer_id AND y.status = 'completed'
                          AND (y.ordered_at < x.ordered_at OR (y.ordered_at = x.ordered_at AND y.order_id < x.order_id)))) o
      WHERE ${w} GROUP BY 1`,
    conversion_rate: `SELECT a.k, round(100.0 * a.n / s.n, 2) AS conversion_rate FROM
        (SELECT ${b} AS k, count(*) AS n FROM orders o WHERE ${w} AND status = 'completed' GROUP BY 1) a
        JOIN (SELECT ${BUCKET[g]('s.day')} AS k, sum(sessions) AS n FROM web_sessions s WHERE s.tenant_id = '${tenant}'
              AND s.day BETWEEN DATE '${FROM}' AND DATE '${TO}' ${f.country ? `AND s.country = '${f.country}'` : ''} ${f.channel ? `AND s.channel = '${f.channel}'` : ''} GROUP BY 1) s ON s.k = a.k`,
  };
  const rows = await wh.query(sql[code]);
  return new Map(
    rows.map((r) => [
      String(r.k),
      Object.fromEntries(
        Object.entries(r)
          .filter(([k]) => k !== 'k')
          .map(([k, v]) => [k, Number(v)]),
      ),
    ]),
  );
}

const close = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) <= 0.011, `${what}: ${a} vs expected ${b}`);

test('every time series × granularity × filters matches an independent computation', async () => {
  const filterSets: ExecuteParams[] = [{}, { country: 'DE' }, { channel: 'mobile' }];
  // Rolling measures (rolling_revenue) have their own test below.
  const series = insights.catalog().filter((c) => c.kind === 'timeseries' && !insights.isRolling(c.code));
  assert.equal(series.length, 6);
  let checkedNonZero = 0;
  for (const entry of series) {
    for (const g of entry.granularities) {
      for (const f of filterSets) {
        const tenant = f.country === 'DE' ? 'demo' : 'acme';
        const res = await insights.execute(tenant, entry.code, { ...f, granularity: g, date_from: FROM, date_to: TO });
        const expected = await expectedSeries(entry.code, g, tenant, f);
        const measure = entry.chart_hint.y_axis![0];
        const seen = new Set<string>();
        for (const row of res.rows) {
          const exp = expected.get(String(row.period));
          close(Number(row[measure]), exp?.[measure] ?? 0, `${entry.code} ${g} ${JSON.stringify(f)} ${row.period}`);
          if (exp) seen.add(String(row.period));
          if (Number(row[measure]) > 0) checkedNonZero++;
        }
        assert.equal(seen.size, expected.size, `${entry.code} ${g}: every period with data is in the result`);
        // Zero-filled: consecutive bucket starts, first one the bucket of date_from.
        assert.equal(res.rows[0].period, BUCKET_START[g](FROM));
      }
    }
  }
  assert.ok(checkedNonZero > 1000, `${checkedNonZero}`);
});

test('rolling 3-month and year-to-date revenue match an independent computation from daily sums', async () => {
  const day = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
  const months = (d: string, n: number) => {
    const t = new Date(Date.parse(`${d}T00:00:00Z`));
    return new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + n, t.getUTCDate())).toISOString().slice(0, 10);
  };
  for (const f of [{}, { country: 'DE' }, { channel: 'mobile' }] as ExecuteParams[]) {
    const tenant = f.country === 'DE' ? 'demo' : 'acme';
    // Every completed order's day, all of the data: the windows reach before date_from.
    const filters = [f.country ? `AND country = '${f.country}'` : '', f.channel ? `AND channel = '${f.channel}'` : ''].join(' ');
    const daily = await wh.query(
      `SELECT strftime(ordered_at, '%Y-%m-%d') AS d, sum(revenue) AS revenue FROM orders WHERE tenant_id = '${tenant}' AND status = 'completed' ${filters} GROUP BY 1`,
    );
    const over = (from: string, to: string) =>
      daily.filter((r) => String(r.d) >= from && String(r.d) < to).reduce((a, r) => a + Number(r.revenue), 0);
    for (const g of ['week', 'month', 'quarter'] as const) {
      const res = await insights.execute(tenant, 'rolling_revenue', { ...f, granularity: g, date_from: FROM, date_to: TO });
      const starts = res.rows.map((r) => String(r.period));
      assert.equal(starts[0], BUCKET_START[g](FROM));
      res.rows.forEach((row, i) => {
        const end = starts[i + 1] ?? day(TO, 1);
        close(Number(row.revenue_3m), over(months(end, -3), end), `3m ${g} ${JSON.stringify(f)} ${row.period}`);
        close(Number(row.revenue_ytd), over(`${day(end, -1).slice(0, 4)}-01-01`, end), `ytd ${g} ${JSON.stringify(f)} ${row.period}`);
      });
      assert.ok(Number(res.rows[0].revenue_3m) > 0, "the first period's window reaches before the window");
    }
  }
});

const BUCKET_START: Record<string, (d: string) => string> = {
  day: (d) => d,
  week: () => '2025-01-13',
  month: () => '2025-01-01',
  quarter: () => '2025-01-01',
  year: () => '2025-01-01',
};

test('breakdowns match an independent computation', async () => {
  for (const tenant of ['demo', 'acme']) {
    const w = where(tenant, {});
    const byCountry = await wh.query(
      `SELECT country, sum(revenue) AS revenue, count(*) AS orders FROM orders o WHERE ${w} AND status = 'completed' GROUP BY 1 ORDER BY 2 DESC, 1`,
    );
    const r1 = await insights.execute(tenant, 'revenue_by_country', { date_from: FROM, date_to: TO });
    assert.deepEqual(
      r1.rows,
      byCountry.map((r) => ({ country: r.country, revenue: Number(r.revenue), orders: Number(r.orders) })),
    );
    const byChannel = await wh.query(
      `SELECT channel, sum(revenue) AS revenue, count(*) AS orders FROM orders o WHERE ${where(tenant, { country: tenant === 'demo' ? 'DE' : 'US' })} AND status = 'completed' GROUP BY 1 ORDER BY 2 DESC, 1`,
    );
    const r2 = await insights.execute(tenant, 'revenue_by_channel', {
      date_from: FROM,
      date_to: TO,
      country: tenant === 'demo' ? 'DE' : 'US',
    });
    assert.deepEqual(
      r2.rows,
      byChannel.map((r) => ({ channel: r.channel, revenue: Number(r.revenue), orders: Number(r.orders) })),
    );
    assert.ok(r2.rows.length === 4);
    const products =
      await wh.query(`SELECT p.product_id, p.name, p.category, p.brand, sum(i.quantity * i.unit_price) AS revenue, sum(i.quantity) AS units
      FROM orders o, order_items i, products p WHERE ${w} AND o.status = 'completed' AND i.tenant_id = o.tenant_id AND i.order_id = o.order_id
        AND p.tenant_id = o.tenant_id AND p.product_id = i.product_id AND p.category = 'Electronics'
      GROUP BY 1, 2, 3, 4 ORDER BY 5 DESC, 1 LIMIT 7`);
    const r3 = await insights.execute(tenant, 'top_products', { date_from: FROM, date_to: TO, category: 'Electronics', limit: 7 });
    assert.equal(r3.rows.length, 7);
    assert.deepEqual(
      r3.rows,
      products.map((r) => ({
        product_id: r.product_id,
        product_name: r.name,
        category: r.category,
        brand: r.brand,
        revenue: Number(r.revenue),
        units: Number(r.units),
      })),
    );
    const cats = await wh.query(`SELECT p.category, sum(i.quantity * i.unit_price) AS revenue, sum(i.quantity) AS units
      FROM orders o, order_items i, products p WHERE ${where(tenant, { channel: 'web' })} AND o.status = 'completed' AND i.tenant_id = o.tenant_id AND i.order_id = o.order_id
        AND p.tenant_id = o.tenant_id AND p.product_id = i.product_id GROUP BY 1 ORDER BY 2 DESC, 1`);
    const r4 = await insights.execute(tenant, 'top_categories', { date_from: FROM, date_to: TO, channel: 'web' });
    assert.deepEqual(
      r4.rows,
      cats.map((r) => ({ category: r.category, revenue: Number(r.revenue), units: Number(r.units) })),
    );
  }
});

async function total(tenant: string, code: string, from: string, to: string, f: ExecuteParams = {}): Promise<number> {
  const r = await insights.execute(tenant, code, { ...f, granularity: 'day', date_from: from, date_to: to });
  const m = code === 'revenue' ? 'revenue' : 'orders';
  return Math.round(r.rows.reduce((s, x) => s + Number(x[m]), 0) * 100) / 100;
}

test('consistency: breakdown parts sum to the total, AOV = revenue / orders, KPI = sum of the series', async () => {
  for (const tenant of ['demo', 'acme']) {
    const revenueTotal = await total(tenant, 'revenue', FROM, TO);
    const parts = (r: ExecuteResult) => Math.round(r.rows.reduce((s, x) => s + Number(x.revenue), 0) * 100) / 100;
    assert.equal(parts(await insights.execute(tenant, 'revenue_by_country', { date_from: FROM, date_to: TO })), revenueTotal);
    assert.equal(parts(await insights.execute(tenant, 'revenue_by_channel', { date_from: FROM, date_to: TO })), revenueTotal);

    const aov = await insights.execute(tenant, 'average_order_value', { granularity: 'month', date_from: FROM, date_to: TO });
    const rev = await insights.execute(tenant, 'revenue', { granularity: 'month', date_from: FROM, date_to: TO });
    const ord = await insights.execute(tenant, 'orders_count', { granularity: 'month', date_from: FROM, date_to: TO });
    aov.rows.forEach((row, i) => {
      assert.equal(row.revenue, rev.rows[i].revenue);
      assert.equal(row.orders, ord.rows[i].orders);
      assert.equal(row.average_order_value, Math.round((Number(row.revenue) / Number(row.orders)) * 100) / 100);
    });

    for (const [code, series] of [
      ['revenue_kpi', 'revenue'],
      ['orders_kpi', 'orders_count'],
    ] as const) {
      // The default window (month to date) and an explicit one.
      for (const params of [{}, { date_from: '2026-02-01', date_to: '2026-04-15', country: 'GB' }] as ExecuteParams[]) {
        const k = await insights.execute(tenant, code, params);
        const row = k.rows[0];
        const f = params.country ? { country: params.country } : {};
        assert.equal(row.value, await total(tenant, series, String(row.period_from), String(row.period_to), f));
        assert.equal(row.previous_value, await total(tenant, series, String(row.previous_period_from), String(row.previous_period_to), f));
        assert.ok(Number(row.value) > 0 && Number(row.previous_value) > 0);
        assert.equal(
          row.change_pct,
          Math.round(((Number(row.value) - Number(row.previous_value)) / Number(row.previous_value)) * 10000) / 100,
        );
      }
    }
  }
});
