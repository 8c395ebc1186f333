// A model the service never saw (shops, sales, sale lines), loaded from YAML and run on both
// engines against figures worked out by hand: no double counting across a one-to-many join, number
// measures from two cubes, KPI windows, tenant isolation with ids shared between tenants; and the
// whole-model validation, the shipped JSON Schema, and DATA_NOT_LOADED.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/lib/clock.ts';
import { InsightsService } from '../../src/modules/insights/insights.service.ts';
import { checkModel, modelFromText, ModelError } from '../../src/semantic/model.ts';
import { modelJsonSchema } from '../../src/semantic/model.schema.ts';
import { probeModel } from '../../src/semantic/probe.ts';
import { DuckDbWarehouse } from '../../src/warehouse/duckdb/duckdb.ts';
import { PostgresWarehouse } from '../../src/warehouse/postgres/postgres.ts';
import type { Warehouse } from '../../src/warehouse/warehouse.ts';
import { clickhouseSkip, emptyClickHouseWarehouse } from '../helpers/clickhouse.ts';
import { DATA, SHOP_MODEL } from './shop-model.ts';

import { PGliteWarehouse, postgresWarehouseUrl } from '../helpers/warehouse.ts';

// The PostgreSQL dialect runs on the configured server (DATABASE_URL or WAREHOUSE_TEST_URL), else
// on PGlite: a newcomer's `npm test` needs no server, and CI still runs it against a real one.
const PG_URL = postgresWarehouseUrl;

for (const engine of ['duckdb', 'postgres', 'clickhouse'] as const)
  describe(`a new model on ${engine}`, { skip: engine === 'clickhouse' && clickhouseSkip }, () => {
    let wh: Warehouse;
    let insights: InsightsService;
    let drop = async () => {};
    before(async () => {
      if (engine === 'duckdb') wh = await DuckDbWarehouse.open(':memory:');
      else if (engine === 'clickhouse') wh = await emptyClickHouseWarehouse();
      else if (!PG_URL) wh = await PGliteWarehouse.open();
      else {
        const schema = `m_${crypto.randomBytes(5).toString('hex')}`;
        const admin = new pg.Client({ connectionString: PG_URL });
        await admin.connect();
        await admin.query(`CREATE SCHEMA ${schema}`);
        wh = new PostgresWarehouse(PG_URL, { schema, max: 2 });
        drop = async () => {
          await admin.query(`DROP SCHEMA ${schema} CASCADE`);
          await admin.end();
        };
      }
      await wh.exec(engine === 'duckdb' ? DATA : DATA.replace(/VARCHAR/g, 'text'));
      insights = new InsightsService(wh, new ManualClock(new Date('2026-04-01T12:00:00Z')), modelFromText(SHOP_MODEL));
    });
    after(async () => {
      await wh?.close();
      await drop();
    });
    const march = { date_from: '2026-03-01', date_to: '2026-03-31' };

    test('a one-to-many join never multiplies the one side: each cube aggregates on its own rows', async () => {
      const r = await insights.execute('t1', 'by_region', march);
      // Sale 1 has three lines: joined naively its 100.00 would count three times.
      assert.deepEqual(r.rows, [
        { region: 'North', amount: 100, quantity: 6 },
        { region: 'South', amount: 50.5, quantity: 4 },
      ]);
      assert.deepEqual((await insights.execute('t1', 'by_region', { ...march, region: 'South' })).rows, [
        { region: 'South', amount: 50.5, quantity: 4 },
      ]);
      // Tenant t2 uses the same shop and sale ids: its rows never join into t1's.
      assert.deepEqual((await insights.execute('t2', 'by_region', march)).rows, [{ region: 'North', amount: 1000, quantity: 99 }]);
    });

    test('a number measure over two cubes per period, a KPI with a segment, a top list with a measure filter', async () => {
      const r = await insights.execute('t1', 'units_per_ticket', { granularity: 'month', date_from: '2026-02-01', date_to: '2026-04-30' });
      assert.deepEqual(r.rows, [
        { period: '2026-02-01', per_ticket: 2, quantity: 2, tickets: 1 },
        { period: '2026-03-01', per_ticket: 10 / 3, quantity: 10, tickets: 3 },
        { period: '2026-04-01', per_ticket: 0, quantity: 0, tickets: 0 },
      ]);
      const k = await insights.execute('t1', 'amount_kpi', march);
      assert.deepEqual(k.rows[0], {
        period_from: '2026-03-01',
        period_to: '2026-03-31',
        value: 150,
        previous_period_from: '2026-02-01',
        previous_period_to: '2026-02-28',
        previous_value: 10,
        change: 140,
        change_pct: 1400,
      });
      // A KPI of a number measure over two cubes: each window's ratio from that window's sums.
      assert.deepEqual((await insights.execute('t1', 'per_ticket_kpi', march)).rows[0], {
        period_from: '2026-03-01',
        period_to: '2026-03-31',
        value: 10 / 3,
        previous_period_from: '2026-02-01',
        previous_period_to: '2026-02-28',
        previous_value: 2,
        change: 10 / 3 - 2,
        change_pct: 66.67,
      });
      assert.deepEqual((await insights.execute('t1', 'best_regions', march)).rows, [{ region: 'North', big_tickets: 1 }]);
      assert.deepEqual((await insights.execute('t1', 'best_regions', { ...march, limit: 5 })).rows, [
        { region: 'North', big_tickets: 1 },
        { region: 'South', big_tickets: 1 },
      ]);
    });

    test('parameters come from the model: its filters, and nothing else', async () => {
      await assert.rejects(
        insights.execute('t1', 'by_region', { country: 'DE' }),
        (e: { options?: { errors?: { path: string }[] } }) => e.options?.errors?.[0].path === '/query/country',
      );
      await assert.rejects(
        insights.execute('t1', 'amount_kpi', { limit: 3 }),
        (e: { options?: { errors?: { path: string }[] } }) => e.options?.errors?.[0].path === '/query/limit',
      );
      assert.deepEqual(insights.catalog().find((c) => c.code === 'by_region')!.parameters, ['region', 'date_from', 'date_to', 'compare']);
    });

    test('the warehouse check warns of missing tables and columns; an insight over a missing table is DATA_NOT_LOADED', async () => {
      const text = (
        SHOP_MODEL.replace('sql: qty', 'sql: quantity_sold') +
        `
  - code: refunds
    kind: timeseries
    measures: [refunds.count]
    time_dimension: refunds.at
`
      ).replace(
        /^insights:/m,
        `  - name: refunds
    sql_table: refunds
    tenant_column: org
    measures: [{ name: count, type: count }]
    dimensions: [{ name: at, type: time, sql: at }]
insights:`,
      );
      const model = modelFromText(text);
      const warnings = await probeModel(model, wh);
      assert.deepEqual(
        warnings.map((w) => [w.severity, w.path]),
        [
          ['warning', 'cubes[2].measures[0].sql'],
          ['warning', 'cubes[3].sql_table'],
        ],
      );
      assert.equal(warnings[1].line, text.split('\n').findIndex((l) => l.includes('sql_table: refunds')) + 1);
      const svc = new InsightsService(wh, new ManualClock(new Date('2026-04-01T12:00:00Z')), model);
      await assert.rejects(
        svc.execute('t1', 'refunds', {}),
        (e: { code?: string; message: string }) => e.code === 'DATA_NOT_LOADED' && /"refunds"/.test(e.message),
      );
    });
  });

test('every problem of a model at once, each with file, line and path', () => {
  const bad = `
cubes:
  - name: orders
    sql_table: orders
    tenant_column: tenant_id
    joins:
      - { name: customers, relationship: many_to_one, sql: "{CUBE}.customer_id = {customers}.id" }
    measures:
      - { name: revenue, type: sum }
      - { name: aov, type: number, sql: "{revenue} / {orders}" }
      - { name: sneaky, type: sum, sql: "{web}.x" }
    dimensions:
      - { name: at, type: time, sql: ordered_at }
  - name: firsts
    sql: SELECT customer_id FROM orders
    tenant_column: tenant_id
insights:
  - code: revenue
    kind: breakdown
    measures: [orders.revenue, orders.profit]
    time_dimension: orders.when
    granularities: [week]
`;
  assert.throws(
    () => modelFromText(bad, 'shop.yml'),
    (e: unknown) => {
      assert.ok(e instanceof ModelError);
      const got = e.issues.map((i) => `${i.file}:${i.line} ${i.path}`);
      for (const want of [
        'shop.yml:7 cubes[0].joins[0].name',
        'shop.yml:9 cubes[0].measures[0].sql',
        'shop.yml:10 cubes[0].measures[1].sql',
        'shop.yml:11 cubes[0].measures[2].sql',
        'shop.yml:15 cubes[1].sql',
        'shop.yml:16 cubes[1].tenant_column',
        'shop.yml:20 insights[0].measures[1]',
      ])
        assert.ok(got.includes(want), `${want} in\n${got.join('\n')}`);
      assert.match(e.message, /cubes\[1\]\.sql: reads orders directly/);
      return true;
    },
  );
  // Shape errors come with the line of the offending key; entries of the right shape are still
  // cross-checked in the same run.
  const shape =
    'cubes:\n  - name: Orders\n    tenant_column: t\n    colour: red\n  - { name: fine, sql_table: fine, tenant_column: t, joins: [{ name: gone, relationship: many_to_one, sql: x }] }\n';
  assert.throws(
    () => modelFromText(shape),
    (e: unknown) => {
      const got = (e as ModelError).issues.map((i) => `${i.line} ${i.path}: ${i.message}`);
      assert.ok(got.includes('5 cubes[1].joins[0].name: "gone" is not a cube'), got.join('\n'));
      assert.ok(
        got.includes('2 cubes[0].name: "Orders" is not a name of lower-case letters, digits and _ (such as orders)'),
        got.join('\n'),
      );
      assert.ok(
        got.some((g) => g.startsWith('4 cubes[0].colour: is not a key of the model format here (the keys are: name, sql_table,')),
        got.join('\n'),
      );
      return true;
    },
  );
});

test('a directory of model files is one model; the shipped JSON Schema is the one validated with', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'model-dir-'));
  try {
    const [cubes, insightsPart] = SHOP_MODEL.split(/^insights:/m);
    fs.writeFileSync(path.join(dir, 'a-cubes.yml'), cubes);
    fs.writeFileSync(path.join(dir, 'b-insights.yaml'), `insights:${insightsPart}`);
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a model');
    const { model, issues } = checkModel(dir);
    assert.deepEqual(issues, []);
    assert.deepEqual(
      model!.insights.map((i) => i.code),
      ['by_region', 'units_per_ticket', 'amount_kpi', 'per_ticket_kpi', 'best_regions'],
    );
    fs.writeFileSync(
      path.join(dir, 'c-more.yml'),
      'insights:\n  - { code: by_region, kind: kpi, measures: [sales.amount], time_dimension: sales.sold_at }\n',
    );
    const dup = checkModel(dir).issues;
    assert.equal(dup.length, 1);
    assert.equal(dup[0].file, path.join(dir, 'c-more.yml'));
    assert.equal(dup[0].path, 'insights[0].code');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const shipped = JSON.parse(fs.readFileSync(new URL('../../models/model.schema.json', import.meta.url), 'utf8'));
  assert.deepEqual(shipped, modelJsonSchema(), 'models/model.schema.json is out of date: npm run model:schema');
});

test('no model reads across tenants: subqueries in members and direct table reads in derived cubes are refused', () => {
  const text = `
cubes:
  - name: orders
    sql_table: orders
    tenant_column: tenant_id
    measures:
      - { name: share, type: sum, sql: "{CUBE}.revenue / (SELECT sum(revenue) FROM orders)" }
      - { name: year_total, type: count, filters: [{ sql: "{CUBE}.id IN (SELECT id FROM {orders})" }] }
      - { name: years, type: count_distinct, sql: "extract(year FROM {CUBE}.ordered_at)" }
  - name: pairs
    sql: "SELECT o.tenant_id FROM {orders} o, customers c"
    tenant_column: tenant_id
  - name: joined
    sql: "SELECT o.tenant_id FROM {orders} o JOIN customers c ON c.id = o.customer_id"
    tenant_column: tenant_id
`;
  assert.throws(
    () => modelFromText(text),
    (e: unknown) => {
      const got = (e as ModelError).issues.map((i) => `${i.path}: ${i.message.split(',')[0]}`);
      assert.deepEqual(got.sort(), [
        'cubes[0].measures[0].sql: reads orders in a subquery',
        'cubes[0].measures[1].filters[0].sql: reads {orders} in a subquery',
        "cubes[1].sql: reads customers directly; read cubes as {cube} so only the caller's tenant's rows are read",
        "cubes[2].sql: reads customers directly; read cubes as {cube} so only the caller's tenant's rows are read",
      ]);
      return true;
    },
  );
});
