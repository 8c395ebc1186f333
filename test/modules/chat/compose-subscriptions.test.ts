// Chat composes on a model nobody here wrote for chat (examples/subscriptions, its data files as
// shipped): questions that need two dimensions, a value filter, a measure condition or a comparison
// per group, each judged against the rows of the semantic query that means it. Refusals are
// counted, never wrong; a wrong answer fails the test.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.ts';
import { DuckDbWarehouse } from '../../../src/warehouse/duckdb/duckdb.ts';
import type { Warehouse } from '../../../src/warehouse/warehouse.ts';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';
import { composeSets, loadSubscriptions, runSet } from '../../../eval/compose.ts';

const set = composeSets.subscriptions;
let t: TestApp;
let wh: Warehouse;
let auth: string;

before(async () => {
  wh = await DuckDbWarehouse.open(':memory:');
  await loadSubscriptions((sql) => wh.exec(sql), 'acme');
  t = await buildTestApp({
    clock: new ManualClock(new Date(`${set.today}T10:00:00Z`)),
    env: { INSIGHTS_MODEL: path.join(import.meta.dirname, '../../..', set.model!), INSIGHTS_CHAT_RATE_LIMIT: '100000' },
    deps: { warehouse: wh },
  });
  auth = await t.login({ tenant: 'acme', user: 'composer', role: 'member' });
});
after(async () => {
  await t?.close();
  await wh?.close();
});

test('subscriptions: at least 25 composition questions, none answered wrong', async () => {
  assert.ok(set.cases.length >= 25);
  const { table, wrong, refused } = await runSet(async (method, url, body) => {
    const res = await call(t, auth, method, url, body);
    return { status: res.statusCode, body: res.data };
  }, set);
  const right = [...table.values()].reduce((s, r) => s + r.right, 0);
  console.log('subscriptions', JSON.stringify(Object.fromEntries(table)), refused.length ? `\nrefused:\n${refused.join('\n')}` : '');
  assert.deepEqual(wrong, []);
  assert.ok(right >= set.cases.length - 6, `${right} right of ${set.cases.length}`);
});
