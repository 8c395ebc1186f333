// Shared setup for the notification tests: an app whose egress guard trusts the loopback webhook
// receiver, and helpers to create channels, subscriptions and dashboards through the API.
import assert from 'node:assert/strict';
import { EgressGuard } from '../../src/adapters/egress.ts';
import { buildTestApp, call, type TestApp, type TestAppOptions } from './app.ts';
import { startWebhookReceiver, type FakeWebhookReceiver } from '../fakes/webhook-receiver.ts';

export interface NotifyFixture {
  t: TestApp;
  /** The receiver of the first webhook channel. */
  receiver: FakeWebhookReceiver;
  /** Each webhook channel's own receiver (a receiver verifies with one channel's secret). */
  receivers: Map<string, FakeWebhookReceiver>;
  close(): Promise<void>;
}

export async function buildNotifyApp(options: TestAppOptions = {}): Promise<NotifyFixture> {
  const receiver = await startWebhookReceiver();
  const egress = new EgressGuard(['127.0.0.0/8'], { ca: receiver.ca });
  const t = await buildTestApp({ ...options, deps: { egress, ...options.deps } });
  const receivers = new Map<string, FakeWebhookReceiver>();
  return {
    t,
    receiver,
    receivers,
    async close() {
      await t.close();
      await egress.close();
      await receiver.close();
      for (const r of receivers.values()) if (r !== receiver) await r.close();
    },
  };
}

/**
 * A webhook channel posting to a receiver of its own (the fixture's first receiver for the first
 * channel), which learns the channel's signing secret. f.receivers maps the channel id to it.
 */
export async function webhookChannel(f: NotifyFixture, auth: string, path = '/hook'): Promise<string> {
  const receiver = f.receivers.size === 0 ? f.receiver : await startWebhookReceiver();
  const res = await call(f.t, auth, 'POST', '/api/v1/notifications/channels', {
    channel_type: 'webhook',
    config: { webhook_url: `${receiver.origin}${path}` },
  });
  assert.equal(res.statusCode, 201, res.body);
  const tenant = (await f.t.app.services.tokens.authenticate(auth.replace(/^Svc /, '')))!.tenantId;
  const channel = await f.t.app.services.channels.getForDelivery(tenant, res.data.id);
  receiver.secret = signingSecret(channel!.config);
  f.receivers.set(res.data.id, receiver);
  return res.data.id;
}

/** What a channel's receiver got, from index `from` on. */
export function receivedBy(f: NotifyFixture, channelId: string, from = 0) {
  return f.receivers.get(channelId)!.received.slice(from);
}

export function signingSecret(config: Record<string, string>): string {
  const secret = Object.entries(config).find(([k]) => /secret/.test(k))?.[1];
  assert.ok(secret, 'the webhook channel has a signing secret');
  return secret;
}

export async function insightSubscription(f: NotifyFixture, auth: string, body: Record<string, unknown>) {
  const res = await call(f.t, auth, 'POST', '/api/v1/notifications/subscriptions', {
    insight_code: 'revenue',
    schedule: 'daily',
    granularity: 'month',
    ...body,
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.data;
}

export async function dashboard(f: NotifyFixture, auth: string, name = 'Sales'): Promise<string> {
  const res = await call(f.t, auth, 'POST', '/api/v1/dashboards', { name });
  assert.equal(res.statusCode, 201, res.body);
  return res.data.id;
}

export async function logs(f: NotifyFixture, auth: string, query = ''): Promise<any[]> {
  const res = await call(f.t, auth, 'GET', `/api/v1/notifications/logs${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return res.data;
}

/** Runs the worker until nothing is due at the current (manual) time. */
export async function drain(f: NotifyFixture): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await f.t.app.services.deliveryWorker.runOnce()).length === 0) return;
  }
  throw new Error('the queue did not drain');
}

/** Switches every subscription of the caller's tenant off, so a test's ticks see only its own. */
export async function switchAllOff(f: NotifyFixture, auth: string): Promise<void> {
  for (const s of (await call(f.t, auth, 'GET', '/api/v1/notifications/subscriptions')).data) {
    if (s.is_active) await call(f.t, auth, 'PATCH', `/api/v1/notifications/subscriptions/${s.id}`, { is_active: false });
  }
  for (const s of (await call(f.t, auth, 'GET', '/api/v1/dashboards/subscriptions')).data) {
    if (s.is_active) await call(f.t, auth, 'PATCH', `/api/v1/dashboards/subscriptions/${s.id}`, { is_active: false });
  }
}

/**
 * A slot `minutes` ahead of the real time, as HH:mm. Sends are signed with the clock's time and
 * the receiver checks the timestamp against the real time (5 min tolerance, as the Standard
 * Webhooks reference does), so tests that check signatures keep the clock near the real time.
 */
export function soon(minutes = 2): { time: string; slot: Date } {
  const slot = new Date(Math.floor((Date.now() + minutes * 60_000) / 60_000) * 60_000);
  return { time: slot.toISOString().slice(11, 16), slot };
}
