// The data API on the embedded DuckDB warehouse (see support.ts), plus the upload limit's default.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTestApp } from '../../helpers/app.ts';
import { testWarehouse } from '../../helpers/warehouse.ts';
import { clock, dataApiTests, upload, uploadModel } from './support.ts';

dataApiTests((now) => testWarehouse(now, 600), { INSIGHTS_DATA_MAX_BYTES: '2000' });

test('the default upload limit is far above the small JSON limit of other routes', async () => {
  const warehouse = await testWarehouse(clock.now(), 600);
  const t = await buildTestApp({ clock, env: { INSIGHTS_MODEL: uploadModel() }, deps: { warehouse } });
  try {
    const owner = await t.login({ tenant: 'demo', user: 'o', role: 'owner' });
    const body = 'n,label\n' + Array.from({ length: 120_000 }, (_, i) => `${i},row ${i}\n`).join(''); // ~1.7 MB
    const res = await upload(t, owner, { table: 'numbers', body });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.data.rows_loaded, 120_000);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/v1/dashboards',
      headers: { authorization: owner, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
    });
    assert.equal(json.statusCode, 413, 'other routes keep their limit');
  } finally {
    await t.close();
    await warehouse.close();
  }
});

test('queries running during a load see the data before it or after it, never half of it', async () => {
  const warehouse = await testWarehouse(clock.now(), 600);
  const t = await buildTestApp({ clock, env: { INSIGHTS_MODEL: uploadModel() }, deps: { warehouse } });
  try {
    const owner = await t.login({ tenant: 'demo', user: 'o', role: 'owner' });
    const count = async () => Number((await warehouse.query(`SELECT count(*) AS n FROM orders WHERE tenant_id = 'demo'`))[0].n);
    const before = await count();
    const rows = 200_000;
    const body =
      'order_id,customer_id,ordered_at,country,channel,status,items,revenue,discount\n' +
      Array.from({ length: rows }, (_, i) => `${90_000_000 + i},1,2026-11-20 12:00:00,DE,web,completed,1,1.00,0\n`).join('');
    const loading = upload(t, owner, { table: 'orders', body });
    const seen: number[] = [];
    let done = false;
    void loading.then(() => (done = true));
    while (!done) seen.push(await count());
    assert.equal((await loading).statusCode, 200);
    seen.push(await count());
    assert.ok(
      seen.every((n) => n === before || n === before + rows),
      `counts seen: ${[...new Set(seen)].join(', ')}`,
    );
    assert.equal(seen.at(-1), before + rows);
  } finally {
    await t.close();
    await warehouse.close();
  }
});
