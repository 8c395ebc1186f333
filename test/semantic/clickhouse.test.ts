// The ClickHouse dialect without a database: exact SQL for the demo model, as for DuckDB and
// PostgreSQL. Every statement here also runs on the real engine in the differential tests
// (test/warehouse/differential.test.ts, rollups.test.ts) where chdb is installed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileInsight as compile } from '../../src/semantic/query/insight-query.ts';
import { DIALECTS } from '../../src/semantic/dialects/index.ts';
import { demoModel, modelFromText } from '../../src/semantic/model.ts';
import { resolveParams } from '../../src/modules/insights/insights.params.ts';
import { bindParams, clickhouseConnection, CLICKHOUSE_SETTINGS } from '../../src/warehouse/clickhouse/clickhouse.ts';

const ch = DIALECTS.clickhouse;
const def = (code: string) => demoModel().insights.find((d) => d.code === code)!;
const window = { from: '2026-01-05', to: '2026-03-31' };
const TS = "DateTime64(6, 'UTC')";

test('revenue by week: ISO weeks from Monday, {name:Type} parameters, the tenant first', () => {
  const q = compile(def('revenue'), ch, { tenantId: 'demo', granularity: 'week', filters: { country: 'DE' }, window });
  assert.equal(
    q.sql,
    `SELECT toMonday("orders"."ordered_at") AS "__period", sum("orders"."revenue") AS "orders:revenue" FROM "orders" ` +
      `WHERE "orders"."tenant_id" = {p1:String} AND "orders".status = 'completed' AND "orders"."country" = {p2:String} ` +
      `AND "orders"."ordered_at" >= {p3:${TS}} AND "orders"."ordered_at" < {p4:${TS}} GROUP BY 1`,
  );
  assert.deepEqual(q.params, ['demo', 'DE', '2026-01-05', '2026-04-01']);
});

test('days, months, quarters and years: calendar buckets; timestamps compared in UTC', () => {
  const bucket = (g: 'day' | 'month' | 'quarter' | 'year') =>
    compile(def('orders_count'), ch, { tenantId: 'demo', granularity: g, filters: {}, window }).sql.split(' AS "__period"')[0];
  assert.equal(bucket('day'), 'SELECT toDate32("orders"."ordered_at")');
  assert.equal(bucket('month'), 'SELECT toStartOfMonth("orders"."ordered_at")');
  assert.equal(bucket('quarter'), 'SELECT toStartOfQuarter("orders"."ordered_at")');
  assert.equal(bucket('year'), 'SELECT toStartOfYear("orders"."ordered_at")');
  // The zone is in the parameter's type and the session's setting, so the server's own zone never shifts a day.
  assert.equal(CLICKHOUSE_SETTINGS.session_timezone, 'UTC');
});

test('a ratio over two cubes: each aggregated on its own rows, combined as doubles; NULL for an empty window', () => {
  const q = compile(def('conversion_rate'), ch, { tenantId: 'acme', granularity: 'month', filters: { channel: 'web' }, window });
  const fact = (table: string, time: string, cols: string) =>
    `SELECT toStartOfMonth("${table}"."${time}") AS "__period", ${cols} FROM "${table}" WHERE "${table}"."tenant_id" = {p1:String}` +
    `${table === 'orders' ? ` AND "orders".status = 'completed'` : ''} AND "${table}"."channel" = {p2:String} ` +
    `AND "${table}"."${time}" >= {p3:${TS}} AND "${table}"."${time}" < {p4:${TS}} GROUP BY 1`;
  assert.equal(
    q.sql,
    `SELECT "u"."__period" AS "__period", max("u"."orders:orders") AS "orders:orders", max("u"."web_sessions:sessions") AS "web_sessions:sessions", ` +
      `100.0 * (toFloat64(max("u"."orders:orders"))) / NULLIF((toFloat64(max("u"."web_sessions:sessions"))), 0) AS "orders:conversion_rate" FROM ` +
      `(${fact('orders', 'ordered_at', 'count(*) AS "orders:orders", NULL AS "web_sessions:sessions"')} UNION ALL ` +
      `${fact('web_sessions', 'day', 'NULL AS "orders:orders", sum("web_sessions"."sessions") AS "web_sessions:sessions"')}) AS "u" GROUP BY 1`,
  );
  // Standard SQL's NULLs (empty sum, unmatched LEFT JOIN row, CAST of NULL) are settings of every request.
  assert.equal(CLICKHOUSE_SETTINGS.aggregate_functions_null_for_empty, 1);
  assert.equal(CLICKHOUSE_SETTINGS.join_use_nulls, 1);
  assert.equal(CLICKHOUSE_SETTINGS.cast_keep_nullable, 1);
});

test('exact distinct counts, several values per filter', () => {
  const m = modelFromText(
    `cubes:
  - name: visits
    sql_table: visits
    tenant_column: tenant_id
    measures:
      - { name: visitors, type: count_distinct, sql: visitor_id }
    dimensions:
      - { name: at, type: time, sql: at }
      - { name: page, type: string, sql: page }
insights:
  - { code: visitors, kind: timeseries, measures: [visits.visitors], time_dimension: visits.at, filters: [visits.page] }
`,
    'visits.yml',
  );
  const q = compile(m.insights[0], ch, { tenantId: 't1', granularity: 'year', filters: { page: ['/a', '/b'] }, window });
  assert.equal(
    q.sql,
    `SELECT toStartOfYear("visits"."at") AS "__period", count(DISTINCT "visits"."visitor_id") AS "visits:visitors" FROM "visits" ` +
      `WHERE "visits"."tenant_id" = {p1:String} AND "visits"."page" IN ({p2:String}, {p3:String}) AND "visits"."at" >= {p4:${TS}} AND "visits"."at" < {p5:${TS}} GROUP BY 1`,
  );
  // count(DISTINCT) is uniqExact on every server, whatever its profile says.
  assert.equal(CLICKHOUSE_SETTINGS.count_distinct_implementation, 'uniqExact');
});

test('KPI windows: one scan with FILTER clauses over both windows', () => {
  const k = compile(def('orders_kpi'), ch, {
    tenantId: 'demo',
    granularity: 'month',
    filters: {},
    window: { from: '2026-03-01', to: '2026-03-10' },
    previous: { from: '2026-02-01', to: '2026-02-10' },
  });
  assert.equal(
    k.sql,
    `SELECT count(*) FILTER (WHERE "orders"."ordered_at" >= {p2:${TS}} AND "orders"."ordered_at" < {p3:${TS}}) AS "orders:orders", ` +
      `count(*) FILTER (WHERE "orders"."ordered_at" >= {p4:${TS}} AND "orders"."ordered_at" < {p5:${TS}}) AS "orders:orders__previous" ` +
      `FROM "orders" WHERE "orders"."tenant_id" = {p1:String} AND "orders".status = 'completed' AND "orders"."ordered_at" >= {p4:${TS}} AND "orders"."ordered_at" < {p3:${TS}}`,
  );
  assert.deepEqual(k.params, ['demo', '2026-03-01', '2026-03-11', '2026-02-01', '2026-02-11']);
});

test('top-N: the order items aggregated by product first, then joined to the products (tenant in every ON), ties broken on the first key, the limit bound', () => {
  const b = compile(def('top_products'), ch, { tenantId: 'demo', granularity: null, filters: { category: 'Books' }, window, limit: 3 });
  assert.equal(
    b.sql,
    `SELECT "products"."product_id" AS "products:product_id", "products"."name" AS "products:product_name", "products"."category" AS "products:category", ` +
      `"products"."brand" AS "products:brand", sum("__fact"."order_items:revenue") AS "order_items:revenue", sum("__fact"."order_items:units") AS "order_items:units" FROM (` +
      `SELECT "order_items".product_id AS "__k1", sum("order_items".quantity * "order_items".unit_price) AS "order_items:revenue", ` +
      `sum("order_items"."quantity") AS "order_items:units" FROM "order_items" ` +
      `LEFT JOIN "orders" ON "order_items".order_id = "orders".order_id AND "orders"."tenant_id" = {p1:String} ` +
      `WHERE "order_items"."tenant_id" = {p1:String} AND "orders".status = 'completed' ` +
      `AND "orders"."ordered_at" >= {p3:${TS}} AND "orders"."ordered_at" < {p4:${TS}} GROUP BY 1) AS "__fact" ` +
      `LEFT JOIN "products" ON "__fact"."__k1" = "products".product_id AND "products"."tenant_id" = {p1:String} ` +
      `WHERE "products"."category" = {p2:String} GROUP BY 1, 2, 3, 4 ORDER BY "order_items:revenue" DESC NULLS LAST, "products:product_id" ASC, "products:product_name" ASC, ` +
      `"products:category" ASC, "products:brand" ASC LIMIT {p5:Int64}`,
  );
  assert.deepEqual(b.params, ['demo', 'Books', '2026-01-05', '2026-04-01', 3]);
});

test('compare on a time series split by several values: both windows in one read, paired and zero-filled after', () => {
  const q = resolveParams(
    def('revenue'),
    'demo',
    { granularity: 'quarter', date_from: '2026-01-01', date_to: '2026-06-30', compare: 'previous_year', country: ['DE', 'FR'] },
    '2026-11-23',
  );
  const c = compile(def('revenue'), ch, q);
  const side = (n: number, from: string, to: string) =>
    `SELECT *, ${n} AS "__side" FROM (SELECT toStartOfQuarter("orders"."ordered_at") AS "__period", "orders"."country" AS "orders:country", ` +
    `sum("orders"."revenue") AS "orders:revenue" FROM "orders" ` +
    `WHERE "orders"."tenant_id" = {p1:String} AND "orders".status = 'completed' AND "orders"."country" IN ({p2:String}, {p3:String}) ` +
    `AND "orders"."ordered_at" >= {${from}:${TS}} AND "orders"."ordered_at" < {${to}:${TS}} GROUP BY 1, 2) AS "s${n}"`;
  assert.equal(c.sql, `${side(0, 'p4', 'p5')} UNION ALL ${side(1, 'p6', 'p7')}`);
  assert.deepEqual(c.params, ['demo', 'DE', 'FR', '2026-01-01', '2026-07-01', '2025-01-01', '2025-07-01']);
});

test('compare on a breakdown: the previous figures of the same keys, NULL keys matched', () => {
  const q = resolveParams(
    def('revenue_by_country'),
    'demo',
    { date_from: '2026-10-01', date_to: '2026-10-31', compare: 'previous_period' },
    '2026-11-23',
  );
  const c = compile(def('revenue_by_country'), ch, q);
  assert.match(
    c.sql,
    /^SELECT "c"\."orders:country" AS "orders:country", "c"\."orders:revenue" AS "orders:revenue", "c"\."orders:orders" AS "orders:orders", "p"\."orders:revenue" AS "orders:revenue__previous", "p"\."orders:orders" AS "orders:orders__previous" FROM \(SELECT /,
  );
  assert.match(
    c.sql,
    / LIMIT \{p\d+:Int64\}\) AS "c" LEFT JOIN \(SELECT .* GROUP BY 1\) AS "p" ON "c"\."orders:country" IS NOT DISTINCT FROM "p"\."orders:country" ORDER BY "c"\."orders:revenue" DESC NULLS LAST, "c"\."orders:country" ASC$/,
  );
});

test('a derived cube reads other cubes restricted to the tenant, and every caller value is a parameter', () => {
  const q = compile(def('new_customers'), ch, { tenantId: 'demo', granularity: 'month', filters: {}, window });
  assert.match(
    q.sql,
    /FROM \(SELECT \* FROM "orders" WHERE "tenant_id" = \{p1:String\}\) o WHERE o\.status = 'completed'\) f\s+WHERE rn = 1\) AS "first_orders" WHERE "first_orders"\."tenant_id" = \{p1:String\} AND/,
  );
  const evil = "DE' OR 1=1 --";
  for (const d of demoModel().insights) {
    const c = compile(d, ch, {
      tenantId: evil,
      granularity: d.granularities[0] ?? null,
      filters: { country: evil, channel: [evil, 'x'], category: evil },
      window,
      previous: { from: '2025-10-10', to: '2026-01-04' },
      limit: 5,
    });
    assert.ok(!c.sql.includes(evil) && !/\$\d/.test(c.sql), d.code);
    assert.ok(c.params.includes(evil), `${d.code} is tenant-scoped`);
    // Every table the query reads is restricted to the tenant.
    const reads = c.sql.match(/(FROM|JOIN) "(orders|order_items|products|customers|web_sessions)"/g) ?? [];
    assert.ok((c.sql.match(/"tenant_id" = \{p\d+:String\}/g) ?? []).length >= reads.length, d.code);
  }
});

test('SQL written for every engine ($1 …) is bound the same way; URLs name server, TLS and database', () => {
  const b = bindParams(`SELECT '$1', "a$1", x FROM t WHERE a = $1 AND n > $2 AND s = $3`, ['x', 5, "it's"]);
  assert.equal(b.query, `SELECT '$1', "a$1", x FROM t WHERE a = {p1:String} AND n > {p2:Int64} AND s = {p3:String}`);
  assert.deepEqual(b.query_params, { p1: 'x', p2: 5, p3: "it's" });
  assert.deepEqual(clickhouseConnection('clickhouse://u:p%40ss@ch.example:8123/shop'), {
    url: 'http://ch.example:8123',
    username: 'u',
    password: 'p@ss',
    database: 'shop',
  });
  assert.deepEqual(clickhouseConnection('https://u:p@ch.example/analytics'), {
    url: 'https://ch.example:8443',
    username: 'u',
    password: 'p',
    database: 'analytics',
  });
  assert.deepEqual(clickhouseConnection('clickhouses://ch.example:9443'), {
    url: 'https://ch.example:9443',
    username: 'default',
    password: '',
    database: 'default',
  });
  assert.throws(() => clickhouseConnection('clickhouse://h:8123/bad-name'), /database name/);
});
