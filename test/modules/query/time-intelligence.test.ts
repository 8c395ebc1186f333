// Time intelligence (docs/model.md): rolling windows, running totals, to-date figures and
// retention by cohort, on vega-datasets' birdstrikes.csv (FAA reports 1990–2003, as exported),
// loaded through the data API as a user would, with a model written here from the documented
// format. On DuckDB, PostgreSQL and ClickHouse, every figure equals one computed here in plain JS
// from the file: a window crossing a year boundary, a filter inside the window, a distinct count
// over a window, an average over a window's rows, cohorts whose first row lies before the window.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.ts';
import { modelFromText } from '../../../src/semantic/model.ts';
import { DuckDbWarehouse } from '../../../src/warehouse/duckdb/duckdb.ts';
import type { Warehouse } from '../../../src/warehouse/warehouse.ts';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';
import { clickhouseSkip, emptyClickHouseWarehouse } from '../../helpers/clickhouse.ts';
import { emptyPostgresWarehouse, PGliteWarehouse } from '../../helpers/warehouse.ts';
import { VEGA } from '../../examples/vega.ts';

const FILE = path.join(VEGA, 'birdstrikes.csv');
const [header, ...lines] = fs.readFileSync(FILE, 'utf8').trimEnd().split(/\r?\n/);
const columns = header.split(',');
// No field of this file is quoted: a split is a faithful reader.
const strikes = lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [columns[i], v]))) as Record<string, string>[];
const day = (s: Record<string, string>) => s['Flight Date'];
const cost = (s: Record<string, string>) => Number(s['Cost Total $'] || 0);

const MODEL = `
cubes:
  - name: strikes
    sql_table: birdstrikes
    tenant_column: tenant_id
    measures:
      - { name: strikes, type: count }
      - { name: cost, type: sum, sql: '{CUBE}."Cost Total $"', format: money }
      - { name: strikes_3m, type: count, rolling_window: { trailing: 3 month } }
      - { name: cost_3m, type: sum, sql: '{CUBE}."Cost Total $"', format: money, rolling_window: { trailing: 3 month } }
      - { name: cost_running, type: sum, sql: '{CUBE}."Cost Total $"', format: money, rolling_window: { trailing: unbounded } }
      - { name: strikes_ytd, type: count, rolling_window: { type: to_date, granularity: year } }
      - { name: airports_3m, type: count_distinct, sql: '{CUBE}."Airport Name"', rolling_window: { trailing: 3 month } }
      - { name: speed_3m, type: avg, sql: '{CUBE}."Speed IAS in knots"', rolling_window: { trailing: 3 month } }
      - { name: cost_per_strike_3m, type: number, sql: '{cost_3m} / NULLIF({strikes_3m}, 0)', format: money }
    dimensions:
      - { name: flight_date, type: time, sql: '{CUBE}."Flight Date"' }
      - { name: airport, type: string, sql: '{CUBE}."Airport Name"' }
      - { name: operator, type: string, sql: '{CUBE}."Aircraft Airline Operator"' }
      - { name: state, type: string, sql: '{CUBE}."Origin State"' }
      - { name: phase, type: string, sql: '{CUBE}."Phase of flight"' }
insights:
  - code: strikes_rolling
    kind: timeseries
    measures: [strikes.strikes_3m, strikes.cost_running, strikes.strikes_ytd]
    time_dimension: strikes.flight_date
    granularities: [month, quarter]
    filters: [strikes.phase]
  - code: operator_retention
    name: Operator retention
    kind: cohort
    entity: strikes.operator
    time_dimension: strikes.flight_date
    granularity: year
    filters: [strikes.state]
`;

const clock = new ManualClock(new Date('2004-02-10T09:30:00Z'));
const round2 = (x: number) => Math.round(x * 100) / 100;
const addMonths = (d: string, n: number) => {
  const [y, m] = d.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1 + n, Number(d.slice(8, 10))));
  return t.toISOString().slice(0, 10);
};
const nextDay = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** Each month of [from, to] with its rolling figures, computed from the file's rows. */
function byHand(from: string, to: string, keep: (s: Record<string, string>) => boolean = () => true) {
  const rows = strikes.filter(keep);
  const out: Record<string, number | string>[] = [];
  for (let p = `${from.slice(0, 7)}-01`; p <= to; p = addMonths(p, 1)) {
    const next = addMonths(p, 1);
    const end = next < nextDay(to) ? next : nextDay(to);
    const start = addMonths(end, -3);
    const w = rows.filter((s) => day(s) >= start && day(s) < end);
    const speeds = w.filter((s) => s['Speed IAS in knots'] !== '').map((s) => Number(s['Speed IAS in knots']));
    const cost3m = w.reduce((a, s) => a + cost(s), 0);
    out.push({
      period: p,
      strikes: rows.filter((s) => day(s) >= p && day(s) < end).length,
      strikes_3m: w.length,
      cost_3m: round2(cost3m),
      cost_running: round2(rows.filter((s) => day(s) < end).reduce((a, s) => a + cost(s), 0)),
      strikes_ytd: rows.filter((s) => day(s) >= `${p.slice(0, 4)}-01-01` && day(s) < end).length,
      airports_3m: new Set(w.map((s) => s['Airport Name'])).size,
      speed_3m: round2(speeds.reduce((a, b) => a + b, 0) / speeds.length),
      cost_per_strike_3m: w.length ? round2(cost3m / w.length) : 0,
    });
  }
  return out;
}

/** Operators' cohorts by year of first strike (over all the file), for cohorts starting in [from, to]. */
function cohortsByHand(from: string, to: string, keep: (s: Record<string, string>) => boolean = () => true) {
  const rows = strikes.filter(keep).filter((s) => s['Aircraft Airline Operator'] !== '' && day(s) <= to);
  const first = new Map<string, string>();
  const years = new Map<string, Set<string>>();
  for (const s of rows) {
    const op = s['Aircraft Airline Operator'];
    const y = day(s).slice(0, 4);
    if (!first.has(op) || y < first.get(op)!) first.set(op, y);
    if (!years.has(op)) years.set(op, new Set());
    years.get(op)!.add(y);
  }
  const out: Record<string, number | string>[] = [];
  const cohorts = [...new Set(first.values())].filter((y) => `${y}-01-01` >= from && `${y}-01-01` <= to).sort();
  for (const c of cohorts) {
    const members = [...first].filter(([, y]) => y === c).map(([op]) => op);
    for (let y = Number(c), i = 0; y <= Number(to.slice(0, 4)); y++, i++) {
      const active = members.filter((op) => years.get(op)!.has(String(y))).length;
      out.push({ cohort: `${c}-01-01`, period: i, size: members.length, active, retention: round2((100 * active) / members.length) });
    }
  }
  return out;
}

async function insertRows(warehouse: Warehouse) {
  const q = (c: string) => `"${c}"`;
  const type = (c: string) => (c === 'Flight Date' ? 'date' : /^(Cost|Speed)/.test(c) ? 'double precision' : 'text');
  await warehouse.exec(`CREATE TABLE birdstrikes (tenant_id text, ${columns.map((c) => `${q(c)} ${type(c)}`).join(', ')})`);
  const lit = (c: string, v: string) =>
    v === '' ? 'NULL' : type(c) === 'double precision' ? v : `'${v.replace(/'/g, "''")}'${type(c) === 'date' ? '::date' : ''}`;
  for (let i = 0; i < strikes.length; i += 2000) {
    const chunk = strikes.slice(i, i + 2000);
    await warehouse.exec(
      `INSERT INTO birdstrikes VALUES ${chunk.map((s) => `('birds', ${columns.map((c) => lit(c, s[c])).join(', ')})`).join(', ')}`,
    );
  }
}

const ENGINES: { name: string; open: () => Promise<Warehouse>; skip?: string | false }[] = [
  { name: 'DuckDB', open: () => DuckDbWarehouse.open(':memory:') },
  { name: 'PostgreSQL', open: () => emptyPostgresWarehouse() },
  { name: 'ClickHouse', open: () => emptyClickHouseWarehouse({ demo: false }), skip: clickhouseSkip },
];

const figures = (row: Record<string, unknown>, names: string[]) =>
  Object.fromEntries(names.map((n) => [n, typeof row[n] === 'number' ? round2(row[n] as number) : Number(row[n] ?? 0)]));

for (const engine of ENGINES) {
  describe(`time intelligence on ${engine.name}`, { skip: engine.skip }, () => {
    let t: TestApp;
    let auth: string;
    const query = (body: unknown) => call(t, auth, 'POST', '/api/v1/query', body);

    before(async () => {
      const warehouse = await engine.open();
      t = await buildTestApp({ clock, deps: { warehouse, model: modelFromText(MODEL) } });
      auth = await t.login({ tenant: 'birds', user: 'owner', role: 'owner' });
      if (warehouse instanceof PGliteWarehouse) await insertRows(warehouse);
      else {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/data/birdstrikes',
          headers: { authorization: auth, 'content-type': 'text/csv' },
          payload: fs.readFileSync(FILE),
        });
        assert.equal(res.statusCode, 200, res.body);
      }
    });
    after(async () => {
      await t?.close();
      await t?.warehouse.close();
    });

    const ROLLING = ['strikes_3m', 'cost_3m', 'cost_running', 'strikes_ytd', 'airports_3m', 'speed_3m', 'cost_per_strike_3m'];

    test('rolling, running, to-date, distinct and average windows by month across a year boundary', async () => {
      // The last month is partial: its windows end with the window's last day.
      const res = await query({
        measures: ['strikes.strikes', ...ROLLING.map((m) => `strikes.${m}`)],
        time: { dimension: 'strikes.flight_date', granularity: 'month', date_from: '2001-11-01', date_to: '2002-03-15' },
      });
      assert.equal(res.statusCode, 200, res.body);
      const rows = res.data.data.rows as Record<string, unknown>[];
      const hand = byHand('2001-11-01', '2002-03-15');
      assert.equal(rows.length, hand.length);
      rows.forEach((r, i) => {
        const mine = Object.fromEntries(Object.entries(r).map(([k, v]) => [k.replace(/^strikes\./, ''), v]));
        const { period, ...expected } = hand[i];
        assert.equal(String(mine.flight_date).slice(0, 10), period);
        assert.deepEqual(figures(mine, Object.keys(expected)), expected, String(period));
      });
      // The windows reach before the query's own: November's 3 months hold September's and October's strikes.
      assert.ok((hand[0].strikes_3m as number) > (hand[0].strikes as number));
      // The distinct count is over the window, not a sum of the months' counts.
      const monthly = await query({
        measures: ['strikes.airports_3m'],
        time: { dimension: 'strikes.flight_date', granularity: 'month', date_from: '2002-01-01', date_to: '2002-01-31' },
      });
      assert.equal(monthly.data.data.rows[0]['strikes.airports_3m'], hand[2].airports_3m);
    });

    test('a filter and a grouping apply inside every window', async () => {
      const res = await query({
        measures: ['strikes.strikes_3m', 'strikes.airports_3m', 'strikes.cost_running'],
        dimensions: ['strikes.phase'],
        time: { dimension: 'strikes.flight_date', granularity: 'quarter', date_from: '1999-10-01', date_to: '2000-06-30' },
        filters: [{ member: 'strikes.phase', operator: 'equals', values: ['Approach', 'Landing Roll'] }],
      });
      assert.equal(res.statusCode, 200, res.body);
      const rows = res.data.data.rows as Record<string, unknown>[];
      for (const phase of ['Approach', 'Landing Roll']) {
        for (const quarter of ['1999-10-01', '2000-01-01', '2000-04-01']) {
          const row = rows.find((r) => r['strikes.phase'] === phase && String(r['strikes.flight_date']).startsWith(quarter));
          assert.ok(row, `${phase} ${quarter}`);
          const end = addMonths(quarter, 3);
          const w = strikes.filter((s) => s['Phase of flight'] === phase && day(s) >= addMonths(end, -3) && day(s) < end);
          const running = strikes.filter((s) => s['Phase of flight'] === phase && day(s) < end).reduce((a, s) => a + cost(s), 0);
          assert.deepEqual(figures(row, ['strikes.strikes_3m', 'strikes.airports_3m', 'strikes.cost_running']), {
            'strikes.strikes_3m': w.length,
            'strikes.airports_3m': new Set(w.map((s) => s['Airport Name'])).size,
            'strikes.cost_running': round2(running),
          });
        }
      }
    });

    test('the insight of rolling measures answers as the query does, filtered by its parameter', async () => {
      const res = await call(
        t,
        auth,
        'GET',
        '/api/v1/insights/strikes_rolling/execute?granularity=month&date_from=2002-10-01&date_to=2003-02-28&phase=Approach',
      );
      assert.equal(res.statusCode, 200, res.body);
      const hand = byHand('2002-10-01', '2003-02-28', (s) => s['Phase of flight'] === 'Approach');
      assert.deepEqual(
        res.data.data.rows.map((r: Record<string, unknown>) => ({ ...r, period: String(r.period).slice(0, 10) })),
        hand.map((h) => ({ period: h.period, strikes_3m: h.strikes_3m, cost_running: h.cost_running, strikes_ytd: h.strikes_ytd })),
      );
    });

    test("retention by yearly cohort of operators: cohorts formed on all the data, the window's cohorts only", async () => {
      const res = await call(t, auth, 'GET', '/api/v1/insights/operator_retention/execute?date_from=1995-01-01&date_to=1999-12-31');
      assert.equal(res.statusCode, 200, res.body);
      const hand = cohortsByHand('1995-01-01', '1999-12-31');
      assert.ok(hand.length > 5);
      assert.deepEqual(res.data.data.rows, hand);
      assert.deepEqual(
        res.data.data.columns.map((c: { name: string }) => c.name),
        ['cohort', 'period', 'retention', 'active', 'size'],
      );
      assert.deepEqual(res.data.data.chart_hint, {
        type: 'table',
        x_axis: 'period',
        y_axis: ['retention'],
        series: 'cohort',
        title: 'Operator retention',
      });
      // Filters apply before cohorts are formed: an operator's first strike in Texas makes its cohort.
      const texas = await call(
        t,
        auth,
        'GET',
        '/api/v1/insights/operator_retention/execute?date_from=1994-01-01&date_to=2003-12-31&state=Texas',
      );
      assert.equal(texas.statusCode, 200, texas.body);
      assert.deepEqual(
        texas.data.data.rows,
        cohortsByHand('1994-01-01', '2003-12-31', (s) => s['Origin State'] === 'Texas'),
      );
    });

    test('a rolling measure without periods is refused, naming it; a cohort takes no compare', async () => {
      const res = await query({ measures: ['strikes.strikes', 'strikes.strikes_3m'], dimensions: ['strikes.phase'] });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(
        res.data.errors.map((e: { path: string }) => e.path),
        ['/body/measures/1'],
      );
      assert.match(res.data.detail, /strikes\.strikes_3m is a rolling measure/);
      const number = await query({ measures: ['strikes.cost_per_strike_3m'] });
      assert.equal(number.statusCode, 400);
      assert.match(number.data.detail, /strikes\.cost_per_strike_3m combines strikes\.\w+_3m, which is a rolling measure/);
      const cohort = await call(t, auth, 'GET', '/api/v1/insights/operator_retention/execute?compare=previous_period');
      assert.equal(cohort.statusCode, 400);
      assert.equal(cohort.data.errors[0].path, '/query/compare');
    });
  });
}

test('model check refuses a breakdown, top or KPI insight over a rolling measure, naming it', () => {
  for (const kind of ['breakdown', 'kpi']) {
    const text = `${MODEL}  - code: bad\n    kind: ${kind}\n    measures: [strikes.strikes_3m]\n    time_dimension: strikes.flight_date\n${
      kind === 'breakdown' ? '    dimension: strikes.phase\n' : '    granularities: [month]\n'
    }`;
    assert.throws(() => modelFromText(text), /strikes\.strikes_3m is a rolling measure \(rolling_window\)/);
  }
});
