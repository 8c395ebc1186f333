// The semantic layer without a database: exact SQL per dialect for the demo model, and the
// calendar arithmetic behind buckets and windows.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileInsight as compile } from '../../src/semantic/query/insight-query.ts';
import { DIALECTS } from '../../src/semantic/dialects/index.ts';
import { demoModel } from '../../src/semantic/model.ts';
import { addPeriods, bucketStart, defaultFrom, periodStarts, previousWindow } from '../../src/semantic/periods.ts';

const def = (code: string) => demoModel().insights.find((d) => d.code === code)!;
const window = { from: '2026-01-05', to: '2026-03-31' };

test('revenue by week: one lean scan, bound values, tenant first', () => {
  const q = compile(def('revenue'), DIALECTS.duckdb, { tenantId: 'demo', granularity: 'week', filters: { country: 'DE' }, window });
  assert.equal(
    q.sql,
    `SELECT date_trunc('week', "orders"."ordered_at") AS "__period", sum("orders"."revenue") AS "orders:revenue" FROM ` +
      `"orders" WHERE "orders"."tenant_id" = $1 AND "orders".status = 'completed' AND "orders"."country" = $2 AND ` +
      `"orders"."ordered_at" >= CAST($3 AS TIMESTAMP) AND "orders"."ordered_at" < CAST($4 AS TIMESTAMP) GROUP BY 1`,
  );
  assert.deepEqual(q.params, ['demo', 'DE', '2026-01-05', '2026-04-01']);
  const day = compile(def('orders_count'), DIALECTS.duckdb, { tenantId: 'demo', granularity: 'day', filters: {}, window });
  assert.match(
    day.sql,
    /^SELECT CAST\("orders"\."ordered_at" AS DATE\) AS "__period", count\(\*\) AS "orders:orders" FROM "orders" WHERE "orders"\."tenant_id" = \$1 AND "orders"\.status = 'completed' AND/,
  );
});

test('a caller value never reaches the SQL text, and every insight is tenant-scoped', () => {
  const evil = "DE' OR 1=1 --";
  for (const d of demoModel().insights) {
    for (const dialect of Object.values(DIALECTS)) {
      const q = compile(d, dialect, {
        tenantId: "t'; DROP TABLE orders; --",
        granularity: d.granularities[0] ?? null,
        filters: { country: evil, channel: evil, category: evil },
        window,
        previous: { from: '2025-10-10', to: '2026-01-04' },
        limit: 5,
      });
      assert.ok(!q.sql.includes(evil) && !q.sql.includes('DROP'), d.code);
      assert.ok(q.params.includes("t'; DROP TABLE orders; --"), `${d.code} is tenant-scoped`);
    }
  }
});

test('conversion_rate on PostgreSQL: each cube aggregated per period on its own rows, stacked and combined on the period', () => {
  const q = compile(def('conversion_rate'), DIALECTS.postgres, {
    tenantId: 'acme',
    granularity: 'month',
    filters: { channel: 'web' },
    window,
  });
  assert.equal(
    q.sql,
    `SELECT "u"."__period" AS "__period", max("u"."orders:orders") AS "orders:orders", max("u"."web_sessions:sessions") ` +
      `AS "web_sessions:sessions", 100.0 * (CAST(max("u"."orders:orders") AS double precision)) / ` +
      `NULLIF((CAST(max("u"."web_sessions:sessions") AS double precision)), 0) AS "orders:conversion_rate" FROM (SELECT ` +
      `date_trunc('month', CAST("orders"."ordered_at" AS timestamp)) AS "__period", count(*) AS "orders:orders", CAST(NULL AS numeric) AS ` +
      `"web_sessions:sessions" FROM "orders" WHERE "orders"."tenant_id" = $1 AND "orders".status = 'completed' AND ` +
      `"orders"."channel" = $2 AND "orders"."ordered_at" >= CAST($3 AS timestamp) AND "orders"."ordered_at" < CAST($4 AS ` +
      `timestamp) GROUP BY 1 UNION ALL SELECT date_trunc('month', CAST("web_sessions"."day" AS timestamp)) AS "__period", ` +
      `CAST(NULL AS numeric) AS "orders:orders", sum("web_sessions"."sessions") AS "web_sessions:sessions" FROM "web_sessions" WHERE ` +
      `"web_sessions"."tenant_id" = $1 AND "web_sessions"."channel" = $2 AND "web_sessions"."day" >= CAST($3 AS timestamp) ` +
      `AND "web_sessions"."day" < CAST($4 AS timestamp) GROUP BY 1) AS "u" GROUP BY 1`,
  );
  assert.deepEqual(q.params, ['acme', 'web', '2026-01-05', '2026-04-01']);
});

test('KPI: one scan over both windows with FILTER clauses; top lists join many_to_one and limit', () => {
  const k = compile(def('orders_kpi'), DIALECTS.duckdb, {
    tenantId: 'demo',
    granularity: 'month',
    filters: {},
    window: { from: '2026-03-01', to: '2026-03-10' },
    previous: { from: '2026-02-01', to: '2026-02-10' },
  });
  assert.equal(
    k.sql,
    `SELECT count(*) FILTER (WHERE "orders"."ordered_at" >= CAST($2 AS TIMESTAMP) AND "orders"."ordered_at" < CAST($3 AS ` +
      `TIMESTAMP)) AS "orders:orders", count(*) FILTER (WHERE "orders"."ordered_at" >= CAST($4 AS TIMESTAMP) AND ` +
      `"orders"."ordered_at" < CAST($5 AS TIMESTAMP)) AS "orders:orders__previous" FROM "orders" WHERE ` +
      `"orders"."tenant_id" = $1 AND "orders".status = 'completed' AND "orders"."ordered_at" >= CAST($4 AS TIMESTAMP) AND ` +
      `"orders"."ordered_at" < CAST($3 AS TIMESTAMP)`,
  );
  const b = compile(def('top_products'), DIALECTS.postgres, {
    tenantId: 'demo',
    granularity: null,
    filters: { category: 'Books' },
    window,
    limit: 3,
  });
  assert.match(
    b.sql,
    /FROM \(SELECT "order_items"\.product_id AS "__k1", .* FROM "order_items" LEFT JOIN "orders" ON "order_items"\.order_id = "orders"\.order_id AND "orders"\."tenant_id" = \$1 WHERE "order_items"\."tenant_id" = \$1 .* GROUP BY 1\) AS "__fact" LEFT JOIN "products" ON "__fact"\."__k1" = "products"\.product_id AND "products"\."tenant_id" = \$1 WHERE "products"\."category" = \$2 /,
  );
  assert.match(b.sql, /GROUP BY 1, 2, 3, 4 ORDER BY "order_items:revenue" DESC NULLS LAST, "products:product_id" ASC, .* LIMIT \$\d+$/);
  assert.equal(b.params.at(-1), 3);
});

test('a derived cube reads other cubes restricted to the tenant, and its rows again outside', () => {
  const q = compile(def('new_customers'), DIALECTS.duckdb, { tenantId: 'demo', granularity: 'month', filters: {}, window });
  assert.match(
    q.sql,
    /FROM \(SELECT \* FROM "orders" WHERE "tenant_id" = \$1\) o WHERE o\.status = 'completed'\) f\s+WHERE rn = 1\) AS "first_orders" WHERE "first_orders"\."tenant_id" = \$1 AND/,
  );
  assert.equal(q.params[0], 'demo');
});

test('buckets: ISO weeks from Monday, calendar quarters and years; windows', () => {
  assert.equal(bucketStart('2026-11-22', 'week'), '2026-11-16'); // Sunday → Monday before
  assert.equal(bucketStart('2026-11-16', 'week'), '2026-11-16');
  assert.equal(bucketStart('2027-01-01', 'week'), '2026-12-28'); // ISO week across the year end
  assert.equal(bucketStart('2026-08-15', 'quarter'), '2026-07-01');
  assert.equal(bucketStart('2026-08-15', 'year'), '2026-01-01');
  assert.equal(addPeriods('2026-03-31', 'month', -1), '2026-02-28');
  assert.deepEqual(periodStarts('2026-01-30', '2026-03-02', 'month'), ['2026-01-01', '2026-02-01', '2026-03-01']);
  assert.equal(defaultFrom('timeseries', 'day', '2026-11-21'), '2026-10-23');
  assert.equal(defaultFrom('timeseries', 'month', '2026-11-21'), '2025-12-01');
  assert.equal(defaultFrom('kpi', 'quarter', '2026-11-21'), '2026-10-01');
  assert.deepEqual(previousWindow({ from: '2026-03-01', to: '2026-03-31' }, 'month'), { from: '2026-02-01', to: '2026-02-28' });
  assert.deepEqual(previousWindow({ from: '2026-03-05', to: '2026-03-14' }, null), { from: '2026-02-23', to: '2026-03-04' });
});
