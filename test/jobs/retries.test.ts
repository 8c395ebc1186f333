import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../helpers/app.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { DeliveriesRepository } from '../../src/modules/deliveries/deliveries.repository.ts';
import { buildNotifyApp, insightSubscription, logs, switchAllOff, webhookChannel, type NotifyFixture } from '../helpers/notify.ts';

const S = 1000;

describe('delivery attempts: retries, backoff, 429, leases', () => {
  let f: NotifyFixture;
  let owner: string;
  let channel: string;
  before(async () => {
    f = await buildNotifyApp({ clock: new ManualClock(new Date()) });
    owner = await f.t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
    channel = await webhookChannel(f, owner);
  });
  after(() => f.close());
  beforeEach(async () => {
    await switchAllOff(f, owner);
    f.t.clock.set(new Date());
  });

  const worker = () => f.t.app.services.deliveryWorker;
  /** A subscription sent now; returns it and its delivery id. */
  async function sendNow() {
    const s = await insightSubscription(f, owner, { channel_id: channel });
    const res = await call(f.t, owner, 'POST', `/api/v1/notifications/subscriptions/${s.id}/send`, {});
    assert.equal(res.statusCode, 202, res.body);
    return { s, deliveryId: res.data.deliveries[0].id as string };
  }

  test('transient failures are retried with exponential backoff up to 5 attempts, each logged, same webhook-id', async () => {
    const { s, deliveryId } = await sendNow();
    f.receiver.answerNext({ status: 500 }, { status: 502 }, { status: 503 }, { status: 500 }, { status: 500 });
    const before = f.receiver.received.length;
    const delays = [30 * S, 60 * S, 120 * S, 240 * S];
    for (let attempt = 1; attempt <= 5; attempt++) {
      const out = await worker().runOnce();
      assert.deepEqual(
        out.map((o) => [o.attempt, o.status]),
        [[attempt, attempt < 5 ? 'retry' : 'failed']],
      );
      if (attempt < 5) {
        // Not due a moment before its backoff is over, due right at it.
        f.t.clock.advance(delays[attempt - 1] - 1);
        assert.equal((await worker().runOnce()).length, 0);
        f.t.clock.advance(1);
      }
    }
    f.t.clock.advance(3_600 * S);
    assert.equal((await worker().runOnce()).length, 0, 'given up after 5 attempts');
    const got = f.receiver.received.slice(before);
    assert.equal(got.length, 5);
    assert.ok(got.every((g) => g.headers['webhook-id'] === deliveryId));
    assert.equal(got[0].verified, true);
    const rows = await logs(f, owner, `?subscription_id=${s.id}`);
    assert.deepEqual(
      rows.map((r) => [r.attempt, r.status]),
      [
        [5, 'failed'],
        [4, 'failed'],
        [3, 'failed'],
        [2, 'failed'],
        [1, 'failed'],
      ],
    );
    assert.ok(rows.every((r) => typeof r.error_message === 'string' && r.error_message.length > 0));
    assert.equal((await logs(f, owner, '?status=failed')).filter((r) => r.subscription_id === s.id).length, 5);
  });

  test('a transient failure then success: two log rows', async () => {
    const { s } = await sendNow();
    f.receiver.answerNext({ status: 503 });
    assert.equal((await worker().runOnce())[0].status, 'retry');
    f.t.clock.advance(30 * S);
    assert.equal((await worker().runOnce())[0].status, 'succeeded');
    const rows = await logs(f, owner, `?subscription_id=${s.id}`);
    assert.deepEqual(
      rows.map((r) => [r.attempt, r.status]),
      [
        [2, 'success'],
        [1, 'failed'],
      ],
    );
  });

  test('a permanent failure (4xx) is not retried', async () => {
    const { s } = await sendNow();
    f.receiver.answerNext({ status: 400, body: 'bad payload' });
    assert.equal((await worker().runOnce())[0].status, 'failed');
    f.t.clock.advance(3_600 * S);
    assert.equal((await worker().runOnce()).length, 0);
    const rows = await logs(f, owner, `?subscription_id=${s.id}`);
    assert.deepEqual(
      rows.map((r) => [r.attempt, r.status]),
      [[1, 'failed']],
    );
    assert.match(rows[0].error_message, /400/);
  });

  test('429 waits for its Retry-After, longer than the backoff', async () => {
    const { s } = await sendNow();
    f.receiver.answerNext({ status: 429, headers: { 'retry-after': '120' } });
    assert.equal((await worker().runOnce())[0].status, 'retry');
    f.t.clock.advance(120 * S - 1);
    assert.equal((await worker().runOnce()).length, 0, 'not before retry_after');
    // Due within the jitter (at most 1 s) after it.
    f.t.clock.advance(1 * S + 1);
    assert.equal((await worker().runOnce())[0].status, 'succeeded');
    const rows = await logs(f, owner, `?subscription_id=${s.id}`);
    assert.deepEqual(
      rows.map((r) => [r.attempt, r.status]),
      [
        [2, 'success'],
        [1, 'failed'],
      ],
    );
  });

  /** Sends once with the scripted answer; returns after how many ms (clock) the retry was due. */
  async function retryDueAfter(
    answer: { status: number; headers?: Record<string, string> },
    upToMs: number,
    stepMs: number,
  ): Promise<number> {
    await sendNow();
    f.receiver.answerNext(answer);
    assert.equal((await worker().runOnce())[0].status, 'retry');
    for (let waited = 0; waited <= upToMs; waited += stepMs) {
      const out = await worker().runOnce();
      if (out.length > 0) {
        assert.equal(out[0].status, 'succeeded');
        return waited;
      }
      f.t.clock.advance(stepMs);
    }
    assert.fail(`not due within ${upToMs} ms`);
  }

  test('a receiver that says "retry in 1 s" is retried after about a second, not after the 30 s backoff', async () => {
    const due = await retryDueAfter({ status: 429, headers: { 'retry-after': '1' } }, 60 * S, 50);
    assert.ok(due >= 1 * S && due <= 1.15 * S, `due after ${due} ms`);
  });

  test('Retry-After on a 503 counts too, in seconds or as an HTTP date', async () => {
    const secs = await retryDueAfter({ status: 503, headers: { 'retry-after': '3' } }, 60 * S, 100);
    assert.ok(secs >= 3 * S && secs <= 3.4 * S, `due after ${secs} ms`);
    // The date is read against the real time (the receiver's clock), to the second.
    const date = await retryDueAfter({ status: 503, headers: { 'retry-after': new Date(Date.now() + 10 * S).toUTCString() } }, 60 * S, 100);
    assert.ok(date >= 8 * S && date <= 11.1 * S, `due after ${date} ms`);
  });

  test('an unreadable Retry-After falls back to the backoff', async () => {
    const due = await retryDueAfter({ status: 503, headers: { 'retry-after': '1.5' } }, 60 * S, 1 * S);
    assert.equal(due, 30 * S);
  });

  test('retry hints do not extend the attempt budget: five 429s and the delivery has failed', async () => {
    const { s } = await sendNow();
    const hint = { status: 429, headers: { 'retry-after': '1' } };
    f.receiver.answerNext(hint, hint, hint, hint, hint);
    for (let attempt = 1; attempt <= 5; attempt++) {
      assert.deepEqual(
        (await worker().runOnce()).map((o) => [o.attempt, o.status]),
        [[attempt, attempt < 5 ? 'retry' : 'failed']],
      );
      f.t.clock.advance(2 * S);
    }
    f.t.clock.advance(3_600 * S);
    assert.equal((await worker().runOnce()).length, 0);
    assert.equal((await logs(f, owner, `?subscription_id=${s.id}`)).length, 5);
  });

  test('a worker that dies mid-delivery: the lease runs out and another sends it, same webhook-id', async () => {
    const { s, deliveryId } = await sendNow();
    const repo = new DeliveriesRepository(f.t.db);
    const now = f.t.clock.now();
    // The dead worker claimed it (lease 60 s) and never finished.
    const claimed = await repo.claim('dead-worker', now, new Date(now.getTime() + 60 * S), 10);
    assert.deepEqual(
      claimed.map((d) => d.id),
      [deliveryId],
    );
    assert.equal((await worker().runOnce()).length, 0, 'leased');
    f.t.clock.advance(60 * S + 1);
    const before = f.receiver.received.length;
    assert.deepEqual(
      (await worker().runOnce()).map((o) => [o.attempt, o.status]),
      [[2, 'succeeded']],
    );
    assert.equal(f.receiver.received[before].headers['webhook-id'], deliveryId);
    // The dead worker's late outcome is refused: nothing is logged twice.
    const late = await repo.finishAttempts('dead-worker', [
      { d: claimed[0], outcome: { status: 'succeeded', error: null, now: f.t.clock.now() }, log: null },
    ]);
    assert.equal(late.size, 0);
    const rows = await logs(f, owner, `?subscription_id=${s.id}`);
    assert.deepEqual(
      rows.map((r) => [r.attempt, r.status]),
      [[2, 'success']],
    );
    assert.equal((await repo.find(deliveryId))!.status, 'succeeded');
  });

  test('a delivery whose worker dies on every attempt stops after 5: failed, logged, not sent again', async () => {
    const { s, deliveryId } = await sendNow();
    const repo = new DeliveriesRepository(f.t.db);
    for (let i = 1; i <= 5; i++) {
      const now = f.t.clock.now();
      const claimed = await repo.claim(`dead-${i}`, now, new Date(now.getTime() + 60 * S), 10);
      assert.deepEqual(
        claimed.map((d) => [d.id, d.attempt]),
        [[deliveryId, i]],
      );
      f.t.clock.advance(60 * S + 1);
    }
    const before = f.receiver.received.length;
    assert.deepEqual(
      (await worker().runOnce()).map((o) => [o.attempt, o.status]),
      [[6, 'failed']],
    );
    assert.equal(f.receiver.received.length, before, 'not sent a sixth time');
    const rows = await logs(f, owner, `?subscription_id=${s.id}`);
    assert.deepEqual(
      rows.map((r) => [r.attempt, r.status]),
      [[5, 'failed']],
    );
    assert.match(rows[0].error_message, /Gave up after 5 attempts/);
    assert.equal((await repo.find(deliveryId))!.status, 'failed');
  });

  test('send-now is stored before the 202 and runs through the same queue', async () => {
    const { s, deliveryId } = await sendNow();
    const stored = await new DeliveriesRepository(f.t.db).find(deliveryId);
    assert.equal(stored!.status, 'pending');
    assert.equal(stored!.trigger, 'manual');
    await worker().runOnce();
    const rows = await logs(f, owner, `?subscription_id=${s.id}`);
    assert.deepEqual(
      rows.map((r) => [r.attempt, r.status, r.subscription_kind]),
      [[1, 'success', 'insight']],
    );
  });
});
