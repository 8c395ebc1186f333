// A channel whose secrets were sealed under another master key (INSIGHTS_MASTER_KEY or the data
// dir's master.key changed, or a database shared with a service that has another key): its
// deliveries fail at once with that reason in the log, the other deliveries of the same batch are
// sent, the channel test answers 409, and saving the config again makes the channel work.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, test } from 'node:test';
import { SecretBox } from '../../../src/lib/secrets.ts';
import { ManualClock } from '../../../src/lib/clock.ts';
import { call } from '../../helpers/app.ts';
import { buildNotifyApp, insightSubscription, logs, receivedBy, webhookChannel, type NotifyFixture } from '../../helpers/notify.ts';

let f: NotifyFixture;
let owner: string;
const errors: unknown[] = [];

before(async () => {
  f = await buildNotifyApp({ clock: new ManualClock(new Date('2026-03-10T09:15:00.000Z')) });
  owner = await f.t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
});
after(() => f.close());

test('a channel sealed under another master key fails its deliveries with the reason, not the batch', async () => {
  const good = await webhookChannel(f, owner, '/good');
  const bad = await webhookChannel(f, owner, '/bad');
  const other = new SecretBox(crypto.randomBytes(32));
  await f.t.db.query(`UPDATE notification_channels SET secrets = $2::jsonb WHERE id = $1`, [
    bad,
    JSON.stringify({ signing_secret: other.seal('whsec_' + 'A'.repeat(32)) }),
  ]);

  const sGood = await insightSubscription(f, owner, { channel_id: good });
  const sBad = await insightSubscription(f, owner, { channel_id: bad });
  for (const s of [sGood, sBad])
    assert.equal((await call(f.t, owner, 'POST', `/api/v1/notifications/subscriptions/${s.id}/send`, {})).statusCode, 202);

  const out = await f.t.app.services.deliveryWorker.runOnce();
  assert.deepEqual(out.map((o) => o.status).sort(), ['failed', 'succeeded'], 'one bad channel does not hold back the batch');
  assert.equal(receivedBy(f, good).length, 1);
  assert.equal(receivedBy(f, bad).length, 0);
  const log = (await logs(f, owner)).find((l) => l.subscription_id === sBad.id);
  assert.equal(log.status, 'failed');
  assert.match(log.error_message, /signing_secret was sealed under another master key/);
  assert.equal(errors.length, 0);

  // Nothing retries it: the next run finds nothing due.
  assert.deepEqual(await f.t.app.services.deliveryWorker.runOnce(), []);

  const tested = await call(f.t, owner, 'POST', `/api/v1/notifications/channels/${bad}/test`);
  assert.equal(tested.statusCode, 409, tested.body);
  assert.equal(tested.headers['content-type'], 'application/problem+json; charset=utf-8');
  assert.match(tested.data.detail, /save the channel's config again/);

  const listed = (await call(f.t, owner, 'GET', '/api/v1/notifications/channels')).data.find((c: any) => c.id === bad);
  assert.equal(listed.config.signing_secret, '****', 'the list still answers, the unreadable secret masked');

  // Saving the config again (a new signing secret is generated) makes the channel usable.
  const saved = await call(f.t, owner, 'PATCH', `/api/v1/notifications/channels/${bad}`, {
    config: { webhook_url: `${f.receivers.get(bad)!.origin}/bad` },
  });
  assert.equal(saved.statusCode, 200, saved.body);
  const outbound = await f.t.app.services.channels.getForDelivery('acme', bad);
  assert.equal(outbound?.unreadable, undefined);
  assert.match(outbound!.config.signing_secret, /^whsec_/);
});
