// examples/flights: vega-datasets' flights-3m.parquet (3 million flights) and airports.csv loaded by
// the CLI, and execute figures — through the join to the airports too — equal to what DuckDB
// computes here reading the same files directly.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { EMBEDDED_ONLY } from '../helpers/process.ts';
import { duck, execute, loadExample, startExample, stopExample, VEGA, type Example } from './vega.ts';

const FLIGHTS = `read_parquet('${path.join(VEGA, 'flights-3m.parquet')}')`;
const AIRPORTS = `read_csv('${path.join(VEGA, 'airports.csv')}')`;
const num = (v: unknown) => (v === null ? null : Number(v));

let example: Example;

before(async () => {
  if (EMBEDDED_ONLY) return;
  example = await loadExample('flights', [
    ['airports', 'airports.csv'],
    ['flights', 'flights-3m.parquet'],
  ]);
});
after(() => stopExample(example));

test('3 million rows of Parquet load through the CLI', { skip: EMBEDDED_ONLY }, () => {
  assert.match(example.loads[1].stdout, /Loaded 3,000,000 rows/);
  assert.match(example.loads[1].stdout, /date +TIMESTAMP/);
});

test('execute: flights, delays, states (through the join) and the busiest airports equal DuckDB reading the files', {
  skip: EMBEDDED_ONLY,
}, async () => {
  await startExample(example);
  const half = 'date_from=2001-01-01&date_to=2001-06-30';

  const monthly = await execute(example, 'flights', `granularity=month&${half}`);
  const months = await duck<{ m: string; n: string; late: string }>(
    `SELECT strftime(date_trunc('month', date), '%Y-%m') AS m, count(*) AS n, count(*) FILTER (WHERE delay > 15) AS late
     FROM ${FLIGHTS} WHERE date < TIMESTAMP '2001-07-01' GROUP BY 1 ORDER BY 1`,
  );
  assert.deepEqual(
    monthly.map((r) => [String(r.period).slice(0, 7), r.flights, r.delayed_flights]),
    months.map((d) => [d.m, Number(d.n), Number(d.late)]),
  );

  const delays = await execute(example, 'delays', `granularity=month&${half}`);
  const avg = await duck<{ m: string; a: number; s: string }>(
    `SELECT strftime(date_trunc('month', date), '%Y-%m') AS m, avg(delay) AS a, sum(delay) AS s FROM ${FLIGHTS} WHERE date < TIMESTAMP '2001-07-01' GROUP BY 1 ORDER BY 1`,
  );
  assert.deepEqual(
    delays.map((r) => [String(r.period).slice(0, 7), r.average_delay, r.delay_minutes]),
    avg.map((d) => [d.m, d.a, Number(d.s)]),
  );

  const ord = await execute(example, 'flights', `granularity=day&date_from=2001-01-01&date_to=2001-01-31&origin=ORD`);
  const ordDays = await duck<{ d: string; n: string }>(
    `SELECT strftime(date, '%Y-%m-%d') AS d, count(*) AS n FROM ${FLIGHTS} WHERE origin = 'ORD' AND date < TIMESTAMP '2001-02-01' GROUP BY 1 ORDER BY 1`,
  );
  assert.deepEqual(
    ord.filter((r) => Number(r.flights) > 0).map((r) => [String(r.period).slice(0, 10), r.flights]),
    ordDays.map((d) => [d.d, Number(d.n)]),
  );

  const states = await execute(example, 'flights_by_state', half);
  const byState = await duck<{ state: string; n: string; miles: string }>(
    `SELECT a.state, count(*) AS n, sum(f.distance) AS miles FROM ${FLIGHTS} f LEFT JOIN ${AIRPORTS} a ON f.origin = a.iata
     WHERE f.date < TIMESTAMP '2001-07-01' GROUP BY 1`,
  );
  assert.equal(states.length, byState.length);
  for (const row of states) {
    const d = byState.find((s) => s.state === row.state)!;
    assert.deepEqual([row.flights, row.distance], [Number(d.n), Number(d.miles)], String(row.state));
  }

  const top = await execute(example, 'top_origins', `${half}&limit=10`);
  const busiest = await duck<{ origin: string; n: string }>(
    `SELECT origin, count(*) AS n FROM ${FLIGHTS} WHERE date < TIMESTAMP '2001-07-01' GROUP BY 1 ORDER BY n DESC LIMIT 10`,
  );
  assert.deepEqual(
    top.map((r) => [r.origin, r.flights]),
    busiest.map((b) => [b.origin, Number(b.n)]),
  );

  const [kpi] = await execute(example, 'flights_kpi', 'date_from=2001-03-01&date_to=2001-03-31');
  const [march] = await duck<{ n: string }>(
    `SELECT count(*) AS n FROM ${FLIGHTS} WHERE date >= TIMESTAMP '2001-03-01' AND date < TIMESTAMP '2001-04-01'`,
  );
  assert.equal(num(kpi.value), Number(march.n));
});
