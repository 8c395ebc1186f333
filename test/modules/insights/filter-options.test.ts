// GET /api/v1/insights/filters: the pickers' values, from the caller's data, searchable.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
let owner: string;
before(async () => {
  t = await buildTestApp();
  owner = await t.login({ tenant: 'demo', user: 'owner', role: 'owner' });
});
after(async () => t?.close());

test('each filter dimension with its label and the values in the tenant’s data', async () => {
  const r = await call(t, owner, 'GET', '/api/v1/insights/filters');
  assert.equal(r.statusCode, 200, r.body);
  const byName = Object.fromEntries(
    (r.data as { name: string; label: string; values: string[]; listed: boolean }[]).map((f) => [f.name, f]),
  );
  assert.ok(byName.country.values.includes('DE'), JSON.stringify(byName.country));
  assert.equal(byName.country.listed, true);
  assert.deepEqual(byName.country.values, [...byName.country.values].sort());
  assert.ok(byName.channel.values.length > 1);
  // The dimension each stands for: what a query widget checks for reachability (docs/query.md).
  assert.equal((byName.country as { member?: string }).member, 'orders.country');
  assert.equal((byName.category as { member?: string }).member, 'products.category');
  const searched = await call(t, owner, 'GET', '/api/v1/insights/filters?name=country&q=d');
  assert.deepEqual(
    searched.data.map((f: { name: string }) => f.name),
    ['country'],
  );
  assert.ok(searched.data[0].values.every((v: string) => v.toLowerCase().includes('d')));
  assert.equal((await call(t, owner, 'GET', '/api/v1/insights/filters?colour=red')).statusCode, 400);
  assert.equal((await call(t, undefined, 'GET', '/api/v1/insights/filters')).statusCode, 401);
});
