// compare=previous_period|previous_year and several values per filter, against hand sums over the
// raw rows, on DuckDB and on PostgreSQL (PGlite, or DATABASE_URL's server): 53-week ISO years,
// a leap day, a previous window with no data, a series per filter value, a breakdown kept to the
// values asked for. The periods compared with are written out by hand from the calendar.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.ts';
import { InsightsService } from '../../../src/modules/insights/insights.service.ts';
import type { Warehouse } from '../../../src/warehouse/warehouse.ts';
import { clickhouseSkip, testClickHouseWarehouse } from '../../helpers/clickhouse.ts';
import { postgresWarehouseUrl, testPostgresWarehouse, testWarehouse } from '../../helpers/warehouse.ts';

// Two years of data ending 2028-03-10: from 2026-03-12, across the 53-week ISO year 2026 and 2028's leap day.
const clock = new ManualClock(new Date('2028-03-10T12:00:00Z'));

interface Order {
  day: string;
  revenue: number;
  country: string;
}

const cents = (n: number) => Math.round(n * 100) / 100;

const ENGINE_NAMES = { duckdb: 'DuckDB', postgres: postgresWarehouseUrl ? 'PostgreSQL' : 'PostgreSQL (PGlite)', clickhouse: 'ClickHouse' };

for (const engine of ['duckdb', 'postgres', 'clickhouse'] as const) {
  describe(`compare on ${ENGINE_NAMES[engine]}`, { skip: engine === 'clickhouse' && clickhouseSkip }, () => {
    let warehouse: Warehouse;
    let insights: InsightsService;
    let orders: Order[];
    const sum = (from: string, to: string, countries?: string[]) =>
      cents(
        orders
          .filter((o) => o.day >= from && o.day <= to && (!countries || countries.includes(o.country)))
          .reduce((s, o) => s + o.revenue, 0),
      );

    before(async () => {
      warehouse =
        engine === 'duckdb'
          ? await testWarehouse(clock.now(), 5000, ['demo'])
          : engine === 'postgres'
            ? await testPostgresWarehouse(clock.now(), 5000, ['demo'])
            : await testClickHouseWarehouse(clock.now(), 5000, ['demo']);
      insights = new InsightsService(warehouse, clock);
      const rows = await warehouse.query(
        `SELECT CAST(ordered_at AS DATE) AS day, revenue, country FROM orders WHERE tenant_id = 'demo' AND status = 'completed'`,
      );
      orders = rows.map((r) => ({ day: String(r.day).slice(0, 10), revenue: Number(r.revenue), country: String(r.country) }));
      assert.ok(orders.length > 1000);
    });
    after(() => warehouse?.close());

    /** Checks each row's figure, previous figure and change against the hand sums of its period and its counterpart. */
    function check(rows: Record<string, unknown>[], expected: [string, string, string | null, string | null][], countries?: string[]) {
      assert.equal(rows.length, expected.length);
      expected.forEach(([from, to, prevFrom, prevTo], i) => {
        const r = rows[i];
        assert.equal(r.period, from);
        const now = sum(from, to, countries);
        const before = prevFrom === null ? null : sum(prevFrom, prevTo!, countries);
        assert.equal(r.revenue, now, `${from} revenue`);
        assert.equal(r.revenue_previous, before, `${from} previous`);
        assert.equal(
          r.revenue_change_pct,
          before === null || before === 0 ? null : cents(((now - before) / Math.abs(before)) * 100),
          `${from} change`,
        );
      });
    }

    test('weeks a year back line up by ISO week number across a 53-week year', async () => {
      // 2027-W51, W52 with 2026-W51, W52; 2028-W01, W02 with 2027-W01, W02 (2026 had 53 weeks, so W01 of 2027 is 53 weeks after W01 of 2026).
      const r = await insights.execute('demo', 'revenue', {
        granularity: 'week',
        date_from: '2027-12-20',
        date_to: '2028-01-16',
        compare: 'previous_year',
      });
      assert.equal(r.compare, 'previous_year');
      assert.deepEqual(r.previous_period, { from: '2026-12-14', to: '2027-01-17' });
      assert.deepEqual(
        r.columns.map((c) => c.name),
        ['period', 'revenue', 'revenue_previous', 'revenue_change_pct'],
      );
      check(r.rows, [
        ['2027-12-20', '2027-12-26', '2026-12-14', '2026-12-20'],
        ['2027-12-27', '2028-01-02', '2026-12-21', '2026-12-27'],
        ['2028-01-03', '2028-01-09', '2027-01-04', '2027-01-10'],
        ['2028-01-10', '2028-01-16', '2027-01-11', '2027-01-17'],
      ]);
      assert.ok(
        r.rows.every((x) => (x.revenue_previous as number) > 0),
        'every week had data a year before',
      );
    });

    test('week 53 has no counterpart; a previous window before the data reads 0 with no change', async () => {
      const r = await insights.execute('demo', 'revenue', {
        granularity: 'week',
        date_from: '2026-12-21',
        date_to: '2027-01-10',
        compare: 'previous_year',
      });
      check(r.rows, [
        ['2026-12-21', '2026-12-27', '2025-12-22', '2025-12-28'],
        ['2026-12-28', '2027-01-03', null, null],
        ['2027-01-04', '2027-01-10', '2025-12-29', '2026-01-04'],
      ]);
      assert.equal(r.rows[0].revenue_previous, 0);
      assert.equal(r.rows[1].revenue_previous, null);
    });

    test('days a year back: 29 February has none, the days around it have theirs', async () => {
      const r = await insights.execute('demo', 'revenue', {
        granularity: 'day',
        date_from: '2028-02-27',
        date_to: '2028-03-01',
        compare: 'previous_year',
      });
      check(r.rows, [
        ['2028-02-27', '2028-02-27', '2027-02-27', '2027-02-27'],
        ['2028-02-28', '2028-02-28', '2027-02-28', '2027-02-28'],
        ['2028-02-29', '2028-02-29', null, null],
        ['2028-03-01', '2028-03-01', '2027-03-01', '2027-03-01'],
      ]);
    });

    test('previous period: months, quarters, this month so far', async () => {
      const m = await insights.execute('demo', 'revenue', {
        granularity: 'month',
        date_from: '2027-10-01',
        date_to: '2028-01-31',
        compare: 'previous_period',
      });
      assert.deepEqual(m.previous_period, { from: '2027-06-01', to: '2027-09-30' });
      check(m.rows, [
        ['2027-10-01', '2027-10-31', '2027-06-01', '2027-06-30'],
        ['2027-11-01', '2027-11-30', '2027-07-01', '2027-07-31'],
        ['2027-12-01', '2027-12-31', '2027-08-01', '2027-08-31'],
        ['2028-01-01', '2028-01-31', '2027-09-01', '2027-09-30'],
      ]);
      const q = await insights.execute('demo', 'revenue', {
        granularity: 'quarter',
        date_from: '2027-01-01',
        date_to: '2027-06-30',
        compare: 'previous_year',
      });
      check(q.rows, [
        ['2027-01-01', '2027-03-31', '2026-01-01', '2026-03-31'],
        ['2027-04-01', '2027-06-30', '2026-04-01', '2026-06-30'],
      ]);
      // The default window of a month series ends with the month so far: 1–10 March 2028 with 1–10 March 2027.
      const d = await insights.execute('demo', 'revenue', { granularity: 'month', compare: 'previous_year' });
      const last = d.rows.at(-1)!;
      assert.equal(last.period, '2028-03-01');
      assert.equal(last.revenue_previous, sum('2027-03-01', '2027-03-10'));
    });

    test('several countries: a series per country, each compared with itself', async () => {
      const r = await insights.execute('demo', 'revenue', {
        granularity: 'month',
        date_from: '2027-11-01',
        date_to: '2028-01-31',
        country: ['FR', 'DE'],
        compare: 'previous_year',
      });
      assert.deepEqual(r.filters, { country: ['FR', 'DE'] });
      assert.equal(r.chart_hint.series, 'country');
      assert.deepEqual(
        r.columns.map((c) => c.name),
        ['period', 'country', 'revenue', 'revenue_previous', 'revenue_change_pct'],
      );
      const months: [string, string, string, string][] = [
        ['2027-11-01', '2027-11-30', '2026-11-01', '2026-11-30'],
        ['2027-12-01', '2027-12-31', '2026-12-01', '2026-12-31'],
        ['2028-01-01', '2028-01-31', '2027-01-01', '2027-01-31'],
      ];
      assert.deepEqual(
        r.rows.map((x) => `${x.period} ${x.country}`),
        months.flatMap(([p]) => [`${p} FR`, `${p} DE`]),
      );
      for (const c of ['FR', 'DE'])
        check(
          r.rows.filter((x) => x.country === c),
          months,
          [c],
        );
      // Without compare the series is the same figures.
      const plain = await insights.execute('demo', 'revenue', {
        granularity: 'month',
        date_from: '2027-11-01',
        date_to: '2028-01-31',
        country: ['FR', 'DE'],
      });
      assert.deepEqual(
        plain.rows.map((x) => x.revenue),
        r.rows.map((x) => x.revenue),
      );
    });

    test('a breakdown keeps the values asked for, each with its previous figure', async () => {
      const r = await insights.execute('demo', 'revenue_by_country', {
        date_from: '2028-02-01',
        date_to: '2028-02-29',
        country: ['DE', 'FR', 'IT'],
        compare: 'previous_year',
      });
      assert.deepEqual(r.previous_period, { from: '2027-02-01', to: '2027-02-28' });
      assert.deepEqual(r.rows.map((x) => x.country).sort(), ['DE', 'FR', 'IT']);
      for (const x of r.rows) {
        const c = String(x.country);
        assert.equal(x.revenue, sum('2028-02-01', '2028-02-29', [c]), c);
        assert.equal(x.revenue_previous, sum('2027-02-01', '2027-02-28', [c]), c);
      }
      // Ordered by this window's figure, as without compare.
      const values = r.rows.map((x) => x.revenue as number);
      assert.deepEqual(
        values,
        [...values].sort((a, b) => b - a),
      );
    });
  });
}
