// Row-level access (access_filters, docs/model.md): the bound predicate on every cube a query reads,
// no answer without the attribute, rollups only when they keep the dimension, and the model's
// mistakes reported with their line and path.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../../src/lib/errors.ts';
import { accessKey } from '../../src/semantic/query/compile.ts';
import { compileInsight as compile } from '../../src/semantic/query/insight-query.ts';
import { DIALECTS } from '../../src/semantic/dialects/index.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkModel, modelFromText } from '../../src/semantic/model.ts';

export const STORE_MODEL = `
cubes:
  - name: orders
    sql_table: orders
    tenant_column: tenant_id
    access_filters:
      - dimension: store_id
        attribute: store_id
    joins:
      - name: stores
        relationship: many_to_one
        sql: "{CUBE}.store_id = {stores}.store_id"
    measures:
      - { name: revenue, type: sum, sql: amount }
      - { name: buyers, type: count_distinct, sql: customer_id }
    dimensions:
      - { name: ordered_at, type: time, sql: ordered_at }
      - { name: store_id, type: string, sql: store_id }
      - { name: country, type: string, sql: country }
    pre_aggregations:
      - { name: by_country, measures: [revenue], dimensions: [country], time_dimension: ordered_at, granularity: day }
      - { name: by_store, measures: [revenue], dimensions: [store_id, country], time_dimension: ordered_at, granularity: day }
  - name: stores
    sql_table: stores
    tenant_column: tenant_id
    access_filters:
      - { dimension: region, attribute: region }
    dimensions:
      - { name: store_id, type: string, sql: store_id }
      - { name: region, type: string, sql: region }
      - { name: city, type: string, sql: city }
  - name: big_orders
    sql: "SELECT tenant_id, ordered_at, amount FROM {orders} WHERE amount > 100"
    tenant_column: tenant_id
    measures:
      - { name: revenue, type: sum, sql: amount }
    dimensions:
      - { name: ordered_at, type: time, sql: ordered_at }
insights:
  - { code: revenue, kind: timeseries, measures: [orders.revenue], time_dimension: orders.ordered_at, filters: [orders.country] }
  - { code: revenue_by_city, kind: breakdown, measures: [orders.revenue], dimension: stores.city, time_dimension: orders.ordered_at }
  - { code: big_revenue, kind: timeseries, measures: [big_orders.revenue], time_dimension: big_orders.ordered_at }
`;

const model = modelFromText(STORE_MODEL);
const def = (code: string) => model.insights.find((d) => d.code === code)!;
const window = { from: '2026-01-01', to: '2026-01-31' };

test("the caller's attribute becomes a bound predicate on the fact; several values an IN list", () => {
  const one = compile(def('revenue'), DIALECTS.duckdb, {
    tenantId: 't1',
    granularity: 'day',
    filters: {},
    window,
    attributes: { store_id: ['42'] },
  });
  assert.match(one.sql, /WHERE "orders"\."tenant_id" = \$1 AND "orders"\."store_id" = \$2 AND/);
  assert.deepEqual(one.params.slice(0, 2), ['t1', '42']);
  const two = compile(def('revenue'), DIALECTS.postgres, {
    tenantId: 't1',
    granularity: 'day',
    filters: {},
    window,
    attributes: { store_id: ['42', "7' OR 1=1"] },
  });
  assert.match(two.sql, /"orders"\."store_id" IN \(\$2, \$3\)/);
  assert.ok(!two.sql.includes('OR 1=1'));
});

test("a joined cube's access filter restricts the fact rows too; a derived cube's read of a restricted cube is restricted inside", () => {
  const q = compile(def('revenue_by_city'), DIALECTS.duckdb, {
    tenantId: 't1',
    granularity: null,
    filters: {},
    window,
    attributes: { store_id: ['42'], region: ['north'] },
  });
  assert.match(q.sql, /"orders"\."store_id" = \$\d+ AND "stores"\."region" = \$\d+/);
  const d = compile(def('big_revenue'), DIALECTS.duckdb, {
    tenantId: 't1',
    granularity: 'day',
    filters: {},
    window,
    attributes: { store_id: ['42'] },
  });
  assert.match(d.sql, /\(SELECT \* FROM "orders" AS "orders" WHERE "orders"\."tenant_id" = \$1 AND "orders"\."store_id" = \$2\)/);
});

test('without the attribute (none, another, an empty list) the query is refused, never compiled unrestricted', () => {
  for (const attributes of [undefined, {}, { region: ['north'] }, { store_id: [] }] as (Record<string, string[]> | undefined)[]) {
    assert.throws(
      () =>
        compile(def('revenue'), DIALECTS.duckdb, {
          tenantId: 't1',
          granularity: 'day',
          filters: {},
          window,
          ...(attributes ? { attributes } : {}),
        }),
      (e: unknown) => e instanceof AppError && e.code === 'ACCESS_ATTRIBUTE_MISSING' && /store_id/.test(e.detail),
    );
  }
});

test("a rollup answers a restricted query only when it holds the access filter's dimension", () => {
  const q = { tenantId: 't1', granularity: 'day' as const, filters: { country: 'DE' }, window, attributes: { store_id: ['42'] } };
  const byCountry = model.rollups.filter((r) => r.name === 'by_country');
  assert.ok(
    !compile(def('revenue'), DIALECTS.duckdb, { ...q, rollups: byCountry }).sql.includes('insights_rollups'),
    'the rollup without store_id is not used',
  );
  const sql = compile(def('revenue'), DIALECTS.duckdb, { ...q, rollups: model.rollups }).sql;
  assert.match(sql, /FROM "insights_rollups"\."orders__by_store" AS "r" WHERE "r"\."__tenant" = \$1 AND "r"\."orders__store_id" = \$2/);
});

test('the cache key part: the attributes an insight reads, in a stable order, nothing for the others', () => {
  assert.equal(
    accessKey(def('revenue').plan, { store_id: ['b', 'a'], other: ['x'] }),
    accessKey(def('revenue').plan, { store_id: ['a', 'b'] }),
  );
  assert.notEqual(accessKey(def('revenue').plan, { store_id: ['a'] }), accessKey(def('revenue').plan, { store_id: ['b'] }));
  assert.notEqual(
    accessKey(def('revenue_by_city').plan, { store_id: ['a'], region: ['n'] }),
    accessKey(def('revenue_by_city').plan, { store_id: ['a'], region: ['s'] }),
  );
});

test('mistakes in access_filters are reported with their line and path', () => {
  const said = (text: string) => checkModelText(text).issues.map((i) => `${i.line} ${i.path}: ${i.message}`);
  const wrong = STORE_MODEL.replace(
    '      - dimension: store_id\n        attribute: store_id',
    '      - dimension: store\n        attribute: store_id\n      - dimension: ordered_at\n        attribute: day',
  );
  const lines = wrong.split('\n');
  const at = (s: string) => lines.findIndex((l) => l.includes(s)) + 1;
  assert.deepEqual(said(wrong), [
    `${at('dimension: store')} cubes[0].access_filters[0].dimension: "store" is not a dimension of cube orders (did you mean store_id?)`,
    `${at('dimension: ordered_at')} cubes[0].access_filters[1].dimension: ordered_at is a time dimension; an access filter compares a dimension with the caller's attribute values`,
  ]);
  assert.equal(said(STORE_MODEL.replace('attribute: store_id', 'attribute: "store id"')).length, 1);
});

function checkModelText(text: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'access-model-'));
  try {
    fs.writeFileSync(path.join(dir, 'stores.yml'), text);
    return checkModel(path.join(dir, 'stores.yml'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test("a filter on the guarded dimension outside the caller's values is refused, inside it is allowed", () => {
  const q = { tenantId: 't1', granularity: 'day' as const, window, attributes: { store_id: ['42'] } };
  const m = modelFromText(STORE_MODEL.replace('filters: [orders.country]', 'filters: [orders.country, orders.store_id]'));
  const d = m.insights.find((x) => x.code === 'revenue')!;
  assert.throws(
    () => compile(d, DIALECTS.duckdb, { ...q, filters: { store_id: '43' } }),
    (e: unknown) => e instanceof AppError && e.code === 'FORBIDDEN',
  );
  assert.throws(
    () => compile(d, DIALECTS.duckdb, { ...q, filters: { store_id: ['42', '43'] } }),
    (e: unknown) => e instanceof AppError && e.code === 'FORBIDDEN',
  );
  assert.match(
    compile(d, DIALECTS.duckdb, { ...q, filters: { store_id: '42' } }).sql,
    /"orders"\."store_id" = \$2 AND .*"orders"\."store_id" = \$2/,
  );
});

test('the span and the filter values chat reads run as the caller: access predicates bound, none without the attribute', async () => {
  const { compileValues, compileSpan } = await import('../../src/semantic/query/compile.ts');
  const { memberSource } = await import('../../src/semantic/query/plan.ts');
  const d = DIALECTS.duckdb;
  const time = memberSource(model.cubes, def('revenue').plan.facts[0].refs.time)!;
  const country = memberSource(model.cubes, def('revenue').filterRefs.country)!;
  const span = compileSpan(time, d, 'acme', { store_id: ['s1'], region: ['north'] });
  assert.match(span.sql, /"store_id" = \$\d/);
  assert.ok(span.params.includes('s1'));
  const values = compileValues(country, d, 'acme', 10, { store_id: ['s1', 's2'], region: ['north'] });
  assert.match(values.sql, /"store_id" IN \(\$\d, \$\d\)/);
  assert.ok(values.params.includes('s2'));
  // Without the attributes the filter needs, nothing is read (never every store's values).
  assert.throws(
    () => compileSpan(time, d, 'acme'),
    (err: unknown) => err instanceof AppError,
  );
  assert.throws(
    () => compileValues(country, d, 'acme', 10),
    (err: unknown) => err instanceof AppError,
  );
});
