// Chat and time intelligence (docs/chat.md "Time intelligence"), on the demo: rolling, to-date
// and retention questions in the four languages are answered by the measures and the cohort
// insight that mean them — their figures those of POST /api/v1/query and execute — and a time
// word nothing in the model means ("cumulative orders") is refused by name, never answered with
// the plain figure; "anything unusual" is judged by the anomaly detector (unusual.test.ts).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
let auth: string;
before(async () => {
  t = await buildTestApp();
  auth = await t.login({ tenant: 'demo', user: 'tw', role: 'owner' });
});
after(() => t.close());

const ask = async (message: string) => {
  const res = await call(t, auth, 'POST', '/api/v1/ai/chat', { message });
  assert.equal(res.statusCode, 200, res.body);
  return res.data.data;
};

test('year to date, in four languages: the to-date measure, its figures those of the query API', async () => {
  for (const q of [
    'year-to-date revenue by month',
    'Umsatz seit Jahresbeginn nach Monat',
    "chiffre d'affaires cumulé cette année",
    'ventas acumuladas este año',
  ]) {
    const a = await ask(q);
    assert.deepEqual(a.query?.measures, ['orders.revenue_ytd'], q);
    const same = await call(t, auth, 'POST', '/api/v1/query', a.query);
    assert.deepEqual(a.rows, same.data.data.rows, q);
    // A year-to-date figure never falls from one period to the next within a year.
    for (let i = 1; i < a.rows.length; i++) {
      const [before, now] = [a.rows[i - 1], a.rows[i]];
      if (String(now['orders.ordered_at']).slice(0, 4) === String(before['orders.ordered_at']).slice(0, 4))
        assert.ok(now['orders.revenue_ytd'] >= before['orders.revenue_ytd'], q);
    }
  }
  // A total from the start of the year is a to-date figure too: the KPI answers it.
  assert.equal((await ask('YTD revenue vs last year')).insight_code, 'revenue_kpi');
});

test('rolling: the rolling insight, its reply stating the latest figure, never a total of overlapping windows', async () => {
  for (const q of ['3-month rolling revenue by month this year', 'gleitender Umsatz nach Monat']) {
    const a = await ask(q);
    assert.equal(a.insight_code, 'rolling_revenue', q);
    assert.doesNotMatch(a.reply_text, /\b(total|insgesamt)\b/, q);
    const last = a.rows.at(-1);
    const figure = Math.round(last.revenue_3m).toLocaleString(q.startsWith('3') ? 'en-US' : 'de-DE');
    assert.ok(a.reply_text.includes(figure), `${q}: ${a.reply_text} names ${figure}`);
  }
});

test('retention by cohort: the cohort insight with the filter and period asked, in four languages', async () => {
  for (const q of [
    'retention by monthly cohort',
    'Kundenbindung nach Kohorte',
    'rétention des clients par cohorte',
    'retención de clientes por cohorte',
  ]) {
    const a = await ask(q);
    assert.equal(a.insight_code, 'customer_retention', q);
    assert.ok(a.rows.length > 0 && a.rows.every((r: { period: number }) => typeof r.period === 'number'), q);
    assert.doesNotMatch(a.reply_text, /\d %? ?total|total \d/, q);
  }
  const de = await ask('retention by monthly cohort in Germany this year');
  assert.deepEqual(de.query.filters, { country: 'DE' });
  const same = await call(
    t,
    auth,
    'GET',
    `/api/v1/insights/customer_retention/execute?country=DE&date_from=${de.query.date_from}&date_to=${de.query.date_to}`,
  );
  assert.deepEqual(de.rows, same.data.data.rows);
  assert.equal(de.query.date_from.slice(5), '01-01');
});

test('a time word nothing in the model means is refused by name, never answered with the plain figure', async () => {
  for (const [q, word] of [
    ['cumulative orders this year', 'cumulative'],
    ['kumulierte Bestellungen dieses Jahr', 'kumulierte'],
    ['etwas Ungewöhnliches beim Umsatz letzte Woche?', 'Ungewöhnliches'],
    ['retention by cohort by channel', 'retention'],
  ]) {
    const a = await ask(q);
    assert.equal(a.rows.length, 0, q);
    assert.equal(a.insight_code, null, q);
    assert.ok(a.reply_text.includes(word), `${q}: ${a.reply_text}`);
  }
  // Without a time word, the plain figure as before.
  assert.equal((await ask('revenue by month this year')).insight_code, 'revenue');
});

test('anything unusual: the revenue measure by day over last week, judged; its rows those of the query API', async () => {
  const a = await ask('anything unusual in revenue last week?');
  assert.deepEqual(a.query.measures, ['orders.revenue']);
  assert.equal(a.query.time.granularity, 'day');
  assert.equal(a.rows.length, 7);
  assert.match(a.reply_text, /unusual|Too little history/i);
  const same = await call(t, auth, 'POST', '/api/v1/query', a.query);
  assert.deepEqual(a.rows, same.data.data.rows);
});
