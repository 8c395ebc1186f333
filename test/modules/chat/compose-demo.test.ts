// Chat composes on the demo model (eval/compose-questions.json, "demo"): questions that need two
// dimensions, a value filter, a measure condition or a comparison per group, each judged against
// the rows of the semantic query that means it (POST /api/v1/query). Refusals are counted, never
// wrong; a wrong answer fails the test.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.ts';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';
import { composeSets, runSet } from '../../../eval/compose.ts';

const set = composeSets.demo;
let t: TestApp;
let auth: string;

before(async () => {
  t = await buildTestApp({ clock: new ManualClock(new Date(`${set.today}T10:00:00Z`)), env: { INSIGHTS_CHAT_RATE_LIMIT: '100000' } });
  auth = await t.login({ tenant: 'demo', user: 'composer', role: 'member' });
});
after(() => t?.close());

test('demo: at least 25 composition questions, none answered wrong', async () => {
  assert.ok(set.cases.length >= 25);
  const { table, wrong, refused } = await runSet(async (method, url, body) => {
    const res = await call(t, auth, method, url, body);
    return { status: res.statusCode, body: res.data };
  }, set);
  const total = [...table.values()].reduce((s, r) => ({
    right: s.right + r.right,
    refused: s.refused + r.refused,
    wrong: s.wrong + r.wrong,
  }));
  console.log('demo', JSON.stringify(Object.fromEntries(table)), refused.length ? `\nrefused:\n${refused.join('\n')}` : '');
  assert.deepEqual(wrong, []);
  // The demo cases of the issue answer (refusing them all would not be composition).
  assert.ok(total.right >= set.cases.length - 6, `${total.right} right of ${set.cases.length}`);
});
