// A widget or subscription saved under a model that had its insight, after the model changed:
// refresh and send-now answer 409 INSIGHT_NOT_IN_MODEL naming the code, and a delivery already
// queued fails (no retry) with that reason in its log.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.ts';
import { call } from '../../helpers/app.ts';
import { buildNotifyApp, insightSubscription, logs, webhookChannel, type NotifyFixture } from '../../helpers/notify.ts';

let f: NotifyFixture;
let owner: string;

before(async () => {
  f = await buildNotifyApp({ clock: new ManualClock(new Date('2026-03-10T09:15:00.000Z')) });
  owner = await f.t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
});
after(() => f.close());

test('subscription: a queued delivery fails with the reason, send-now answers 409', async () => {
  const channel = await webhookChannel(f, owner);
  const s = await insightSubscription(f, owner, { channel_id: channel });
  const queued = await call(f.t, owner, 'POST', `/api/v1/notifications/subscriptions/${s.id}/send`, {});
  assert.equal(queued.statusCode, 202, queued.body);
  // The model changed: the stored code names an insight it no longer has.
  await f.t.db.query(`UPDATE insight_subscriptions SET insight_code = 'mrr_by_region' WHERE id = $1`, [s.id]);

  const out = await f.t.app.services.deliveryWorker.runOnce();
  assert.deepEqual(
    out.map((o) => o.status),
    ['failed'],
  );
  const log = (await logs(f, owner)).find((l) => l.subscription_id === s.id);
  assert.equal(log.status, 'failed');
  assert.match(log.error_message, /insight "mrr_by_region", which the current model does not define/);

  const again = await call(f.t, owner, 'POST', `/api/v1/notifications/subscriptions/${s.id}/send`, {});
  assert.equal(again.statusCode, 409);
  assert.equal(again.data.code, 'INSIGHT_NOT_IN_MODEL');
  assert.match(again.data.detail, /"mrr_by_region"/);
});

test('widget refresh answers 409 naming the code', async () => {
  const dash = await call(f.t, owner, 'POST', '/api/v1/dashboards', { name: 'Sales' });
  const w = await call(f.t, owner, 'POST', `/api/v1/dashboards/${dash.data.id}/widgets`, {
    title: 'w',
    widget_type: 'chart',
    data_source: 'live_insight',
    insight_code: 'orders_kpi',
  });
  assert.equal(w.statusCode, 201, w.body);
  await f.t.db.query(`UPDATE dashboard_widgets SET insight_code = 'churn_kpi' WHERE id = $1`, [w.data.id]);
  const r = await call(f.t, owner, 'POST', `/api/v1/dashboards/${dash.data.id}/widgets/${w.data.id}/refresh`);
  assert.equal(r.statusCode, 409);
  assert.equal(r.data.code, 'INSIGHT_NOT_IN_MODEL');
  assert.match(r.data.detail, /The widget uses the insight "churn_kpi"/);
});
