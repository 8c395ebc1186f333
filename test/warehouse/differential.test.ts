// The same catalog on DuckDB, PostgreSQL and ClickHouse, all loaded by the demo generator with the
// same data: every insight × granularity × a set of filters must give the same rows. PostgreSQL is
// the configured server (WAREHOUSE_TEST_URL or DATABASE_URL), else PGlite; ClickHouse is the
// chdb-backed server over HTTP, where chdb is installed (the test says why it skips otherwise).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../src/lib/clock.ts';
import { InsightsService, type ExecuteParams } from '../../src/modules/insights/insights.service.ts';
import { compileInsight as compile } from '../../src/semantic/query/insight-query.ts';
import { DIALECTS } from '../../src/semantic/dialects/index.ts';
import { demoModel } from '../../src/semantic/model.ts';
import type { Warehouse } from '../../src/warehouse/warehouse.ts';
import { clickhouseSkip, testClickHouseWarehouse } from '../helpers/clickhouse.ts';
import { testPostgresWarehouse, testWarehouse } from '../helpers/warehouse.ts';

const clock = new ManualClock(new Date('2026-03-31T12:00:00Z'));
let duck: Warehouse;
let pg: Warehouse;
let ch: Warehouse | undefined;

before(async () => {
  [duck, pg, ch] = await Promise.all([
    testWarehouse(clock.now(), 4000),
    testPostgresWarehouse(clock.now(), 4000),
    clickhouseSkip ? undefined : testClickHouseWarehouse(clock.now(), 4000),
  ]);
});
after(async () => {
  await duck?.close();
  await pg?.close();
  await ch?.close();
});

const CHECKS = [
  'SELECT count(*) AS n, sum(revenue) AS rev, sum(discount) AS disc, sum(items) AS items, sum(customer_id) AS cust, count(DISTINCT ordered_at) AS ts FROM orders',
  "SELECT count(*) AS n, sum(quantity) AS q, sum(unit_price) AS p, sum(product_id) AS pid FROM order_items WHERE tenant_id = 'acme'",
  'SELECT count(*) AS n, sum(sessions) AS s FROM web_sessions',
  'SELECT count(*) AS n, sum(customer_id) AS c, min(signup_at) AS first, max(signup_at) AS last FROM customers',
  'SELECT status, country, channel, count(*) AS n, sum(revenue) AS rev FROM orders GROUP BY 1, 2, 3 ORDER BY 1, 2, 3',
  'SELECT count(*) AS n, count(DISTINCT category) AS c FROM products',
];
const norm = (rows: Record<string, unknown>[]) =>
  rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' ? v.replace(/\.0+$/, '') : v])));

test('the generator writes identical tables on both engines', async () => {
  for (const sql of CHECKS) {
    const [a, b] = await Promise.all([duck.query(sql), pg.query(sql)]);
    assert.deepEqual(norm(b), norm(a), sql);
  }
});

test('ClickHouse holds the very same rows', { skip: clickhouseSkip }, async () => {
  for (const sql of CHECKS) assert.deepEqual(norm(await ch!.query(sql)), norm(await duck.query(sql)), sql);
});

for (const other of ['PostgreSQL', 'ClickHouse'] as const) {
  test(`every insight × granularity × filters gives the same rows on DuckDB and ${other}`, {
    skip: other === 'ClickHouse' && clickhouseSkip,
  }, async () => {
    const onDuck = new InsightsService(duck, clock);
    const onPg = new InsightsService(other === 'PostgreSQL' ? pg : ch!, clock);
    const filterSets: ExecuteParams[] = [
      {},
      { country: 'DE' },
      { channel: 'mobile' },
      { country: 'US', channel: 'web' },
      { date_from: '2025-02-10', date_to: '2025-11-03' },
    ];
    const cases: { tenant: string; code: string; params: ExecuteParams }[] = [];
    for (const entry of onDuck.catalog()) {
      const grans = entry.granularities.length ? entry.granularities : [undefined];
      for (const g of grans) {
        for (const f of filterSets) {
          const params: ExecuteParams = { ...f, ...(g ? { granularity: g } : {}) };
          if (entry.filters.includes('category') && f.country === 'DE') params.category = 'Electronics';
          for (const tenant of ['demo', 'acme']) cases.push({ tenant, code: entry.code, params });
        }
      }
    }
    let compared = 0;
    let nonEmpty = 0;
    // Several at a time: PostgreSQL answers on a pool of connections.
    const worker = async () => {
      for (let c = cases.shift(); c; c = cases.shift()) {
        const [a, b] = await Promise.all([onDuck.execute(c.tenant, c.code, c.params), onPg.execute(c.tenant, c.code, c.params)]);
        assert.deepEqual(b.rows, a.rows, `${c.tenant} ${c.code} ${JSON.stringify(c.params)}`);
        assert.deepEqual(b.period, a.period);
        compared++;
        if (a.rows.some((r) => Object.values(r).some((v) => typeof v === 'number' && v > 0))) nonEmpty++;
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    assert.ok(nonEmpty > compared * 0.75, `only ${nonEmpty} of ${compared} results had data`);
    assert.ok(compared > 300, `compared ${compared}`);
  });
}

// The compiler aggregates order items by product before joining the products (compile-split.ts):
// the same rows as the plan that joins every order item to its product first, written out by hand.
const JOIN_FIRST = (keys: string[]) =>
  `SELECT ${keys.map((k) => `p.${k === 'product_name' ? 'name' : k} AS ${k}`).join(', ')}, sum(oi.quantity * oi.unit_price) AS revenue, sum(oi.quantity) AS units ` +
  'FROM order_items oi LEFT JOIN orders o ON oi.order_id = o.order_id AND o.tenant_id = $1 ' +
  'LEFT JOIN products p ON oi.product_id = p.product_id AND p.tenant_id = $1 ' +
  "WHERE oi.tenant_id = $1 AND o.status = 'completed' AND o.ordered_at >= CAST($2 AS TIMESTAMP) AND o.ordered_at < CAST($3 AS TIMESTAMP) AND (CAST($4 AS VARCHAR) = '' OR o.country = $4) " +
  `GROUP BY ${keys.map((_, i) => i + 1).join(', ')} ORDER BY revenue DESC NULLS LAST, 1 ASC`;

test('top products and top categories: aggregated by product first, the same rows as joining every order item first, on every engine', async () => {
  const engines = [duck, pg, ...(ch ? [ch] : [])];
  let compared = 0;
  for (const w of engines) {
    for (const code of ['top_products', 'top_categories']) {
      const def = demoModel().insights.find((d) => d.code === code)!;
      for (const tenant of ['demo', 'acme']) {
        for (const country of ['', 'DE']) {
          const window = { from: '2025-01-01', to: '2026-03-31' };
          const compiled = compile(def, DIALECTS[w.dialect], {
            tenantId: tenant,
            granularity: null,
            filters: country ? { country } : {},
            window,
            limit: 1000,
          });
          assert.match(compiled.sql, /AS "__fact" LEFT JOIN "products"/);
          // The compiler names columns "cube:member"; the hand-written query by the member alone.
          const split = (await w.query(compiled.sql, compiled.params)).map((r) =>
            Object.fromEntries(Object.entries(r).map(([k, v]) => [k.split(':').pop()!, v])),
          );
          const joined = await w.query(JOIN_FIRST(def.plan.facts[0].keys.map((k) => k.name.split('.')[1])), [
            tenant,
            '2025-01-01',
            '2026-04-01',
            country,
          ]);
          assert.ok(split.length > 1, `${w.dialect} ${code} ${tenant} ${country}: ${split.length} rows`);
          assert.deepEqual(norm(split), norm(joined), `${w.dialect} ${code} ${tenant} ${country}`);
          compared++;
        }
      }
    }
  }
  assert.equal(compared, engines.length * 8);
});
