// A breakdown or top list by a joined dimension's columns: the fact aggregated by the join's key
// first, then joined to the dimension and grouped again, on every dialect, and only where that is
// exact (compile-split.ts). The real engines give the same rows both ways: test/warehouse/differential.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileInsight as compile } from '../../src/semantic/query/insight-query.ts';
import { DIALECTS } from '../../src/semantic/dialects/index.ts';
import { demoModel, modelFromText } from '../../src/semantic/model.ts';
import { SHOP_MODEL } from './shop-model.ts';

const window = { from: '2026-01-05', to: '2026-03-31' };
const demo = (code: string) => demoModel().insights.find((d) => d.code === code)!;

test('top categories on DuckDB and PostgreSQL: order items grouped by product first, the products joined to the groups', () => {
  const inner = (ts: string) =>
    `SELECT "order_items".product_id AS "__k1", sum("order_items".quantity * "order_items".unit_price) AS "order_items:revenue", sum("order_items"."quantity") AS "order_items:units" ` +
    `FROM "order_items" LEFT JOIN "orders" ON "order_items".order_id = "orders".order_id AND "orders"."tenant_id" = $1 ` +
    `WHERE "order_items"."tenant_id" = $1 AND "orders".status = 'completed' AND "orders"."country" = $2 ` +
    `AND "orders"."ordered_at" >= CAST($3 AS ${ts}) AND "orders"."ordered_at" < CAST($4 AS ${ts}) GROUP BY 1`;
  for (const [dialect, ts] of [
    ['duckdb', 'TIMESTAMP'],
    ['postgres', 'timestamp'],
  ] as const) {
    const q = compile(demo('top_categories'), DIALECTS[dialect], {
      tenantId: 'demo',
      granularity: null,
      filters: { country: 'DE' },
      window,
      limit: 5,
    });
    assert.equal(
      q.sql,
      `SELECT "products"."category" AS "products:category", sum("__fact"."order_items:revenue") AS "order_items:revenue", sum("__fact"."order_items:units") AS "order_items:units" ` +
        `FROM (${inner(ts)}) AS "__fact" LEFT JOIN "products" ON "__fact"."__k1" = "products".product_id AND "products"."tenant_id" = $1 ` +
        `GROUP BY 1 ORDER BY "order_items:revenue" DESC NULLS LAST, "products:category" ASC LIMIT $5`,
      dialect,
    );
    assert.deepEqual(q.params, ['demo', 'DE', '2026-01-05', '2026-04-01', 5]);
  }
});

const LINES = `
cubes:
  - name: lines
    sql_table: lines
    tenant_column: org
    joins:
      - { name: items, relationship: many_to_one, sql: "{CUBE}.item_id = {items}.id" }
      - { name: guarded, relationship: many_to_one, sql: "{CUBE}.item_id = {guarded}.id" }
    measures:
      - { name: amount, type: sum, sql: amount }
      - { name: lines, type: count }
      - { name: cheapest, type: min, sql: amount }
      - { name: dearest, type: max, sql: amount }
      - { name: buyers, type: count_distinct, sql: buyer }
      - { name: mean, type: avg, sql: amount }
      - { name: red_amount, type: sum, sql: amount, filters: [{ sql: "{items}.colour = 'red'" }] }
    dimensions:
      - { name: at, type: time, sql: at }
      - { name: shop, type: string, sql: shop }
      - { name: colour, type: string, sql: "{items}.colour" }
  - name: items
    sql_table: items
    tenant_column: org
    dimensions:
      - { name: colour, type: string, sql: colour }
  - name: guarded
    sql_table: items
    tenant_column: org
    access_filters:
      - { dimension: colour, attribute: colour }
    dimensions:
      - { name: colour, type: string, sql: colour }
insights:
  - { code: additive, kind: breakdown, measures: [lines.amount, lines.lines, lines.cheapest, lines.dearest], dimension: items.colour, time_dimension: lines.at, filters: [items.colour, lines.shop] }
  - { code: two_keys, kind: breakdown, measures: [lines.amount], dimensions: [lines.shop, items.colour], time_dimension: lines.at }
  - { code: distinct, kind: breakdown, measures: [lines.buyers], dimension: items.colour, time_dimension: lines.at }
  - { code: mean, kind: breakdown, measures: [lines.mean], dimension: items.colour, time_dimension: lines.at }
  - { code: filtered_by_item, kind: breakdown, measures: [lines.red_amount], dimension: items.colour, time_dimension: lines.at }
  - { code: guarded, kind: breakdown, measures: [lines.amount], dimension: guarded.colour, time_dimension: lines.at }
  - { code: by_shop, kind: breakdown, measures: [lines.amount], dimension: lines.shop, time_dimension: lines.at, filters: [items.colour] }
  - { code: series, kind: timeseries, measures: [lines.amount], time_dimension: lines.at, filters: [items.colour], granularities: [month] }
`;
const lines = (code: string) => modelFromText(LINES, 'lines.yml').insights.find((d) => d.code === code)!;
const run = (code: string, filters: Record<string, string> = {}) =>
  compile(lines(code), DIALECTS.duckdb, {
    tenantId: 't1',
    granularity: code === 'series' ? 'month' : null,
    filters,
    window,
    attributes: { colour: ['red'] },
  }).sql;
// The join before the aggregate, no pre-aggregated "__fact" rows.
const JOIN_FIRST = /^(?!.*__fact).* FROM "lines" LEFT JOIN "items"/;

test('sum, count, min and max are aggregated again (a count by summing the counts); filters on the dimension go outside, the others inside', () => {
  assert.equal(
    run('additive', { colour: 'red', shop: 's1' }),
    `SELECT "items"."colour" AS "items:colour", sum("__fact"."lines:amount") AS "lines:amount", sum("__fact"."lines:lines") AS "lines:lines", ` +
      `min("__fact"."lines:cheapest") AS "lines:cheapest", max("__fact"."lines:dearest") AS "lines:dearest" ` +
      `FROM (SELECT "lines".item_id AS "__k1", sum("lines"."amount") AS "lines:amount", count(*) AS "lines:lines", min("lines"."amount") AS "lines:cheapest", ` +
      `max("lines"."amount") AS "lines:dearest" ` +
      `FROM "lines" WHERE "lines"."org" = $1 AND "lines"."shop" = $3 AND "lines"."at" >= CAST($4 AS TIMESTAMP) AND "lines"."at" < CAST($5 AS TIMESTAMP) GROUP BY 1) AS "__fact" ` +
      `LEFT JOIN "items" ON "__fact"."__k1" = "items".id AND "items"."org" = $1 WHERE "items"."colour" = $2 GROUP BY 1 ORDER BY "lines:amount" DESC NULLS LAST, "items:colour" ASC`,
  );
});

test("a key of the fact's own rows is grouped inside and carried out", () => {
  assert.equal(
    run('two_keys'),
    `SELECT "__fact"."__k2" AS "lines:shop", "items"."colour" AS "items:colour", sum("__fact"."lines:amount") AS "lines:amount" ` +
      `FROM (SELECT "lines".item_id AS "__k1", "lines"."shop" AS "__k2", sum("lines"."amount") AS "lines:amount" FROM "lines" ` +
      `WHERE "lines"."org" = $1 AND "lines"."at" >= CAST($2 AS TIMESTAMP) AND "lines"."at" < CAST($3 AS TIMESTAMP) GROUP BY 1, 2) AS "__fact" ` +
      `LEFT JOIN "items" ON "__fact"."__k1" = "items".id AND "items"."org" = $1 GROUP BY 1, 2 ORDER BY "lines:amount" DESC NULLS LAST, "lines:shop" ASC, "items:colour" ASC`,
  );
});

test('the join stays first where aggregating again would not be exact or gains nothing', () => {
  // A distinct count cannot be summed over groups; avg would need its two parts.
  assert.match(run('distinct'), JOIN_FIRST);
  assert.match(run('mean'), JOIN_FIRST);
  // A measure's filter reads the dimension: it must be evaluated per fact row.
  assert.match(run('filtered_by_item'), JOIN_FIRST);
  // A dimension with access filters keeps the plan the access tests cover.
  assert.match(run('guarded'), /^(?!.*__fact).* FROM "lines" LEFT JOIN "items" AS "guarded"/);
  // Grouped by the fact's own column, the dimension only filtering: nothing to gain.
  assert.match(run('by_shop', { colour: 'red' }), JOIN_FIRST);
  // Time series group by the period, not by the dimension.
  assert.match(
    run('series', { colour: 'red' }),
    /^SELECT date_trunc\('month', "lines"\."at"\) AS "__period", sum\("lines"\."amount"\) AS "lines:amount" FROM "lines" LEFT JOIN "items"/,
  );
});

test('several facts: each aggregated by its own join key, its dimension joined to the groups, stacked on the key', () => {
  const def = modelFromText(SHOP_MODEL, 'shop.yml').insights.find((d) => d.code === 'by_region')!;
  const q = compile(def, DIALECTS.postgres, { tenantId: 't1', granularity: null, filters: {}, window });
  // sales → shops: by the sale's shop; sale_lines → sales → shops: by the sale's shop, the sale joined inside.
  assert.match(q.sql, /FROM \(SELECT "sales"\.shop_id AS "__k1", sum\("sales"\."amount"\) AS "sales:amount" FROM "sales" WHERE /);
  assert.match(
    q.sql,
    /FROM \(SELECT "sales"\.shop_id AS "__k1", sum\("sale_lines"\."qty"\) AS "sale_lines:quantity" FROM "sale_lines" LEFT JOIN "sales" ON "sale_lines"\.sale_id = "sales"\.id AND "sales"\."org" = \$1 WHERE /,
  );
  assert.equal(q.sql.match(/LEFT JOIN "shops" ON "__fact"\."__k1" = "shops"\.id AND "shops"\."org" = \$1 GROUP BY 1/g)?.length, 2);
});
