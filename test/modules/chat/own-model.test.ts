// Chat on a model nobody on the project wrote (eval/models/stores.yml: the store is the tenant,
// measures Sales and Profit, dimensions city and product line) over data that ended in 2019,
// through the HTTP API: the question's shape decides, two periods compared are window and
// comparison, no question is answered over an empty window, and what the model lacks is refused.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.ts';
import { DuckDbWarehouse } from '../../../src/warehouse/duckdb/duckdb.ts';
import type { Warehouse } from '../../../src/warehouse/warehouse.ts';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';

const MODEL = path.join(import.meta.dirname, '../../../eval/models/stores.yml');

// Two stores; store s1 sells in Berlin and Munich, 2018 and 2019; s2 has one sale in Hamburg.
const SALES: [string, string, string, string, number, number, number, string][] = [
  ['s1', '2018-03-10 10:00:00', 'Berlin', 'Books', 100, 20, 2, 'c1'],
  ['s1', '2018-11-02 12:00:00', 'Munich', 'Games', 300, 90, 1, 'c2'],
  ['s1', '2019-01-15 09:30:00', 'Berlin', 'Books', 150, 30, 3, 'c1'],
  ['s1', '2019-02-20 16:00:00', 'Munich', 'Games', 500, 120, 2, 'c3'],
  ['s1', '2019-06-30 18:00:00', 'Munich', 'Music', 80, 10, 4, 'c2'],
  ['s1', '2019-12-31 20:00:00', 'Berlin', 'Games', 200, 60, 1, 'c4'],
  ['s2', '2019-05-05 11:00:00', 'Hamburg', 'Toys', 999, 1, 1, 'c9'],
  // Older than ten years before "today": a filter value learnt from a date window would miss it.
  ['s1', '2012-07-01 10:00:00', 'Bonn', 'Books', 40, 5, 1, 'c1'],
];

let t: TestApp;
let wh: Warehouse;
let auth: string;

before(async () => {
  wh = await DuckDbWarehouse.open(':memory:');
  await wh.exec(`CREATE TABLE sales (store VARCHAR, sold_at TIMESTAMP, city VARCHAR, product_line VARCHAR, amount DECIMAL(10,2), profit DECIMAL(10,2), quantity INTEGER, customer_id VARCHAR);
    INSERT INTO sales VALUES ${SALES.map((r) => `('${r[0]}', TIMESTAMP '${r[1]}', '${r[2]}', '${r[3]}', ${r[4]}, ${r[5]}, ${r[6]}, '${r[7]}')`).join(', ')};`);
  t = await buildTestApp({
    clock: new ManualClock(new Date('2026-04-15T10:00:00Z')),
    env: { INSIGHTS_MODEL: MODEL },
    deps: { warehouse: wh },
  });
  auth = await t.login({ tenant: 's1', user: 'ana', role: 'member' });
});
after(async () => {
  await t?.close();
  await wh?.close();
});

const ask = async (message: string) => {
  const res = await call(t, auth, 'POST', '/api/v1/ai/chat', { message });
  assert.equal(res.statusCode, 200, res.body);
  return res.data.data as {
    reply_text: string;
    insight_code: string | null;
    query: Record<string, unknown> | null;
    rows: Record<string, unknown>[];
    language: string;
  };
};
const mine = SALES.filter((r) => r[0] === 's1');
const recent = mine.filter((r) => r[1] >= '2018');
const sum = (rows: typeof SALES, i: 4 | 5 | 6) => rows.reduce((s, r) => s + r[i], 0);

test('the shape decides over an insight named like its measure', async () => {
  const city = await ask('Which city brought the most revenue in 2019?');
  assert.equal(city.insight_code, 'sales_by_city');
  assert.equal(city.rows[0].city, 'Munich');
  assert.equal(city.rows[0].sales, 580);

  const top = await ask('top 2 product-lines by revenue in 2019');
  assert.equal(top.insight_code, 'top_product_lines');
  assert.deepEqual(
    top.rows.map((r) => r.product_line),
    ['Games', 'Books'],
  );
  assert.equal(top.query!.limit, 2);

  // Profit is not what the insight by city leads with: composed from the model, profit by city.
  const profit = await ask('profit per city in 2019');
  assert.equal(profit.insight_code, null);
  assert.deepEqual(profit.query!.measures, ['sales.profit']);
  assert.deepEqual(profit.query!.dimensions, ['sales.city']);
  assert.deepEqual(profit.rows[0], { 'sales.city': 'Munich', 'sales.profit': 130 });
});

test('two periods compared are the window and its comparison', async () => {
  for (const q of ['compare revenue in 2019 with 2018', '2019 vs 2018 revenue']) {
    const r = await ask(q);
    assert.equal(r.insight_code, 'sales_kpi', q);
    assert.equal(r.query!.date_from, '2019-01-01');
    assert.equal(r.query!.compare, 'previous_year');
    assert.equal(
      r.rows[0].value,
      sum(
        mine.filter((x) => x[1].startsWith('2019')),
        4,
      ),
    );
    assert.equal(
      r.rows[0].previous_value,
      sum(
        mine.filter((x) => x[1].startsWith('2018')),
        4,
      ),
    );
  }
});

test('values of a filter named against each other are a list filter, from all of the data', async () => {
  const r = await ask('Books vs Games revenue in 2019');
  assert.deepEqual((r.query!.filters as Record<string, unknown>).product_line, ['Books', 'Games']);
  // Side by side: the ranking by product line, kept to the two.
  assert.equal(r.insight_code, 'top_product_lines');
  assert.deepEqual(
    r.rows.map((x) => [x.product_line, x.sales]),
    [
      ['Games', 700],
      ['Books', 150],
    ],
  );
  const monthly = await ask('Books vs Games revenue by month in 2019');
  assert.equal(monthly.insight_code, 'sales');
  assert.deepEqual((monthly.query!.filters as Record<string, unknown>).product_line, ['Books', 'Games']);
  // Bonn sold only in 2012: the values come from all of the data, not the last ten years.
  const bonn = await ask('sales in Bonn in 2012');
  assert.equal((bonn.query!.filters as Record<string, unknown>).city, 'Bonn');
  assert.equal(
    bonn.rows.reduce((t, x) => t + Number(x.sales), 0),
    40,
  );
  // Hamburg is the other store's city: never a word of this one.
  const other = await ask('sales in Hamburg in 2019');
  assert.equal((other.query?.filters as Record<string, unknown> | undefined)?.city, undefined);
});

test('no period named: the data’s own span, said so — never an empty window', async () => {
  const total = await ask('how many sale lines do we have?');
  assert.equal(total.insight_code, 'sale_lines_kpi');
  assert.equal(total.rows[0].value, mine.length);
  assert.equal(total.query!.date_from, '2012-07-01');
  assert.equal(total.query!.date_to, '2019-12-31');
  assert.match(total.reply_text, /all of the data/);

  const byCity = await ask('revenue by city');
  assert.equal(
    byCity.rows.reduce((s, r) => s + Number(r.sales), 0),
    sum(mine, 4),
  );
  assert.ok(recent.length < mine.length);

  const series = await ask('revenue by month');
  assert.equal(series.insight_code, 'sales');
  assert.equal(series.query!.date_to, '2019-12-31');
  assert.match(series.reply_text, /latest stretch/);
  assert.ok(series.rows.some((r) => Number(r.sales) > 0));

  const de = await ask('Umsatz nach Stadt');
  assert.equal(de.language, 'de');
  assert.match(de.reply_text, /alle Daten/);
});

test('a breakdown by an id', async () => {
  const r = await ask('revenue by customer_id in 2019');
  assert.equal(r.insight_code, 'sales_by_customer');
  assert.equal(r.rows[0].customer_id, 'c3');
});

test('a measure the model lacks is refused by name; a question about something else gets the help', async () => {
  const churn = await ask('how many customers churned');
  assert.equal(churn.insight_code, null);
  assert.match(churn.reply_text, /churned/);
  const de = await ask('Wie viele Kunden sind abgewandert?');
  assert.equal(de.insight_code, null);
  assert.match(de.reply_text, /abgewandert/);
  const weather = await ask('what is the weather forecast for tomorrow?');
  assert.equal(weather.insight_code, null);
  assert.match(weather.reply_text, /I can answer questions about/);
  assert.doesNotMatch(weather.reply_text, /forecast|future/i);
});
