// Several instances on one PostgreSQL: each (subscription, slot, channel) is delivered once, and a
// worker killed with SIGKILL mid-batch loses nothing. PostgreSQL only (PGlite is one process).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { EgressGuard } from '../../src/adapters/egress.ts';
import { PostgresDb } from '../../src/db/postgres.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { SecretBox } from '../../src/lib/secrets.ts';
import { usingPostgres } from '../helpers/db.ts';
import { testWarehouse } from '../helpers/warehouse.ts';
import { call } from '../helpers/app.ts';
import { childEnv, ROOT } from '../helpers/process.ts';
import type { Warehouse } from '../../src/warehouse/warehouse.ts';
import { buildNotifyApp, dashboard, insightSubscription, receivedBy, soon, webhookChannel, type NotifyFixture } from '../helpers/notify.ts';

const skip = usingPostgres ? false : 'needs PostgreSQL (DATABASE_URL): several processes share one database';

describe('several instances on one PostgreSQL', { skip }, () => {
  const key = crypto.randomBytes(32);
  const clock = new ManualClock(new Date(Date.now()));
  let f: NotifyFixture;
  let owner: string;
  let schema: string;
  let second: { app: FastifyInstance; db: PostgresDb; warehouse: Warehouse; egress: EgressGuard };
  before(async () => {
    f = await buildNotifyApp({ clock, deps: { secrets: new SecretBox(key) } });
    owner = await f.t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
    schema = (await f.t.db.query<{ s: string }>('SELECT current_schema() AS s'))[0].s;
    const db = new PostgresDb(process.env.DATABASE_URL!, { schema, max: 5 });
    const warehouse = await testWarehouse(clock.now(), 500);
    const egress = new EgressGuard(['127.0.0.0/8'], { ca: f.receiver.ca });
    const app = await buildApp({ config: f.t.config, db, clock, secrets: new SecretBox(key), egress, warehouse, logger: false });
    await app.ready();
    second = { app, db, warehouse, egress };
  });
  after(async () => {
    await second?.app.close();
    await second?.db.close();
    await second?.warehouse.close();
    await second?.egress.close();
    await f?.close();
  });

  test('two instances ticking and working at once send each slot exactly once per channel', async () => {
    clock.set(new Date());
    const { time, slot } = soon();
    const ch = await webhookChannel(f, owner);
    const ch2 = await webhookChannel(f, owner, '/two');
    const subs = [];
    for (let i = 0; i < 40; i++) subs.push((await insightSubscription(f, owner, { channel_id: ch, schedule_time: time })).id);
    const d = await dashboard(f, owner, 'Shared board');
    const ds = await call(f.t, owner, 'POST', `/api/v1/dashboards/${d}/subscriptions`, {
      dashboard_id: d,
      dashboard_name: 'x',
      channel_ids: [ch, ch2],
      schedule: 'daily',
      schedule_time: time,
    });
    assert.equal(ds.statusCode, 201);
    clock.set(slot);
    const a = f.t.app.services;
    const b = second.app.services;
    const ticks = await Promise.all([a.scheduler.tick(), b.scheduler.tick(), a.scheduler.tick(), b.scheduler.tick()]);
    assert.equal(
      ticks.reduce((n, t) => n + t.enqueued, 0),
      42,
    );
    const work = async (s: typeof a) => {
      let n = 0;
      for (let out = await s.deliveryWorker.runOnce(5); out.length; out = await s.deliveryWorker.runOnce(5)) n += out.length;
      return n;
    };
    const before = [receivedBy(f, ch).length, receivedBy(f, ch2).length];
    const [na, nb, nc, nd] = await Promise.all([work(a), work(b), work(a), work(b)]);
    assert.ok(na + nc > 0 && nb + nd > 0, `both instances worked (${na + nc}, ${nb + nd})`);
    const got = [...receivedBy(f, ch, before[0]), ...receivedBy(f, ch2, before[1])];
    assert.ok(got.every((g) => g.verified));
    assert.equal(got.length, 42);
    assert.equal(new Set(got.map((g) => g.headers['webhook-id'])).size, 42);
    const perSub = new Map<string, number>();
    for (const g of got)
      perSub.set(`${g.payload.subscription_id}:${g.path}`, (perSub.get(`${g.payload.subscription_id}:${g.path}`) ?? 0) + 1);
    for (const id of subs) assert.equal(perSub.get(`${id}:/hook`), 1);
    assert.equal(perSub.get(`${ds.data.id}:/hook`), 1);
    assert.equal(perSub.get(`${ds.data.id}:/two`), 1);
    const logs = await f.t.db.query(`SELECT status, count(*)::int AS n FROM delivery_logs GROUP BY status`);
    assert.deepEqual(logs, [{ status: 'success', n: 42 }]);
  });

  test('a worker killed with SIGKILL mid-batch loses no delivery; a repeat carries the same webhook-id', { timeout: 60_000 }, async () => {
    clock.set(new Date());
    const ch = await webhookChannel(f, owner, '/kill');
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const s = await insightSubscription(f, owner, { channel_id: ch });
      const res = await call(f.t, owner, 'POST', `/api/v1/notifications/subscriptions/${s.id}/send`, {});
      ids.push(res.data.deliveries[0].id);
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kill-'));
    const caFile = path.join(dir, 'ca.pem');
    fs.writeFileSync(caFile, f.receivers.get(ch)!.ca);
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/helpers/worker-child.ts')], {
      cwd: ROOT,
      env: childEnv({
        CHILD_DATABASE_URL: process.env.DATABASE_URL!,
        CHILD_SCHEMA: schema,
        CHILD_CA_FILE: caFile,
        CHILD_MASTER_KEY: key.toString('base64'),
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const before = () => receivedBy(f, ch);
    const deadline = Date.now() + 40_000;
    while (before().length < 3) {
      if (Date.now() > deadline) throw new Error(`child sent nothing: ${stderr}`);
      await new Promise((r) => setTimeout(r, 2));
    }
    child.kill('SIGKILL');
    await exited;
    const sentByChild = before().length;
    assert.ok(sentByChild < 30, `killed mid-batch (${sentByChild} of 30 sent)`);
    const running = await f.t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM deliveries WHERE status = 'running'`);
    assert.ok(running[0].n > 0, 'the dead worker held claimed deliveries');

    // A restarted worker takes them over once their lease has run out.
    assert.equal((await f.t.app.services.deliveryWorker.runOnce(100)).length, 0, 'still leased');
    clock.set(new Date(Date.now() + 61_000));
    for (
      let out = await f.t.app.services.deliveryWorker.runOnce(100);
      out.length;
      out = await f.t.app.services.deliveryWorker.runOnce(100)
    );
    const got = before();
    const received = new Set(got.map((g) => g.headers['webhook-id']));
    assert.deepEqual([...received].sort(), [...ids].sort(), 'every delivery arrived');
    for (const g of got) {
      assert.equal(g.verified, true);
      assert.equal(g.payload.id, g.headers['webhook-id']);
    }
    const states = await f.t.db.query(`SELECT status, count(*)::int AS n FROM deliveries WHERE id = ANY($1::text[]) GROUP BY status`, [
      ids,
    ]);
    assert.deepEqual(states, [{ status: 'succeeded', n: 30 }]);
    const successes = await f.t.db.query<{ n: number }>(
      `SELECT count(DISTINCT delivery_id)::int AS n FROM delivery_logs WHERE delivery_id = ANY($1::text[]) AND status = 'success'`,
      [ids],
    );
    assert.equal(successes[0].n, 30);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
