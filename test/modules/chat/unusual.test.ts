// "Anything unusual in …?" in chat (docs/chat.md "Unusual values"): a model written from the
// documented format, daily sales per country loaded through the data API as a user would, with
// one spike placed on a known day in one country. Chat names that day and country and nothing
// else, over the period asked, its rows those of the query API; a question the detector cannot
// judge as asked (a ranking, a condition, another language) is refused by name.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.ts';
import { modelFromText } from '../../../src/semantic/model.ts';
import { DuckDbWarehouse } from '../../../src/warehouse/duckdb/duckdb.ts';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';

const MODEL = `
cubes:
  - name: sales
    sql_table: sales
    tenant_column: tenant_id
    measures:
      - { name: revenue, type: sum, sql: amount, format: money }
      - { name: orders, type: count }
    dimensions:
      - { name: sold_on, type: time, sql: sold_on }
      - { name: country, type: string, sql: country }
insights:
  - code: revenue_by_day
    kind: timeseries
    measures: [sales.revenue]
    time_dimension: sales.sold_on
    granularities: [day, week]
`;

// Today is Wednesday 2026-06-17; "last week" is Monday 8 to Sunday 14 June.
const clock = new ManualClock(new Date('2026-06-17T09:00:00Z'));
const SPIKE = { day: '2026-06-10', country: 'FR' };

/** 100 days of sales: a weekly rhythm, a little noise, and the one spike. */
function csv(): string {
  const lines = ['sold_on,country,amount'];
  const start = Date.parse('2026-03-10T00:00:00Z');
  for (let i = 0; i < 100; i++) {
    const day = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
    const weekday = new Date(start + i * 86_400_000).getUTCDay();
    for (const [country, base] of [
      ['DE', 1000],
      ['FR', 600],
      ['ES', 300],
    ] as const) {
      let amount = base * (weekday === 0 || weekday === 6 ? 1.5 : 1) * (1 + ((i * 7 + base) % 5) / 100);
      if (day === SPIKE.day && country === SPIKE.country) amount *= 3;
      lines.push(`${day},${country},${amount.toFixed(2)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

let t: TestApp;
let auth: string;
before(async () => {
  t = await buildTestApp({ clock, deps: { warehouse: await DuckDbWarehouse.open(':memory:'), model: modelFromText(MODEL) } });
  auth = await t.login({ tenant: 'shop', user: 'u', role: 'owner' });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/data/sales',
    headers: { authorization: auth, 'content-type': 'text/csv' },
    payload: csv(),
  });
  assert.equal(res.statusCode, 200, res.body);
});
after(() => t.close());

const ask = async (message: string) => {
  const res = await call(t, auth, 'POST', '/api/v1/ai/chat', { message });
  assert.equal(res.statusCode, 200, res.body);
  return res.data.data;
};

test('the spike is named, by day and country, and nothing else; the rows are the query API’s for the week asked', async () => {
  const a = await ask('anything unusual in revenue by country last week?');
  assert.match(a.reply_text, /^1 unusual value of Revenue in 2026-06-08 – 2026-06-14: Revenue in FR on Wednesday 2026-06-10 was/);
  assert.match(a.reply_text, /far above the usual/);
  assert.deepEqual(a.query.measures, ['sales.revenue']);
  assert.deepEqual(a.query.dimensions, ['sales.country']);
  assert.equal(a.query.time.date_from, '2026-06-08');
  assert.equal(a.query.time.date_to, '2026-06-14');
  assert.equal(a.query.time.granularity, 'day');
  const same = await call(t, auth, 'POST', '/api/v1/query', a.query);
  assert.equal(same.statusCode, 200, same.body);
  assert.deepEqual(a.rows, same.data.data.rows);
  assert.equal(a.rows.length, 21);
  assert.equal(a.chart_hint.type, 'line');
});

test('the whole measure, and a filter: the spike is judged where the question looks', async () => {
  const whole = await ask('anything unusual in revenue last week?');
  // FR's spike lifts the total of that Wednesday too (+1200 over ~1900).
  assert.match(whole.reply_text, /Revenue on Wednesday 2026-06-10 was/);
  assert.equal(whole.query.dimensions, undefined);
  const de = await ask('anything unusual in revenue in Germany last week?');
  assert.match(de.reply_text, /^Nothing unusual in Revenue in 2026-06-08 – 2026-06-14/);
  assert.deepEqual(de.query.filters, [{ member: 'sales.country', operator: 'equals', values: ['DE'] }]);
  const earlier = await ask('anything unusual in revenue by country in May 2026?');
  assert.match(earlier.reply_text, /^Nothing unusual in Revenue in 2026-05-01 – 2026-05-31/);
});

test('no period named: the last seven days of the data, said so', async () => {
  const a = await ask('anything unusual in revenue by country?');
  assert.match(a.reply_text, /last 7 days of the data/);
  assert.equal(a.query.time.date_to, '2026-06-17');
  assert.equal(a.query.time.date_from, '2026-06-11');
});

test('what the detector cannot judge as asked is refused by name, never answered with another figure', async () => {
  for (const q of ['anything unusual in the top 2 countries by revenue last week?', 'etwas Ungewöhnliches beim Umsatz letzte Woche?']) {
    const a = await ask(q);
    assert.equal(a.rows.length, 0, q);
    assert.match(a.reply_text, /unusual|Ungewöhnlich/i, q);
  }
});
