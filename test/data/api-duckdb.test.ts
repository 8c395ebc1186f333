// The data API on the embedded DuckDB warehouse (see support.ts), plus what only the embedded
// engine shows: a load invalidating the tenant's cached insight results.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTestApp, call } from '../helpers/app.ts';
import { testWarehouse } from '../helpers/warehouse.ts';
import { clock, dataApiTests, upload } from './support.ts';

dataApiTests((now) => testWarehouse(now, 600), { INSIGHTS_DATA_MAX_BYTES: '2000' });

test('the default upload limit is far above the small JSON limit of other routes', async () => {
  const warehouse = await testWarehouse(clock.now(), 600);
  const t = await buildTestApp({ clock, deps: { warehouse } });
  try {
    const owner = await t.login({ tenant: 'demo', user: 'o', role: 'owner' });
    const body = 'n,label\n' + Array.from({ length: 120_000 }, (_, i) => `${i},row ${i}\n`).join(''); // ~1.7 MB
    const res = await upload(t, owner, { table: 'numbers', body });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.data.rows_loaded, 120_000);
    const json = await t.app.inject({ method: 'POST', url: '/api/v1/dashboards', headers: { authorization: owner, 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }) });
    assert.equal(json.statusCode, 413, 'other routes keep their limit');
  } finally {
    await t.close();
    await warehouse.close();
  }
});

test("a load makes the tenant's cached results unreachable; other tenants keep theirs", async () => {
  const warehouse = await testWarehouse(clock.now(), 600);
  const t = await buildTestApp({ clock, deps: { warehouse } });
  try {
    const demo = await t.login({ tenant: 'demo', user: 'o', role: 'owner' });
    const acme = await t.login({ tenant: 'acme', user: 'o', role: 'owner' });
    const kpi = async (auth: string) => (await call(t, auth, 'GET', '/api/v1/insights/revenue_kpi/execute')).data.data;
    const first = await kpi(demo);
    assert.equal((await kpi(demo)).cached, true);
    assert.equal((await kpi(acme)).cached, false);
    assert.equal((await kpi(acme)).cached, true);

    const order = 'order_id,customer_id,ordered_at,country,channel,status,items,revenue,discount\n' +
      `99000001,1,${first.rows[0].period_to} 12:00:00,DE,web,completed,1,1234.56,0\n`;
    const res = await upload(t, demo, { table: 'orders', body: order });
    assert.equal(res.statusCode, 200, res.body);

    const after = await kpi(demo);
    assert.equal(after.cached, false);
    assert.equal(Math.round((after.rows[0].value - first.rows[0].value) * 100) / 100, 1234.56);
    assert.equal((await kpi(acme)).cached, true, "acme's cached result stays");
  } finally {
    await t.close();
    await warehouse.close();
  }
});
