// Comparisons and multi-value filters without a database: which periods line up (ISO weeks of
// 53-week years, leap days, quarters, partial periods) and the exact SQL per dialect.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { outputColumns } from '../../src/modules/insights/insights.columns.ts';
import { compileInsight as compile } from '../../src/semantic/query/insight-query.ts';
import { DIALECTS } from '../../src/semantic/dialects/index.ts';
import { demoModel } from '../../src/semantic/model.ts';
import { comparison, isoWeek, isoWeeksIn, yearAgo, yearAgoBucket } from '../../src/semantic/periods.ts';
import { resolveParams } from '../../src/modules/insights/insights.params.ts';

const def = (code: string) => demoModel().insights.find((d) => d.code === code)!;

test('ISO weeks: 53-week years, and week n lines up with week n of the year before', () => {
  assert.deepEqual(isoWeek('2021-01-03'), { year: 2020, week: 53 });
  assert.deepEqual(isoWeek('2026-12-31'), { year: 2026, week: 53 });
  assert.deepEqual(isoWeek('2027-01-04'), { year: 2027, week: 1 });
  assert.deepEqual([2015, 2019, 2020, 2021, 2025, 2026].map(isoWeeksIn), [53, 52, 53, 52, 52, 53]);
  // Week 12 of 2026 (from 16 March) with week 12 of 2025 (from 17 March): 52 weeks back.
  assert.equal(yearAgoBucket('2026-03-16', 'week'), '2025-03-17');
  // After a 53-week year, week n is 53 weeks back: week 1 of 2021 with week 1 of 2020.
  assert.equal(yearAgoBucket('2021-01-04', 'week'), '2019-12-30');
  assert.equal(yearAgoBucket('2021-03-15', 'week'), '2020-03-09');
  // Week 53 has no counterpart in a 52-week year.
  assert.equal(yearAgoBucket('2026-12-28', 'week'), null);
  assert.equal(yearAgoBucket('2020-12-28', 'week'), null);
});

test('leap days, months and quarters a year back', () => {
  assert.equal(yearAgoBucket('2024-02-29', 'day'), null);
  assert.equal(yearAgoBucket('2025-03-01', 'day'), '2024-03-01');
  assert.equal(yearAgoBucket('2024-02-28', 'day'), '2023-02-28');
  assert.equal(yearAgoBucket('2026-01-01', 'quarter'), '2025-01-01');
  assert.equal(yearAgoBucket('2024-02-01', 'month'), '2023-02-01');
  assert.equal(yearAgo('2024-02-29'), '2023-02-28');
  // The last day of a month stays the last day: February 2025 compares with all of February 2024.
  assert.equal(yearAgo('2025-02-28'), '2024-02-29');
  assert.equal(yearAgo('2026-11-23'), '2025-11-23');
});

test('what a window is compared with', () => {
  // Q1 with Q1, period by period.
  const q = comparison('previous_year', { from: '2026-01-01', to: '2026-06-30' }, 'quarter', true);
  assert.deepEqual(q.window, { from: '2025-01-01', to: '2025-06-30' });
  assert.deepEqual(q.periods, [
    { period: '2026-01-01', previous: '2025-01-01' },
    { period: '2026-04-01', previous: '2025-04-01' },
  ]);
  // Previous period: as many periods back as the window spans; partial ends keep their stretch.
  const m = comparison('previous_period', { from: '2026-01-15', to: '2026-03-20' }, 'month', true);
  assert.deepEqual(m.window, { from: '2025-10-15', to: '2025-12-20' });
  assert.deepEqual(
    m.periods?.map((p) => p.previous),
    ['2025-10-01', '2025-11-01', '2025-12-01'],
  );
  // This week so far (Monday to Wednesday) with the same days of the week before.
  assert.deepEqual(comparison('previous_period', { from: '2026-11-23', to: '2026-11-25' }, 'week', true).window, {
    from: '2026-11-16',
    to: '2026-11-18',
  });
  // Weeks across a 53-week year end: week 53 has no counterpart, week 1 has week 1.
  const w = comparison('previous_year', { from: '2026-12-21', to: '2027-01-10' }, 'week', true);
  assert.deepEqual(w.periods, [
    { period: '2026-12-21', previous: '2025-12-22' },
    { period: '2026-12-28', previous: null },
    { period: '2027-01-04', previous: '2025-12-29' },
  ]);
  // Days across a leap day.
  const d = comparison('previous_year', { from: '2028-02-28', to: '2028-03-01' }, 'day', true);
  assert.deepEqual(
    d.periods?.map((p) => p.previous),
    ['2027-02-28', null, '2027-03-01'],
  );
  // Without a time axis: whole months, month to date, equal length, a year back.
  assert.deepEqual(comparison('previous_period', { from: '2026-03-01', to: '2026-03-31' }, null, false).window, {
    from: '2026-02-01',
    to: '2026-02-28',
  });
  assert.deepEqual(comparison('previous_period', { from: '2026-01-01', to: '2026-03-31' }, null, false).window, {
    from: '2025-10-01',
    to: '2025-12-31',
  });
  assert.deepEqual(comparison('previous_period', { from: '2026-11-01', to: '2026-11-24' }, null, false).window, {
    from: '2026-10-01',
    to: '2026-10-24',
  });
  assert.deepEqual(comparison('previous_period', { from: '2026-10-26', to: '2026-11-24' }, null, false).window, {
    from: '2026-09-26',
    to: '2026-10-25',
  });
  assert.deepEqual(comparison('previous_year', { from: '2025-02-01', to: '2025-02-28' }, null, false).window, {
    from: '2024-02-01',
    to: '2024-02-29',
  });
});

test('compare on a time series: exact SQL on DuckDB, both windows read at once', () => {
  const q = resolveParams(
    def('revenue'),
    'demo',
    { granularity: 'quarter', date_from: '2026-01-01', date_to: '2026-06-30', compare: 'previous_year', country: 'DE' },
    '2026-11-23',
  );
  const c = compile(def('revenue'), DIALECTS.duckdb, q);
  // Both windows' periods in one read, marked by side; rows.ts pairs each period with its counterpart.
  const side = (n: number, from: string, to: string) =>
    `SELECT *, ${n} AS "__side" FROM (SELECT date_trunc('quarter', "orders"."ordered_at") AS "__period", sum("orders"."revenue") AS "orders:revenue" ` +
    `FROM "orders" WHERE "orders"."tenant_id" = $1 AND "orders".status = 'completed' AND "orders"."country" = $2 ` +
    `AND "orders"."ordered_at" >= CAST(${from} AS TIMESTAMP) AND "orders"."ordered_at" < CAST(${to} AS TIMESTAMP) GROUP BY 1) AS "s${n}"`;
  assert.equal(c.sql, `${side(0, '$3', '$4')} UNION ALL ${side(1, '$5', '$6')}`);
  // Dates and timestamps are bound apart (PostgreSQL types each parameter once).
  assert.deepEqual(c.params, ['demo', 'DE', '2026-01-01', '2026-07-01', '2025-01-01', '2025-07-01']);
  assert.deepEqual(
    outputColumns(def('revenue'), q).map((x) => x.name),
    ['period', 'revenue', 'revenue_previous', 'revenue_change_pct'],
  );
});

test('several values of a filter: IN on every fact, and a time series split by that dimension (PostgreSQL)', () => {
  const q = resolveParams(
    def('revenue'),
    'acme',
    { granularity: 'month', date_from: '2026-01-01', date_to: '2026-03-31', country: ['es', 'IT', 'ES'] },
    '2026-11-23',
  );
  assert.deepEqual(q.filters, { country: ['ES', 'IT'] });
  assert.equal(q.series, 'country');
  const c = compile(def('revenue'), DIALECTS.postgres, q);
  assert.equal(
    c.sql,
    `SELECT date_trunc('month', CAST("orders"."ordered_at" AS timestamp)) AS "__period", "orders"."country" AS ` +
      `"orders:country", sum("orders"."revenue") AS "orders:revenue" FROM "orders" WHERE "orders"."tenant_id" = $1 AND ` +
      `"orders".status = 'completed' AND "orders"."country" IN ($2, $3) AND "orders"."ordered_at" >= CAST($4 AS timestamp) ` +
      `AND "orders"."ordered_at" < CAST($5 AS timestamp) GROUP BY 1, 2`,
  );
  assert.deepEqual(c.params, ['acme', 'ES', 'IT', '2026-01-01', '2026-04-01']);
  assert.deepEqual(
    outputColumns(def('revenue'), q).map((x) => x.name),
    ['period', 'country', 'revenue'],
  );

  // Two facts (orders and sessions): both split by the channel.
  const conv = compile(
    def('conversion_rate'),
    DIALECTS.postgres,
    resolveParams(def('conversion_rate'), 'acme', { granularity: 'month', channel: ['web', 'mobile'] }, '2026-11-23'),
  );
  assert.match(conv.sql, /^SELECT "u"\."__period" AS "__period", "u"\."orders:channel" AS "orders:channel", max\("u"\."orders:orders"\)/);
  assert.equal(conv.sql.match(/"channel" IN \(\$2, \$3\)/g)?.length, 2);
  assert.match(conv.sql, /GROUP BY 1, 2$/);

  // A breakdown keeps only those values; two filters with several values cannot both split a series.
  const b = compile(
    def('revenue_by_country'),
    DIALECTS.duckdb,
    resolveParams(def('revenue_by_country'), 'demo', { country: ['DE', 'FR'] }, '2026-11-23'),
  );
  assert.match(b.sql, /"orders"\."country" IN \(\$2, \$3\)/);
  assert.throws(
    () => resolveParams(def('revenue'), 'demo', { country: ['DE', 'FR'], channel: ['web', 'mobile'] }, '2026-11-23'),
    (e: any) => e.options.errors[0].path === '/query/channel',
  );
  assert.throws(
    () => resolveParams(def('revenue'), 'demo', { compare: 'last_decade' }, '2026-11-23'),
    (e: any) => e.options.errors[0].path === '/query/compare',
  );
});

test('compare on a top list: its own rows and limit, the previous figures of the same keys', () => {
  const q = resolveParams(
    def('top_products'),
    'demo',
    { date_from: '2026-10-01', date_to: '2026-10-31', compare: 'previous_period', limit: 3 },
    '2026-11-23',
  );
  assert.deepEqual(q.compare?.window, { from: '2026-09-01', to: '2026-09-30' });
  const c = compile(def('top_products'), DIALECTS.postgres, q);
  // Members are named "cube:member" in the SQL (a quoted "cube.member" is a column on ClickHouse).
  const keys = def('top_products').plan.facts[0].keys.map((k) => k.name.replace('.', ':'));
  assert.ok(c.sql.startsWith(`SELECT ${keys.map((k) => `"c"."${k}" AS "${k}"`).join(', ')}, `), c.sql);
  assert.match(c.sql, / LIMIT \$\d+\) AS "c" LEFT JOIN \(SELECT .* GROUP BY [\d, ]+\) AS "p" ON /);
  for (const k of keys) assert.ok(c.sql.includes(`"c"."${k}" IS NOT DISTINCT FROM "p"."${k}"`), k);
  assert.ok(c.sql.endsWith(`ORDER BY "c"."order_items:revenue" DESC NULLS LAST, ${keys.map((k) => `"c"."${k}" ASC`).join(', ')}`), c.sql);
  assert.ok(c.params.includes(3) && c.params.includes('2026-09-01') && c.params.includes('2026-10-01'));
  // A KPI keeps its own previous window; previous_year moves it a year back.
  const k = resolveParams(def('revenue_kpi'), 'demo', { granularity: 'month', compare: 'previous_year' }, '2026-11-23');
  assert.deepEqual(k.previous, { from: '2025-11-01', to: '2025-11-23' });
});

test('a period so far is compared with the same days of the one before', () => {
  // Monday to Wednesday with last Monday to Wednesday; a quarter so far with the same days of the last quarter.
  assert.deepEqual(comparison('previous_period', { from: '2026-04-13', to: '2026-04-15' }, null, false).window, {
    from: '2026-04-06',
    to: '2026-04-08',
  });
  assert.deepEqual(comparison('previous_period', { from: '2026-04-01', to: '2026-05-10' }, null, false).window, {
    from: '2026-01-01',
    to: '2026-02-10',
  });
  assert.deepEqual(comparison('previous_period', { from: '2026-01-01', to: '2026-04-15' }, null, false).window, {
    from: '2025-01-01',
    to: '2025-04-15',
  });
  // A KPI over this week so far, compare=previous_period: last week's same days, not the weekend before.
  const k = resolveParams(
    def('revenue_kpi'),
    'demo',
    { date_from: '2026-04-13', date_to: '2026-04-15', compare: 'previous_period' },
    '2026-04-15',
  );
  assert.deepEqual(k.previous, { from: '2026-04-06', to: '2026-04-08' });
  // Without compare, a KPI's previous period means the same (one meaning everywhere, docs/insights.md).
  assert.deepEqual(resolveParams(def('revenue_kpi'), 'demo', { date_from: '2026-04-13', date_to: '2026-04-15' }, '2026-04-15').previous, {
    from: '2026-04-06',
    to: '2026-04-08',
  });
});
