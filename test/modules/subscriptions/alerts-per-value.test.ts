// Alerts per value and anomaly alerts through the scheduler, the worker and a webhook receiver:
// a threshold on a breakdown holds per row and names the rows; on_change tells of rows that
// start to meet it; an anomaly condition finds a spike and a drop injected into the demo data and
// says why in words, per value of a breakdown and of a split time series.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../../helpers/app.ts';
import { ManualClock } from '../../../src/lib/clock.ts';
import { testWarehouse } from '../../helpers/warehouse.ts';
import type { Warehouse } from '../../../src/warehouse/warehouse.ts';
import { buildNotifyApp, drain, insightSubscription, switchAllOff, webhookChannel, type NotifyFixture } from '../../helpers/notify.ts';

// Friday 2026-11-20: the last complete day is Thursday 2026-11-19.
const NOW = new Date('2026-11-20T07:00:00.000Z');

describe('alerts per value and anomaly alerts', () => {
  let f: NotifyFixture;
  let warehouse: Warehouse;
  let owner: string;
  let channel: string;
  const BASE = '/api/v1/notifications/subscriptions';

  before(async () => {
    warehouse = await testWarehouse(NOW, 100_000, ['acme']);
    // Thursday: Canada sold four times its usual, the United States a third.
    await warehouse.exec(`UPDATE orders SET revenue = revenue * 4
      WHERE tenant_id = 'acme' AND country = 'CA' AND CAST(ordered_at AS DATE) = DATE '2026-11-19'`);
    await warehouse.exec(`UPDATE orders SET revenue = revenue * 0.3
      WHERE tenant_id = 'acme' AND country = 'US' AND CAST(ordered_at AS DATE) = DATE '2026-11-19'`);
    f = await buildNotifyApp({ clock: new ManualClock(NOW), deps: { warehouse } });
    owner = await f.t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
    channel = await webhookChannel(f, owner);
  });
  after(async () => {
    await f.close();
    await warehouse.close();
  });

  /** Moves to the next 08:00 UTC slot, ticks and sends; returns the payloads the receiver got. */
  async function slot(): Promise<any[]> {
    const from = f.receiver.received.length;
    const now = f.t.clock.now();
    f.t.clock.set(
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + (now.getUTCHours() >= 8 ? 1 : 0), 8, 0, 1)),
    );
    await f.t.app.services.scheduler.tick();
    await drain(f);
    return f.receiver.received.slice(from).map((r) => r.payload);
  }
  /** A send-now: the report with how the condition stands, whether it holds or not. */
  async function sendNow(id: string): Promise<any> {
    const from = f.receiver.received.length;
    const res = await call(f.t, owner, 'POST', `${BASE}/${id}/send`, {});
    assert.equal(res.statusCode, 202, res.body);
    await drain(f);
    return f.receiver.received.slice(from)[0].payload;
  }

  test('a threshold on a breakdown holds per row; the message names exactly the rows that met it', async () => {
    await switchAllOff(f, owner);
    const s = await insightSubscription(f, owner, {
      channel_id: channel,
      insight_code: 'revenue_by_country',
      granularity: 'day',
      condition: { op: 'above', value: 100000 },
    });
    const p = await sendNow(s.id);
    const expected = p.rows.filter((r: any) => r.revenue > 100000).map((r: any) => r.country);
    assert.ok(expected.length >= 1 && expected.length < p.rows.length, `some rows above, some not: ${JSON.stringify(p.rows)}`);
    assert.deepEqual(
      p.alert.rows.map((r: any) => r.key),
      expected,
    );
    assert.match(p.alert.text, new RegExp(`^Alert: revenue is above 100,000 for ${expected.length} of ${p.rows.length} `));
    for (const c of expected) assert.match(p.alert.text, new RegExp(`${c} €`));
    const below = p.rows.find((r: any) => r.revenue <= 100000).country;
    assert.ok(!p.alert.text.includes(`${below} €`), 'a row under the threshold is not named');
  });

  test('change_below per row reads each row against the previous period', async () => {
    await switchAllOff(f, owner);
    const s = await insightSubscription(f, owner, {
      channel_id: channel,
      insight_code: 'revenue_by_country',
      granularity: 'day',
      condition: { op: 'change_below', value: 1000 },
    });
    const p = await sendNow(s.id);
    assert.ok(
      p.rows.every((r: any) => 'revenue_change_pct' in r),
      'the rows carry their change',
    );
    assert.equal(p.alert.rows.length, p.rows.filter((r: any) => r.revenue_change_pct !== null).length);
    assert.match(p.alert.rows[0].text, /[+−]\d+\.\d% \(€[\d,.]+ against €[\d,.]+\)/);
  });

  test('on_change per row: a row is news when it starts to meet the condition', async () => {
    await switchAllOff(f, owner);
    const s = await insightSubscription(f, owner, {
      channel_id: channel,
      insight_code: 'revenue_by_country',
      granularity: 'day',
      condition: { op: 'above', value: 0 },
      notify: 'on_change',
    });
    const first = await slot();
    assert.equal(first.length, 1, 'the first check sends');
    assert.ok(first[0].alert.rows.some((r: any) => r.key === 'CA'));
    assert.equal((await slot()).length, 0, 'the same rows again: nothing');
    // As if Canada had not met it at the slot before:
    await f.t.db.query(`UPDATE insight_subscriptions SET last_met_keys = last_met_keys - 'CA' WHERE id = $1`, [s.id]);
    const third = await slot();
    assert.equal(third.length, 1);
    assert.match(third[0].alert.text, /New since the slot before: CA\.$/);
  });

  test('an anomaly alert on a breakdown finds the spike and the drop per value, in words', async () => {
    await switchAllOff(f, owner);
    f.t.clock.set(NOW);
    const s = await insightSubscription(f, owner, {
      channel_id: channel,
      insight_code: 'revenue_by_country',
      granularity: 'day',
      condition: { kind: 'anomaly', sensitivity: 'medium' },
    });
    assert.deepEqual(s.condition, { kind: 'anomaly', sensitivity: 'medium' });
    const [p] = await slot();
    assert.ok(p, 'the alert was sent');
    const byKey = new Map(p.alert.rows.map((r: any) => [r.key, r]));
    const ca: any = byKey.get('CA');
    const us: any = byKey.get('US');
    assert.ok(ca && us, JSON.stringify(p.alert.rows));
    assert.match(
      ca.text,
      /^Revenue in CA on Thursday 2026-11-19 was €[\d,.]+, (far )?above the usual €[\d,.]+ ± €[\d,.]+ for a Thursday\.$/,
    );
    assert.match(
      us.text,
      /^Revenue in US on Thursday 2026-11-19 was €[\d,.]+, (far )?below the usual €[\d,.]+ ± €[\d,.]+ for a Thursday\.$/,
    );
    assert.ok(ca.value > ca.expected + 3 * ca.spread && us.value < us.expected - 3 * us.spread);
    assert.match(p.alert.text, /^Alert: unusual revenue \(medium sensitivity\) in \d+ of \d+ — /);
  });

  test('an anomaly alert on a daily series, whole or split by a filter’s values', async () => {
    await switchAllOff(f, owner);
    const whole = await insightSubscription(f, owner, {
      channel_id: channel,
      insight_code: 'revenue',
      granularity: 'day',
      filters: { country: 'US' },
      condition: { kind: 'anomaly' },
    });
    let p = await sendNow(whole.id);
    assert.equal(p.alert.met, true);
    assert.match(
      p.alert.text,
      /^Alert: unusual revenue \(medium sensitivity\) — Revenue on Thursday 2026-11-19 was €[\d,.]+, (far )?below the usual/,
    );
    assert.ok(p.rows.length >= 60, 'the report shows the history it was judged against');

    const split = await insightSubscription(f, owner, {
      channel_id: channel,
      insight_code: 'revenue',
      granularity: 'day',
      filters: { country: ['US', 'CA', 'DE'] },
      condition: { kind: 'anomaly', sensitivity: 'low' },
    });
    p = await sendNow(split.id);
    const keys = p.alert.rows.map((r: any) => r.key).sort();
    assert.ok(keys.includes('CA') && keys.includes('US'), p.alert.text);
  });

  test('anomaly conditions refused where there is no history to read', async () => {
    const res = await call(f.t, owner, 'POST', BASE, {
      insight_code: 'revenue_kpi',
      channel_id: channel,
      schedule: 'daily',
      granularity: 'day',
      condition: { kind: 'anomaly' },
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.data.errors[0].path, '/body/condition/kind');
  });
});
