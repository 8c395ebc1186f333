// Alert conditions: what the headline value is, when a condition holds, and what a scheduled slot
// does with it (send, or skip with no log row) — through the API, the scheduler and the worker.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../../helpers/app.ts';
import { ManualClock } from '../../../src/lib/clock.ts';
import { evaluateCondition, type AlertShape } from '../../../src/modules/subscriptions/alert-condition.ts';
import { InsightSubscriptionsRepository } from '../../../src/modules/subscriptions/insight-subscriptions.repository.ts';
import {
  buildNotifyApp,
  drain,
  insightSubscription,
  logs,
  switchAllOff,
  webhookChannel,
  type NotifyFixture,
} from '../../helpers/notify.ts';

const KPI: AlertShape = { kind: 'kpi', measures: ['value'] };
const SERIES: AlertShape = { kind: 'timeseries', measures: ['revenue', 'orders'], defaultMeasure: 'revenue' };
const kpi = (value: number, previous: number, change: number | null) => ({
  granularity: 'month',
  period: { from: '2026-10-24', to: '2026-11-22' },
  rows: [{ period_from: '2026-10-24', period_to: '2026-11-22', value, previous_value: previous, change_pct: change }],
});
const series = (granularity: string, to: string, rows: [string, number, number][]) => ({
  granularity,
  period: { from: rows[0][0], to },
  rows: rows.map(([period, revenue, orders]) => ({ period, revenue, orders })),
});

describe('alert conditions on the headline value', () => {
  test('KPI: the current value; change_* the change against the previous window, in percent', () => {
    const r = kpi(1200, 1000, 20);
    assert.equal(evaluateCondition({ op: 'above', value: 1000 }, KPI, r).met, true);
    assert.equal(evaluateCondition({ op: 'above', value: 1200 }, KPI, r).met, false, 'strictly above');
    assert.equal(evaluateCondition({ op: 'below', value: 1500 }, KPI, r).met, true);
    assert.equal(evaluateCondition({ op: 'change_above', value: 15 }, KPI, r).met, true);
    assert.equal(evaluateCondition({ op: 'change_above', value: 25 }, KPI, r).met, false);
    assert.equal(evaluateCondition({ op: 'change_below', value: -10 }, KPI, kpi(800, 1000, -20)).met, true);
    // No previous value: no change, so a change condition cannot hold.
    const none = evaluateCondition({ op: 'change_below', value: 0 }, KPI, kpi(5, 0, null));
    assert.equal(none.met, false);
    assert.equal(none.observed, null);
    const c = evaluateCondition({ op: 'above', value: 1000 }, KPI, r);
    assert.equal(c.text, 'Alert: value is above 1,000 — the value for 2026-10-24 – 2026-11-22 is 1,200.');
  });

  test("time series: the last complete period (today's is still running), change against the one before", () => {
    // The window ends 2026-11-22: the day row of the 22nd is incomplete, the 21st is the headline.
    const r = series('day', '2026-11-22', [
      ['2026-11-20', 100, 4],
      ['2026-11-21', 150, 5],
      ['2026-11-22', 10, 1],
    ]);
    const c = evaluateCondition({ op: 'above', value: 120 }, SERIES, r);
    assert.deepEqual([c.met, c.value, c.period, c.measure], [true, 150, '2026-11-21', 'revenue']);
    assert.equal(evaluateCondition({ op: 'change_above', value: 49 }, SERIES, r).change_pct, 50);
    assert.equal(evaluateCondition({ op: 'change_above', value: 50 }, SERIES, r).met, false);
    assert.equal(evaluateCondition({ op: 'below', value: 5, measure: 'orders' }, SERIES, r).met, false);
    assert.equal(evaluateCondition({ op: 'below', value: 6, measure: 'orders' }, SERIES, r).value, 5);
    // Months: November is running on the 22nd, October is the last complete one.
    const m = series('month', '2026-11-22', [
      ['2026-09-01', 900, 1],
      ['2026-10-01', 1000, 1],
      ['2026-11-01', 300, 1],
    ]);
    const mc = evaluateCondition({ op: 'change_above', value: 10 }, SERIES, m);
    assert.deepEqual([mc.period, mc.value, Math.round(mc.change_pct! * 100) / 100, mc.met], ['2026-10-01', 1000, 11.11, true]);
    assert.match(mc.text, /^Alert: revenue changed by more than \+10\.0% — the value for 2026-10-01 is \+11\.1% \(1,000 against 900\)\.$/);
    // Weeks start on Monday; the week of Mon 2026-11-16 ends Sun 22nd: complete only on the 23rd.
    const w = series('week', '2026-11-22', [
      ['2026-11-09', 1, 1],
      ['2026-11-16', 2, 1],
    ]);
    assert.equal(evaluateCondition({ op: 'above', value: 0 }, SERIES, w).period, '2026-11-09');
    assert.equal(
      evaluateCondition({ op: 'above', value: 0 }, SERIES, { ...w, period: { ...w.period, to: '2026-11-23' } }).period,
      '2026-11-16',
    );
  });
});

describe('alerts through the scheduler and the worker', () => {
  let f: NotifyFixture;
  let owner: string;
  let channel: string;
  const BASE = '/api/v1/notifications/subscriptions';
  before(async () => {
    f = await buildNotifyApp({ clock: new ManualClock(new Date('2026-11-20T07:00:00.000Z')) });
    owner = await f.t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
    channel = await webhookChannel(f, owner);
  });
  after(() => f.close());

  const tick = () => f.t.app.services.scheduler.tick();
  const get = async (id: string) => (await call(f.t, owner, 'GET', BASE)).data.find((x: any) => x.id === id);
  const deliveries = async (id: string) =>
    (
      await f.t.db.query<{ status: string; slot_at: Date }>(
        'SELECT status, slot_at FROM deliveries WHERE subscription_id = $1 ORDER BY slot_at',
        [id],
      )
    ).map((d) => d.status);
  /** Moves to the next 08:00 UTC slot, ticks and sends; returns the payloads the receiver got. */
  async function slot(): Promise<any[]> {
    const from = f.receiver.received.length;
    const now = f.t.clock.now();
    f.t.clock.set(
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + (now.getUTCHours() >= 8 ? 1 : 0), 8, 0, 1)),
    );
    await tick();
    await drain(f);
    return f.receiver.received.slice(from).map((r) => r.payload);
  }

  test('validation names the condition fields', async () => {
    const bad = async (body: Record<string, unknown>, path: string, code = 'revenue_kpi') => {
      const res = await call(f.t, owner, 'POST', BASE, {
        insight_code: code,
        channel_id: channel,
        schedule: 'daily',
        granularity: 'month',
        ...body,
      });
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
      assert.ok(
        res.data.errors.some((e: any) => e.path === path),
        `${path} in ${res.body}`,
      );
    };
    await bad({ condition: { op: 'over', value: 1 } }, '/body/condition/op');
    await bad({ condition: { op: 'above', value: 'high' } }, '/body/condition/value');
    await bad({ condition: { op: 'above' } }, '/body/condition/value');
    await bad({ condition: { op: 'above', value: 1, extra: 1 } }, '/body/condition/extra');
    await bad({ condition: { op: 'above', value: 1, measure: 'orders' } }, '/body/condition/measure');
    await bad({ condition: { op: 'above', value: 1, measure: 'nope' } }, '/body/condition/measure', 'revenue');
    // A breakdown's condition holds per row (alerts-per-value.test.ts); a KPI has no history to judge.
    await bad({ condition: { kind: 'anomaly' } }, '/body/condition/kind', 'revenue_kpi');
    await bad({ condition: { kind: 'anomaly', sensitivity: 'extreme' } }, '/body/condition/sensitivity', 'revenue');
    await bad({ condition: { op: 'above', value: 1, measure: 'nope' } }, '/body/condition/measure', 'revenue_by_country');
    await bad({ notify: 'sometimes', condition: { op: 'above', value: 1 } }, '/body/notify');
    await bad({ notify: 'on_change' }, '/body/notify');
    // A cohort's retention triangle has no value a condition could read: refused, not accepted and never met.
    await bad({ condition: { op: 'below', value: 20 } }, '/body/condition', 'customer_retention');
    await bad({ condition: { kind: 'anomaly' } }, '/body/condition', 'customer_retention');
  });

  test('a slot whose condition does not hold sends nothing and logs nothing; the subscription shows the check', async () => {
    await switchAllOff(f, owner);
    const s = await insightSubscription(f, owner, {
      channel_id: channel,
      insight_code: 'revenue_kpi',
      condition: { op: 'above', value: 1e15 },
    });
    assert.deepEqual(s.condition, { op: 'above', value: 1e15 });
    assert.equal(s.notify, 'every_time');
    assert.equal(s.last_checked_at, null);
    assert.equal(s.last_condition_met, null);
    assert.deepEqual(await slot(), []);
    assert.deepEqual(await logs(f, owner, `?subscription_id=${s.id}`), []);
    assert.deepEqual(await deliveries(s.id), ['skipped']);
    const after = await get(s.id);
    assert.equal(after.last_checked_at, '2026-11-20T08:00:00.000Z');
    assert.equal(after.last_condition_met, false);
    assert.equal(after.next_run_at, '2026-11-21T08:00:00.000Z');

    // Send-now always sends (a manual test), says how the condition stands, and records no check.
    assert.equal((await call(f.t, owner, 'POST', `${BASE}/${s.id}/send`)).statusCode, 202);
    const from = f.receiver.received.length;
    await drain(f);
    const sent = f.receiver.received.slice(from).map((r) => r.payload);
    assert.equal(sent.length, 1);
    assert.equal(sent[0].alert.met, false);
    assert.match(sent[0].alert.text, /^Condition value is above 1,000,000,000,000,000 does not hold — the value for .* is [\d,]+\.$/);
    assert.equal((await get(s.id)).last_checked_at, '2026-11-20T08:00:00.000Z');
    assert.equal((await logs(f, owner, `?subscription_id=${s.id}`)).length, 1);
  });

  test('a condition that holds sends every time, saying which condition and the value', async () => {
    await switchAllOff(f, owner);
    const exec = await call(f.t, owner, 'GET', '/api/v1/insights/revenue_kpi/execute?granularity=month');
    assert.equal(exec.statusCode, 200, exec.body);
    const s = await insightSubscription(f, owner, {
      channel_id: channel,
      insight_code: 'revenue_kpi',
      condition: { op: 'below', value: 1e15 },
    });
    for (let i = 0; i < 2; i++) {
      const got = await slot();
      assert.equal(got.length, 1);
      assert.equal(got[0].type, 'insight.report');
      assert.equal(got[0].alert.met, true);
      assert.deepEqual(got[0].alert.condition, { op: 'below', value: 1e15 });
      assert.equal(got[0].alert.measure, 'value');
      assert.equal(got[0].alert.value, got[0].rows[0].value);
      assert.match(got[0].alert.text, /^Alert: value is below 1,000,000,000,000,000 — the value for \S+ – \S+ is [\d,]+\.$/);
    }
    assert.deepEqual(
      (await logs(f, owner, `?subscription_id=${s.id}`)).map((l) => l.status),
      ['success', 'success'],
    );
    assert.equal((await get(s.id)).last_condition_met, true);
  });

  test('notify on_change: sends when the condition becomes true, not while it stays true', async () => {
    await switchAllOff(f, owner);
    const s = await insightSubscription(f, owner, {
      channel_id: channel,
      insight_code: 'revenue',
      condition: { op: 'above', value: -1 },
      notify: 'on_change',
    });
    assert.equal(s.notify, 'on_change');
    assert.equal((await slot()).length, 1, 'never checked before: the first slot that holds sends');
    assert.equal((await slot()).length, 0, 'still true: nothing');
    assert.equal((await get(s.id)).last_condition_met, true);
    // A slot where it did not hold (as a slot with a lower value would have recorded)…
    await f.t.db.query('UPDATE insight_subscriptions SET last_condition_met = false WHERE id = $1', [s.id]);
    const got = await slot();
    assert.equal(got.length, 1, '…then true again: sends');
    assert.equal(got[0].alert.measure, 'revenue');
    assert.deepEqual(await deliveries(s.id), ['succeeded', 'skipped', 'succeeded']);
    assert.equal((await logs(f, owner, `?subscription_id=${s.id}`)).length, 2);
  });

  test('a retry of a slot compares with the state before that slot (so on_change still sends it)', async () => {
    await switchAllOff(f, owner);
    const s = await insightSubscription(f, owner, {
      channel_id: channel,
      insight_code: 'revenue',
      condition: { op: 'above', value: -1 },
      notify: 'on_change',
    });
    const repo = new InsightSubscriptionsRepository(f.t.db);
    const first = new Date('2027-01-01T08:00:00Z');
    assert.deepEqual(await repo.recordCheck(s.id, first, true, ['FR']), { before: null, beforeKeys: null });
    assert.deepEqual(await repo.recordCheck(s.id, first, true, ['FR']), { before: null, beforeKeys: null }, 'the same slot again');
    assert.deepEqual(await repo.recordCheck(s.id, new Date('2027-01-02T08:00:00Z'), false), { before: true, beforeKeys: ['FR'] });
    assert.deepEqual(await repo.recordCheck(s.id, new Date('2027-01-03T08:00:00Z'), true), { before: false, beforeKeys: [] });
  });
});
