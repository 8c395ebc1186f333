// The answer's columns in the answer's language: the model's per-language titles, and the engine's
// own columns (period, comparison) in the same words; English keeps execute's labels.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';
import { ManualClock } from '../../../src/lib/clock.ts';

describe('chat: columns in the answer language', () => {
  let t: TestApp;
  let asker: string;
  before(async () => {
    t = await buildTestApp({ clock: new ManualClock(new Date('2026-04-15T10:00:00.000Z')) });
    asker = await t.login({ tenant: 'demo', user: 'olga', role: 'owner' });
  });
  after(() => t.close());
  const ask = async (message: string) => {
    const res = await call(t, asker, 'POST', '/api/v1/ai/chat', { message });
    assert.equal(res.statusCode, 200, res.body);
    return res.data.data;
  };
  const labels = (a: { columns: { name: string; label: string }[] }) => Object.fromEntries(a.columns.map((c) => [c.name, c.label]));

  test('German: the model titles and the period and comparison columns in German; every row key has a column', async () => {
    const byCountry = await ask('Umsatz nach Land letzten Monat');
    assert.equal(byCountry.language, 'de');
    assert.equal(byCountry.insight_code, 'revenue_by_country');
    assert.equal(labels(byCountry).country, 'Land');
    assert.equal(labels(byCountry).revenue, 'Umsatz');
    for (const key of Object.keys(byCountry.rows[0])) assert.ok(labels(byCountry)[key], key);
    const money = byCountry.columns.find((c: { name: string }) => c.name === 'revenue');
    assert.equal(money.currency, 'EUR', 'the unit stays');

    const kpi = await ask('Gesamtumsatz letzten Monat im Vergleich zum Vorjahr');
    assert.equal(kpi.insight_code, 'revenue_kpi');
    assert.equal(labels(kpi).value, 'Umsatz');
    assert.equal(labels(kpi).previous_value, 'Umsatz, Vorjahr');
    assert.equal(labels(kpi).change_pct, 'Änderung (%)');
    assert.equal(labels(kpi).period_from, 'Von');

    const series = await ask('Umsatz pro Monat dieses Jahr im Vergleich zum Vorzeitraum');
    assert.equal(series.insight_code, 'revenue');
    assert.equal(labels(series).period, 'Zeitraum');
    assert.equal(labels(series).revenue, 'Umsatz');
    if (labels(series).revenue_previous) {
      assert.equal(labels(series).revenue_previous, 'Umsatz, Vorzeitraum');
      assert.equal(labels(series).revenue_change_pct, 'Umsatz, Änderung (%)');
    }
  });

  test('French and Spanish titles; English keeps the execute labels; nothing ran, no columns', async () => {
    const fr = await ask("Chiffre d'affaires par pays cette année");
    assert.equal(fr.language, 'fr');
    assert.equal(labels(fr).country, 'Pays');
    assert.equal(labels(fr).revenue, "Chiffre d'affaires");
    const es = await ask('Ventas por país este año');
    assert.equal(es.language, 'es');
    assert.equal(labels(es).country, 'País');
    assert.equal(labels(es).revenue, 'Ventas');
    const en = await ask('revenue by country last month');
    assert.equal(en.language, 'en');
    assert.equal(labels(en).country, 'Country');
    assert.equal(labels(en).revenue, 'Revenue');
    const none = await ask('Hallo, wie geht es dir heute?');
    assert.deepEqual(none.columns, []);
  });
});
