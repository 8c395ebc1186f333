// A tiny hand-made warehouse whose every figure is worked out by hand: bucket edges (Sunday 23:59:59
// vs Monday 00:00, the last millisecond of a quarter), statuses, another tenant's rows, first orders.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.ts';
import { InsightsService, type ExecuteParams } from '../../../src/modules/insights/insights.service.ts';
import { DuckDbWarehouse } from '../../../src/warehouse/duckdb/duckdb.ts';
import { warehouseDdl, type Warehouse } from '../../../src/warehouse/warehouse.ts';
import { clickhouseSkip, emptyClickHouseWarehouse } from '../../helpers/clickhouse.ts';
import { emptyPostgresWarehouse } from '../../helpers/warehouse.ts';

for (const engine of ['duckdb', 'postgres', 'clickhouse'] as const)
  describe(engine, { skip: engine === 'clickhouse' && clickhouseSkip }, () => {
    let wh: Warehouse;
    let insights: InsightsService;

    before(async () => {
      if (engine === 'duckdb') wh = await DuckDbWarehouse.open(':memory:');
      else if (engine === 'clickhouse') wh = await emptyClickHouseWarehouse();
      else wh = await emptyPostgresWarehouse();
      // (ClickHouse creates the demo tables when it opens.)
      if (engine !== 'clickhouse') await wh.exec(warehouseDdl(engine));
      await wh.exec(`
      INSERT INTO orders VALUES
        (1, 't1', 1, TIMESTAMP '2026-03-01 23:59:59', 'DE', 'web', 'completed', 2, 100.00, 0),
        (2, 't1', 1, TIMESTAMP '2026-03-02 00:00:00', 'DE', 'web', 'completed', 1, 50.50, 0),
        (3, 't1', 2, TIMESTAMP '2026-03-02 10:00:00', 'FR', 'mobile', 'refunded', 1, 30.00, 0),
        (4, 't1', 2, TIMESTAMP '2026-03-31 23:59:59.999', 'FR', 'mobile', 'completed', 1, 20.25, 0),
        (5, 't1', 3, TIMESTAMP '2026-04-01 00:00:00', 'DE', 'retail', 'completed', 1, 10.00, 0),
        (6, 't1', 4, TIMESTAMP '2026-03-03 12:00:00', 'DE', 'web', 'cancelled', 1, 999.99, 0),
        (7, 't2', 9, TIMESTAMP '2026-03-02 08:00:00', 'DE', 'web', 'completed', 1, 5000.00, 0),
        (8, 't1', 3, TIMESTAMP '2025-12-31 23:00:00', 'DE', 'web', 'completed', 1, 1.00, 0);
      INSERT INTO order_items VALUES
        (1, 't1', 1, 2, 50.00), (2, 't1', 2, 1, 50.50), (3, 't1', 1, 1, 30.00), (4, 't1', 3, 1, 20.25),
        (5, 't1', 2, 1, 10.00), (8, 't1', 3, 1, 1.00), (7, 't2', 1, 1, 5000.00);
      INSERT INTO products VALUES (1, 't1', 'Mug', 'Home', 'Acorn'), (2, 't1', 'Pan', 'Home', 'Acorn'),
        (3, 't1', 'Atlas', 'Books', 'Dune'), (1, 't2', 'Other', 'Home', 'X');
      INSERT INTO web_sessions VALUES ('t1', DATE '2026-03-02', 'DE', 'web', 100), ('t1', DATE '2026-03-02', 'FR', 'mobile', 50),
        ('t1', DATE '2026-03-01', 'DE', 'web', 10), ('t2', DATE '2026-03-02', 'DE', 'web', 1000);
      INSERT INTO warehouse_meta VALUES (1, 'fixture', TIMESTAMP '2026-04-02 00:00:00', 8, 't1,t2', DATE '2026-04-01');
    `);
      insights = new InsightsService(wh, new ManualClock(new Date('2026-04-01T12:00:00Z')));
    });
    after(async () => {
      await wh?.close();
    });

    const rows = async (code: string, p: ExecuteParams, tenant = 't1') => (await insights.execute(tenant, code, p)).rows;

    test('revenue: ISO weeks from Monday, zero weeks, the last millisecond of a day, quarters and years', async () => {
      assert.deepEqual(await rows('revenue', { granularity: 'week', date_from: '2026-02-25', date_to: '2026-04-01' }), [
        { period: '2026-02-23', revenue: 100 },
        { period: '2026-03-02', revenue: 50.5 },
        { period: '2026-03-09', revenue: 0 },
        { period: '2026-03-16', revenue: 0 },
        { period: '2026-03-23', revenue: 0 },
        { period: '2026-03-30', revenue: 30.25 },
      ]);
      assert.deepEqual(await rows('revenue', { granularity: 'quarter', date_from: '2025-10-01', date_to: '2026-06-30' }), [
        { period: '2025-10-01', revenue: 1 },
        { period: '2026-01-01', revenue: 170.75 },
        { period: '2026-04-01', revenue: 10 },
      ]);
      assert.deepEqual(await rows('revenue', { granularity: 'year', date_from: '2025-01-01', date_to: '2026-12-31' }), [
        { period: '2025-01-01', revenue: 1 },
        { period: '2026-01-01', revenue: 180.75 },
      ]);
      assert.deepEqual(await rows('revenue', { granularity: 'day', date_from: '2026-03-31', date_to: '2026-03-31' }), [
        { period: '2026-03-31', revenue: 20.25 },
      ]);
      assert.deepEqual(await rows('revenue', { granularity: 'month', date_from: '2026-03-01', date_to: '2026-03-31' }, 't2'), [
        { period: '2026-03-01', revenue: 5000 },
      ]);
    });

    test('orders, AOV, refund rate, new customers and conversion by hand', async () => {
      const march = { granularity: 'month', date_from: '2026-03-01', date_to: '2026-03-31' };
      assert.deepEqual(await rows('orders_count', march), [{ period: '2026-03-01', orders: 3 }]);
      assert.deepEqual(await rows('average_order_value', march), [
        { period: '2026-03-01', average_order_value: 56.92, revenue: 170.75, orders: 3 },
      ]);
      assert.deepEqual(await rows('refund_rate', march), [
        { period: '2026-03-01', refund_rate: 25, refunded_orders: 1, settled_orders: 4 },
      ]);
      assert.deepEqual(await rows('new_customers', { granularity: 'month', date_from: '2025-12-01', date_to: '2026-04-30' }), [
        { period: '2025-12-01', new_customers: 1 },
        { period: '2026-01-01', new_customers: 0 },
        { period: '2026-02-01', new_customers: 0 },
        { period: '2026-03-01', new_customers: 2 },
        { period: '2026-04-01', new_customers: 0 },
      ]);
      // Customer 2's refunded order does not make them new; their completed one, on mobile, does.
      assert.deepEqual(await rows('new_customers', { ...march, channel: 'mobile' }), [{ period: '2026-03-01', new_customers: 1 }]);
      assert.deepEqual(
        await rows('conversion_rate', { granularity: 'week', country: 'DE', date_from: '2026-02-23', date_to: '2026-03-08' }),
        [
          { period: '2026-02-23', conversion_rate: 10, orders: 1, sessions: 10 },
          { period: '2026-03-02', conversion_rate: 1, orders: 1, sessions: 100 },
        ],
      );
    });

    test('breakdowns and KPIs by hand', async () => {
      const march = { date_from: '2026-03-01', date_to: '2026-03-31' };
      assert.deepEqual(await rows('revenue_by_country', march), [
        { country: 'DE', revenue: 150.5, orders: 2 },
        { country: 'FR', revenue: 20.25, orders: 1 },
      ]);
      assert.deepEqual(await rows('revenue_by_channel', march), [
        { channel: 'web', revenue: 150.5, orders: 2 },
        { channel: 'mobile', revenue: 20.25, orders: 1 },
      ]);
      assert.deepEqual(await rows('top_products', march), [
        { product_id: 1, product_name: 'Mug', category: 'Home', brand: 'Acorn', revenue: 100, units: 2 },
        { product_id: 2, product_name: 'Pan', category: 'Home', brand: 'Acorn', revenue: 50.5, units: 1 },
        { product_id: 3, product_name: 'Atlas', category: 'Books', brand: 'Dune', revenue: 20.25, units: 1 },
      ]);
      assert.deepEqual(await rows('top_products', { ...march, category: 'Books', limit: 1 }), [
        { product_id: 3, product_name: 'Atlas', category: 'Books', brand: 'Dune', revenue: 20.25, units: 1 },
      ]);
      assert.deepEqual(await rows('top_categories', march), [
        { category: 'Home', revenue: 150.5, units: 3 },
        { category: 'Books', revenue: 20.25, units: 1 },
      ]);
      assert.deepEqual(await rows('revenue_kpi', { date_from: '2026-03-02', date_to: '2026-03-31' }), [
        {
          period_from: '2026-03-02',
          period_to: '2026-03-31',
          value: 70.75,
          previous_period_from: '2026-01-31',
          previous_period_to: '2026-03-01',
          previous_value: 100,
          change: -29.25,
          change_pct: -29.25,
        },
      ]);
      assert.deepEqual(await rows('orders_kpi', { date_from: '2026-03-02', date_to: '2026-03-31' }), [
        {
          period_from: '2026-03-02',
          period_to: '2026-03-31',
          value: 2,
          previous_period_from: '2026-01-31',
          previous_period_to: '2026-03-01',
          previous_value: 1,
          change: 1,
          change_pct: 100,
        },
      ]);
      // Default window on 1 April: April to date against 1 March.
      assert.deepEqual(await rows('orders_kpi', {}), [
        {
          period_from: '2026-04-01',
          period_to: '2026-04-01',
          value: 1,
          previous_period_from: '2026-03-01',
          previous_period_to: '2026-03-01',
          previous_value: 1,
          change: 0,
          change_pct: 0,
        },
      ]);
    });
  });
