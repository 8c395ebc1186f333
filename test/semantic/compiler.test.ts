// The semantic layer without a database: exact SQL per dialect, catalog validation with paths,
// and the calendar arithmetic behind buckets and windows.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CATALOG } from '../../src/semantic/catalog.ts';
import { compile } from '../../src/semantic/compiler.ts';
import { DIALECTS } from '../../src/semantic/dialects/index.ts';
import { addPeriods, bucketStart, defaultFrom, periodStarts, previousWindow } from '../../src/semantic/periods.ts';
import type { InsightDefinition } from '../../src/semantic/types.ts';
import { CatalogError, assertValidCatalog, validateCatalog } from '../../src/semantic/validate.ts';

const def = (code: string) => CATALOG.find((d) => d.code === code)!;
const window = { from: '2026-01-05', to: '2026-03-31' };

test('revenue by week: DATE-free bucketing on DuckDB, bound values, tenant first', () => {
  const q = compile(def('revenue'), DIALECTS.duckdb, { tenantId: 'demo', granularity: 'week', filters: { country: 'DE' }, window });
  assert.equal(
    q.sql,
    `SELECT date_trunc('week', o.ordered_at) AS "period", sum(o.revenue) AS "revenue" FROM orders o ` +
      `WHERE o.tenant_id = $1 AND o.status = $2 AND o.country = $3 AND o.ordered_at >= CAST($4 AS TIMESTAMP) AND o.ordered_at < CAST($5 AS TIMESTAMP) GROUP BY 1 ORDER BY 1`,
  );
  assert.deepEqual(q.params, ['demo', 'completed', 'DE', '2026-01-05', '2026-04-01']);
  const day = compile(def('orders_count'), DIALECTS.duckdb, { tenantId: 'demo', granularity: 'day', filters: {}, window });
  assert.match(day.sql, /^SELECT CAST\(o\.ordered_at AS DATE\) AS "period", count\(\*\) AS "orders" FROM orders o WHERE o\.tenant_id = \$1 AND o\.status = \$2 AND/);
});

test('a caller value never reaches the SQL text', () => {
  const evil = "DE' OR 1=1 --";
  for (const d of CATALOG) {
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

test('conversion_rate on PostgreSQL: two sources joined per period, DATE column through timestamp', () => {
  const q = compile(def('conversion_rate'), DIALECTS.postgres, { tenantId: 'acme', granularity: 'month', filters: { channel: 'web' }, window });
  assert.equal(
    q.sql,
    `WITH a AS (SELECT date_trunc('month', o.ordered_at) AS "period", count(*) AS "orders" FROM orders o WHERE o.tenant_id = $1 AND o.status = $2 AND o.channel = $3 ` +
      `AND o.ordered_at >= CAST($4 AS timestamp) AND o.ordered_at < CAST($5 AS timestamp) GROUP BY 1), ` +
      `b AS (SELECT date_trunc('month', CAST(s.day AS timestamp)) AS "period", sum(s.sessions) AS "sessions" FROM web_sessions s WHERE s.tenant_id = $1 AND s.channel = $3 ` +
      `AND s.day >= CAST($6 AS date) AND s.day <= CAST($7 AS date) GROUP BY 1) ` +
      `SELECT COALESCE(a."period", b."period") AS "period", a."orders", b."sessions" FROM a FULL JOIN b ON a."period" = b."period" ORDER BY 1`,
  );
  assert.deepEqual(q.params, ['acme', 'completed', 'web', '2026-01-05', '2026-04-01', '2026-01-05', '2026-03-31']);
});

test('KPI: one scan over both windows with FILTER clauses; breakdowns order and limit', () => {
  const k = compile(def('orders_kpi'), DIALECTS.duckdb, { tenantId: 'demo', granularity: 'month', filters: {}, window: { from: '2026-03-01', to: '2026-03-10' }, previous: { from: '2026-02-01', to: '2026-02-10' } });
  assert.equal(
    k.sql,
    `SELECT count(*) FILTER (WHERE o.ordered_at >= CAST($1 AS TIMESTAMP) AND o.ordered_at < CAST($2 AS TIMESTAMP)) AS "value", ` +
      `count(*) FILTER (WHERE o.ordered_at >= CAST($3 AS TIMESTAMP) AND o.ordered_at < CAST($4 AS TIMESTAMP)) AS "previous_value" ` +
      `FROM orders o WHERE o.tenant_id = $5 AND o.status = $6 AND o.ordered_at >= CAST($3 AS TIMESTAMP) AND o.ordered_at < CAST($2 AS TIMESTAMP)`,
  );
  const b = compile(def('top_products'), DIALECTS.postgres, { tenantId: 'demo', granularity: null, filters: { category: 'Books' }, window, limit: 3 });
  assert.match(b.sql, /JOIN orders o ON o\.order_id = i\.order_id AND o\.tenant_id = \$1 JOIN products p ON p\.product_id = i\.product_id AND p\.tenant_id = \$1 WHERE i\.tenant_id = \$1 /);
  assert.match(b.sql, /GROUP BY 1, 2, 3, 4 ORDER BY "revenue" DESC, 1 ASC LIMIT \$\d+$/);
  assert.equal(b.params.at(-1), 3);
});

test('the catalog is valid, and every problem of a bad one is reported with its path', () => {
  assertValidCatalog(CATALOG);
  const broken: InsightDefinition[] = [
    { ...def('revenue'), measures: [{ name: 'revenue', label: 'R', type: 'money', agg: 'sum', column: 'price' }], granularities: ['day', 'hour' as never] },
    { ...def('revenue'), filters: ['category'], chart: { type: 'donut' as never, x_axis: 'when' } },
    { ...def('top_products'), dimensions: [{ name: 'x', label: 'X', source: 'colour' }], limit: { default: 0, max: 5 } },
    { ...def('revenue_kpi'), kpiMeasure: 'profit' },
  ];
  const paths = validateCatalog(broken).map((i) => i.path);
  for (const p of ['/insights/0/measures/0/column', '/insights/0/granularities/1', '/insights/1/code', '/insights/1/filters/0', '/insights/1/chart/type', '/insights/2/dimensions/0/source', '/insights/2/limit', '/insights/3/kpiMeasure']) {
    assert.ok(paths.includes(p), `${p} in ${paths.join(', ')}`);
  }
  assert.throws(() => assertValidCatalog(broken), (e: unknown) => e instanceof CatalogError && e.issues.length >= 8);
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
