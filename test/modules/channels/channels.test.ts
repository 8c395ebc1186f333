// Channel CRUD through the API: config rules per type, roles, tenants, secrets masked and sealed at
// rest, PATCH semantics (reset is_verified, masked secret kept), delete cascade hooks.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';

const BOT_TOKEN = '123456789:AAH-abcdefghijklmnopqrstuvwxyz012345';
const messenger = { channel_type: 'messenger', config: { bot_token: BOT_TOKEN, chat_id: '-1001234' } };

describe('notification channels: CRUD', () => {
  let t: TestApp;
  let owner: string;
  let admin: string;
  let member: string;
  let member2: string;
  let stranger: string;
  before(async () => {
    t = await buildTestApp();
    owner = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
    admin = await t.login({ tenant: 'acme', user: 'ada', role: 'admin' });
    member = await t.login({ tenant: 'acme', user: 'max', role: 'member' });
    member2 = await t.login({ tenant: 'acme', user: 'mia', role: 'member' });
    stranger = await t.login({ tenant: 'globex', user: 'gus', role: 'owner' });
  });
  after(() => t.close());

  test('create a messenger channel: 201, contract fields, token masked, not verified', async () => {
    const res = await call(t, owner, 'POST', '/api/v1/notifications/channels', messenger);
    assert.equal(res.statusCode, 201);
    assert.deepEqual(Object.keys(res.data).sort(), ['channel_type', 'config', 'created_at', 'id', 'is_verified', 'name']);
    assert.equal(res.data.channel_type, 'messenger');
    assert.equal(res.data.is_verified, false);
    assert.equal(res.data.config.chat_id, '-1001234');
    assert.equal(res.data.config.bot_token, '1234****2345');
    assert.match(res.data.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(!JSON.stringify(res.data).includes(BOT_TOKEN));
  });

  test('config is checked per type: unknown keys, missing keys and bad values are 400 naming /body/config/<key>', async () => {
    const cases: [unknown, string[]][] = [
      [
        { channel_type: 'messenger', config: { bot_token: BOT_TOKEN, chat_id: '1', webhook_url: 'https://x.example' } },
        ['/body/config/webhook_url'],
      ],
      [{ channel_type: 'messenger', config: { chat_id: '1' } }, ['/body/config/bot_token']],
      [{ channel_type: 'messenger', config: { bot_token: 'nope', chat_id: 'abc' } }, ['/body/config/bot_token', '/body/config/chat_id']],
      [{ channel_type: 'email', config: { email: 'not-an-address' } }, ['/body/config/email']],
      [{ channel_type: 'email', config: { email: 'a@b.example\r\nBcc: x@y.example' } }, ['/body/config/email']],
      [{ channel_type: 'email', config: {} }, ['/body/config/email']],
      [{ channel_type: 'webhook', config: { webhook_url: 'http://hooks.example/x' } }, ['/body/config/webhook_url']],
      [{ channel_type: 'webhook', config: { webhook_url: 'https://user:pw@hooks.example/x' } }, ['/body/config/webhook_url']],
      [
        { channel_type: 'webhook', config: { webhook_url: 'https://hooks.example/x', signing_secret: 'plain' } },
        ['/body/config/signing_secret'],
      ],
      [{ channel_type: 'webhook', config: { webhook_url: 'https://hooks.example/x', extra: '1' } }, ['/body/config/extra']],
    ];
    for (const [body, paths] of cases) {
      const res = await call(t, owner, 'POST', '/api/v1/notifications/channels', body);
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.equal(res.data.code, 'VALIDATION_FAILED');
      assert.deepEqual(res.data.errors.map((e: any) => e.path).sort(), paths.sort(), JSON.stringify(body));
    }
    const badType = await call(t, owner, 'POST', '/api/v1/notifications/channels', { channel_type: 'sms', config: {} });
    assert.equal(badType.statusCode, 400);
    assert.equal(badType.data.errors[0].path, '/body/channel_type');
    const unknownField = await call(t, owner, 'POST', '/api/v1/notifications/channels', { ...messenger, label: 'x' });
    assert.equal(unknownField.statusCode, 400);
    assert.equal(unknownField.data.errors[0].path, '/body/label');
    const nonString = await call(t, owner, 'POST', '/api/v1/notifications/channels', { channel_type: 'email', config: { email: 5 } });
    assert.equal(nonString.statusCode, 400);
  });

  test('webhook: a Standard Webhooks secret is generated, shown once on create, masked afterwards', async () => {
    const res = await call(t, owner, 'POST', '/api/v1/notifications/channels', {
      channel_type: 'webhook',
      config: { webhook_url: 'https://hooks.example/in' },
    });
    assert.equal(res.statusCode, 201);
    const secret = res.data.config.signing_secret as string;
    assert.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    // The reference implementation accepts it (it decodes the base64 key).
    assert.ok(new Webhook(secret).sign('msg_1', new Date(), '{}').startsWith('v1,'));
    const list = await call(t, owner, 'GET', '/api/v1/notifications/channels');
    const row = list.data.find((c: any) => c.id === res.data.id);
    assert.equal(row.config.signing_secret, `${secret.slice(0, 4)}****${secret.slice(-4)}`);
    assert.equal(row.config.webhook_url, 'https://hooks.example/in');
    assert.ok(!JSON.stringify(list.data).includes(secret));
  });

  test('secrets are sealed at rest: no stored row contains a plaintext secret', async () => {
    const wh = await call(t, owner, 'POST', '/api/v1/notifications/channels', {
      channel_type: 'webhook',
      config: { webhook_url: 'https://hooks.example/rest' },
    });
    const m = await call(t, owner, 'POST', '/api/v1/notifications/channels', messenger);
    assert.equal(m.statusCode, 201);
    const rows = await t.db.query('SELECT * FROM notification_channels');
    const dump = JSON.stringify(rows);
    assert.ok(!dump.includes(BOT_TOKEN), 'bot token stored in plaintext');
    assert.ok(!dump.includes(wh.data.config.signing_secret), 'signing secret stored in plaintext');
    assert.ok(!dump.includes(wh.data.config.signing_secret.slice(6)), 'signing key stored in plaintext');
    const stored = rows.find((r: any) => r.id === m.data.id) as any;
    assert.match(stored.secrets.bot_token, /^v1:/);
    assert.equal(t.secrets.open(stored.secrets.bot_token), BOT_TOKEN);
  });

  test('PATCH replaces config, resets is_verified; a masked secret sent back keeps the stored one', async () => {
    const created = await call(t, owner, 'POST', '/api/v1/notifications/channels', messenger);
    const id = created.data.id;
    await t.db.query('UPDATE notification_channels SET is_verified = true WHERE id = $1', [id]);
    assert.equal((await call(t, owner, 'GET', '/api/v1/notifications/channels')).data.find((c: any) => c.id === id).is_verified, true);

    const patched = await call(t, owner, 'PATCH', `/api/v1/notifications/channels/${id}`, {
      config: { bot_token: created.data.config.bot_token, chat_id: '777' },
    });
    assert.equal(patched.statusCode, 200);
    assert.equal(patched.data.is_verified, false);
    assert.equal(patched.data.config.chat_id, '777');
    assert.equal(patched.data.config.bot_token, '1234****2345');
    const outbound = await t.app.services.channels.getForDelivery('acme', id);
    assert.equal(outbound?.config.bot_token, BOT_TOKEN);
    assert.equal(outbound?.config.chat_id, '777');

    // A new token replaces it; a key left out is gone (config is replaced whole) and required keys are enforced.
    const newToken = '987654321:BBH-abcdefghijklmnopqrstuvwxyz999999';
    const replaced = await call(t, owner, 'PATCH', `/api/v1/notifications/channels/${id}`, {
      config: { bot_token: newToken, chat_id: '777' },
    });
    assert.equal(replaced.statusCode, 200);
    assert.equal((await t.app.services.channels.getForDelivery('acme', id))?.config.bot_token, newToken);
    const missing = await call(t, owner, 'PATCH', `/api/v1/notifications/channels/${id}`, { config: { chat_id: '1' } });
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.data.errors[0].path, '/body/config/bot_token');
    // A mask that is not the stored secret's mask is just an invalid token.
    const wrongMask = await call(t, owner, 'PATCH', `/api/v1/notifications/channels/${id}`, {
      config: { bot_token: '1234****2345', chat_id: '1' },
    });
    assert.equal(wrongMask.statusCode, 400);
    const unknown = await call(t, owner, 'PATCH', `/api/v1/notifications/channels/${id}`, { config: { email: 'a@b.example' } });
    assert.equal(unknown.statusCode, 400);
    assert.ok(unknown.data.errors.some((e: any) => e.path === '/body/config/email'));
  });

  test('PATCH of a webhook URL keeps its signing secret', async () => {
    const created = await call(t, owner, 'POST', '/api/v1/notifications/channels', {
      channel_type: 'webhook',
      config: { webhook_url: 'https://hooks.example/a' },
    });
    const secret = created.data.config.signing_secret;
    const patched = await call(t, owner, 'PATCH', `/api/v1/notifications/channels/${created.data.id}`, {
      config: { webhook_url: 'https://hooks.example/b' },
    });
    assert.equal(patched.statusCode, 200);
    assert.equal(patched.data.config.webhook_url, 'https://hooks.example/b');
    assert.equal((await t.app.services.channels.getForDelivery('acme', created.data.id))?.config.signing_secret, secret);
  });

  test('roles: managers see and manage every channel of the tenant, members only their own', async () => {
    const mine = await call(t, member, 'POST', '/api/v1/notifications/channels', {
      channel_type: 'email',
      config: { email: 'max@acme.example' },
    });
    assert.equal(mine.statusCode, 201);
    const byOwner = await call(t, owner, 'POST', '/api/v1/notifications/channels', {
      channel_type: 'email',
      config: { email: 'olga@acme.example' },
    });

    const memberList = (await call(t, member, 'GET', '/api/v1/notifications/channels')).data;
    assert.deepEqual(
      memberList.map((c: any) => c.id),
      [mine.data.id],
    );
    const adminList = (await call(t, admin, 'GET', '/api/v1/notifications/channels')).data.map((c: any) => c.id);
    assert.ok(adminList.includes(mine.data.id) && adminList.includes(byOwner.data.id));
    assert.equal(adminList[0], byOwner.data.id, 'newest first');

    assert.equal(
      (await call(t, member2, 'PATCH', `/api/v1/notifications/channels/${mine.data.id}`, { config: { email: 'x@acme.example' } }))
        .statusCode,
      404,
    );
    assert.equal((await call(t, member2, 'POST', `/api/v1/notifications/channels/${mine.data.id}/test`, {})).statusCode, 404);
    assert.equal((await call(t, member2, 'DELETE', `/api/v1/notifications/channels/${mine.data.id}`)).statusCode, 404);
    assert.equal((await call(t, member, 'DELETE', `/api/v1/notifications/channels/${byOwner.data.id}`)).statusCode, 404);
    assert.equal(
      (await call(t, admin, 'PATCH', `/api/v1/notifications/channels/${mine.data.id}`, { config: { email: 'max2@acme.example' } }))
        .statusCode,
      200,
    );
    assert.equal(
      await t.app.services.channels.typeFor({ tenantId: 'acme', userId: 'mia', name: 'mia', email: null, role: 'member' }, mine.data.id),
      undefined,
    );
    assert.equal(
      await t.app.services.channels.typeFor({ tenantId: 'acme', userId: 'max', name: 'max', email: null, role: 'member' }, mine.data.id),
      'email',
    );
  });

  test('another tenant: every path is 404 and lists never cross', async () => {
    const mine = await call(t, owner, 'POST', '/api/v1/notifications/channels', messenger);
    const id = mine.data.id;
    assert.equal((await call(t, stranger, 'PATCH', `/api/v1/notifications/channels/${id}`, { config: messenger.config })).statusCode, 404);
    assert.equal((await call(t, stranger, 'POST', `/api/v1/notifications/channels/${id}/test`, {})).statusCode, 404);
    assert.equal((await call(t, stranger, 'DELETE', `/api/v1/notifications/channels/${id}`)).statusCode, 404);
    assert.deepEqual((await call(t, stranger, 'GET', '/api/v1/notifications/channels')).data, []);
    assert.equal(await t.app.services.channels.getForDelivery('globex', id), undefined);
    assert.equal((await call(t, undefined, 'GET', '/api/v1/notifications/channels')).statusCode, 401);
  });

  test('paging: ?limit with a Link to the next page', async () => {
    const own = await t.login({ tenant: 'paging', user: 'p', role: 'owner' });
    for (let i = 0; i < 3; i++)
      await call(t, own, 'POST', '/api/v1/notifications/channels', { channel_type: 'email', config: { email: `p${i}@paging.example` } });
    const first = await call(t, own, 'GET', '/api/v1/notifications/channels?limit=2');
    assert.equal(first.data.length, 2);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link as string)![1];
    const second = await call(t, own, 'GET', next);
    assert.equal(second.data.length, 1);
    assert.equal(second.headers.link, undefined);
  });

  test('delete: 204, runs the registered cascade hooks in one transaction, then 404', async () => {
    const created = await call(t, owner, 'POST', '/api/v1/notifications/channels', messenger);
    const seen: string[] = [];
    t.app.services.channels.onDelete(async (tx, tenantId, channelId) => {
      const rows = await tx.query('SELECT id FROM notification_channels WHERE id = $1', [channelId]);
      seen.push(`${tenantId}:${channelId}:${rows.length}`);
    });
    assert.equal((await call(t, owner, 'DELETE', `/api/v1/notifications/channels/${created.data.id}`)).statusCode, 204);
    assert.deepEqual(seen, [`acme:${created.data.id}:1`]);
    assert.equal((await call(t, owner, 'DELETE', `/api/v1/notifications/channels/${created.data.id}`)).statusCode, 404);
    assert.equal(
      (await call(t, owner, 'PATCH', `/api/v1/notifications/channels/${created.data.id}`, { config: messenger.config })).statusCode,
      404,
    );
  });

  test('a failing cascade hook rolls the delete back', async () => {
    const created = await call(t, owner, 'POST', '/api/v1/notifications/channels', messenger);
    const channels = t.app.services.channels as unknown as { deleteHooks: unknown[] };
    const saved = [...channels.deleteHooks];
    channels.deleteHooks.push(async (tx: any, _tenant: string, id: string) => {
      await tx.query('DELETE FROM notification_channels WHERE id = $1', [id]);
      throw new Error('boom');
    });
    try {
      const res = await call(t, owner, 'DELETE', `/api/v1/notifications/channels/${created.data.id}`);
      assert.equal(res.statusCode, 500);
    } finally {
      channels.deleteHooks.splice(0, channels.deleteHooks.length, ...saved);
    }
    assert.ok(await t.app.services.channels.getForDelivery('acme', created.data.id), 'the channel survived the failed delete');
  });
});
