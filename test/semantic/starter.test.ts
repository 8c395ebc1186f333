// The starter model of `insights model init` on both engines: a table whose columns keep the
// headers people export (spaces, `$`, hyphens, mixed case) is profiled, the written YAML reads back
// as a valid model, and its insights answer with the sums of the rows — on PostgreSQL too, which
// folds unquoted names to lower case, so every such column must be quoted as loaded.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import pg from 'pg';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/lib/clock.ts';
import { InsightsService } from '../../src/modules/insights/insights.service.ts';
import { modelFromText } from '../../src/semantic/model.ts';
import { profileTable, starterModel } from '../../src/semantic/starter.ts';
import { DuckDbWarehouse } from '../../src/warehouse/duckdb/duckdb.ts';
import { PostgresWarehouse } from '../../src/warehouse/postgres/postgres.ts';
import type { Warehouse } from '../../src/warehouse/warehouse.ts';

import { PGliteWarehouse, postgresWarehouseUrl } from '../helpers/warehouse.ts';

// The PostgreSQL dialect runs on the configured server (DATABASE_URL or WAREHOUSE_TEST_URL), else
// on PGlite: a newcomer's `npm test` needs no server, and CI still runs it against a real one.
const PG_URL = postgresWarehouseUrl;

const ROWS = Array.from({ length: 30 }, (_, i) => ({
  day: `2025-0${(i % 3) + 1}-${String((i % 28) + 1).padStart(2, '0')}`,
  line: ['Books', 'Games'][i % 2],
  region: ['North', 'South', 'East'][i % 3],
  cost: 5 + i,
  units: (i % 4) + 1,
  customer: `C${i % 7}`,
  paid: i % 5 !== 0,
}));

for (const engine of ['duckdb', 'postgres'] as const)
  describe(`the starter model on ${engine}`, () => {
    let wh: Warehouse;
    let drop = async () => {};
    before(async () => {
      if (engine === 'duckdb') wh = await DuckDbWarehouse.open(':memory:');
      else if (!PG_URL) wh = await PGliteWarehouse.open();
      else {
        const schema = `s_${crypto.randomBytes(5).toString('hex')}`;
        const admin = new pg.Client({ connectionString: PG_URL });
        await admin.connect();
        await admin.query(`CREATE SCHEMA ${schema}`);
        wh = new PostgresWarehouse(PG_URL, { schema, max: 2 });
        drop = async () => {
          await admin.query(`DROP SCHEMA ${schema} CASCADE`);
          await admin.end();
        };
      }
      const text = engine === 'duckdb' ? 'VARCHAR' : 'text';
      await wh.exec(
        `CREATE TABLE shop_sales ("Order Date" DATE, "product-line" ${text}, "Region" ${text}, "Cost Total $" DOUBLE PRECISION, "Units" BIGINT, "Customer ID" ${text}, "Paid" BOOLEAN, tenant_id ${text})`,
      );
      for (const r of ROWS) {
        await wh.query('INSERT INTO shop_sales VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
          r.day,
          r.line,
          r.region,
          r.cost,
          r.units,
          r.customer,
          r.paid,
          't1',
        ]);
      }
      await wh.query('INSERT INTO shop_sales VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
        '2025-01-05',
        'Books',
        'North',
        1000,
        9,
        'X',
        true,
        'other',
      ]);
    });
    after(async () => {
      await wh?.close();
      await drop();
    });

    test('profiled, written, read back, and answering with the sums of the rows', async () => {
      const table = (await wh.tables()).find((t) => t.name === 'shop_sales');
      assert.ok(table);
      const profile = await profileTable(wh, { name: 'shop_sales', columns: table.columns, tenantColumn: 'tenant_id' });
      assert.equal(profile.rows, ROWS.length + 1);
      assert.deepEqual(
        profile.columns.find((c) => c.name === 'Order Date'),
        {
          name: 'Order Date',
          type: 'DATE',
          distinct: new Set([...ROWS.map((r) => r.day), '2025-01-05']).size,
          nonNull: 31,
          min: '2025-01-01',
          max: [...ROWS.map((r) => r.day)].sort().at(-1),
        },
      );
      const { yaml } = starterModel([profile], '2025-04-01');
      const model = modelFromText(yaml, 'shop.yml');
      const svc = new InsightsService(wh, new ManualClock(new Date('2025-04-01T12:00:00Z')), model);
      const window = { date_from: '2025-01-01', date_to: '2025-03-31' };
      const sum = (rows: typeof ROWS, f: (r: (typeof ROWS)[number]) => number) => rows.reduce((s, r) => s + f(r), 0);

      const byRegion = await svc.execute('t1', 'cost_total_by_region', window);
      for (const row of byRegion.rows)
        assert.equal(
          row.cost_total,
          sum(
            ROWS.filter((r) => r.region === row.region),
            (r) => r.cost,
          ),
          String(row.region),
        );
      const byLine = await svc.execute('t1', 'units_by_product_line', { ...window, region: 'South' });
      for (const row of byLine.rows)
        assert.equal(
          row.units,
          sum(
            ROWS.filter((r) => r.line === row.product_line && r.region === 'South'),
            (r) => r.units,
          ),
        );
      const paid = await svc.execute('t1', 'count_by_paid', window);
      assert.deepEqual(
        new Map(paid.rows.map((r) => [r.paid, r.count])),
        new Map([
          [true, ROWS.filter((r) => r.paid).length],
          [false, ROWS.filter((r) => !r.paid).length],
        ]),
      );
      const customers = await svc.execute('t1', 'customers_kpi', window);
      assert.equal(customers.rows[0].value, new Set(ROWS.map((r) => r.customer)).size);
      const top = await svc.execute('t1', 'top_customer_id_by_cost_total', { ...window, limit: 2 });
      assert.equal(top.rows.length, 2);
      const series = await svc.execute('t1', 'average_cost_total', { ...window, granularity: 'month' });
      assert.equal(series.rows.length, 3);
      for (const insight of model.insights) await svc.execute('t1', insight.code, window);
    });
  });
