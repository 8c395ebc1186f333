// Channel names (an extension of the contract, docs/decisions.md "Channel names"): optional on
// create, changed or removed by PATCH without touching the config or is_verified, listed, checked.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';

const email = (address: string, name?: string) => ({
  channel_type: 'email',
  config: { email: address },
  ...(name === undefined ? {} : { name }),
});

describe('notification channels: names', () => {
  let t: TestApp;
  let owner: string;
  before(async () => {
    t = await buildTestApp();
    owner = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
  });
  after(() => t.close());

  test('a name given on create is returned trimmed, by create, get-by-list and PATCH; none is null', async () => {
    const named = await call(t, owner, 'POST', '/api/v1/notifications/channels', email('sales@acme.example', '  Sales team  '));
    assert.equal(named.statusCode, 201);
    assert.equal(named.data.name, 'Sales team');
    const plain = await call(t, owner, 'POST', '/api/v1/notifications/channels', email('ops@acme.example'));
    assert.equal(plain.statusCode, 201);
    assert.equal(plain.data.name, null);
    const list = await call(t, owner, 'GET', '/api/v1/notifications/channels');
    const byId = new Map(list.data.map((c: { id: string; name: string | null }) => [c.id, c.name]));
    assert.equal(byId.get(named.data.id), 'Sales team');
    assert.equal(byId.get(plain.data.id), null);
  });

  test('PATCH of the name alone keeps config and is_verified; null removes it; with config both change', async () => {
    const made = await call(t, owner, 'POST', '/api/v1/notifications/channels', email('a@acme.example', 'First'));
    const id = made.data.id;
    await t.db.query(`UPDATE notification_channels SET is_verified = true WHERE id = $1`, [id]);
    const renamed = await call(t, owner, 'PATCH', `/api/v1/notifications/channels/${id}`, { name: 'Second' });
    assert.equal(renamed.statusCode, 200);
    assert.equal(renamed.data.name, 'Second');
    assert.equal(renamed.data.is_verified, true, 'a rename does not un-verify');
    assert.deepEqual(renamed.data.config, { email: 'a@acme.example' });
    const both = await call(t, owner, 'PATCH', `/api/v1/notifications/channels/${id}`, {
      name: 'Third',
      config: { email: 'b@acme.example' },
    });
    assert.equal(both.statusCode, 200);
    assert.equal(both.data.name, 'Third');
    assert.equal(both.data.config.email, 'b@acme.example');
    assert.equal(both.data.is_verified, false);
    const configOnly = await call(t, owner, 'PATCH', `/api/v1/notifications/channels/${id}`, { config: { email: 'c@acme.example' } });
    assert.equal(configOnly.data.name, 'Third', 'a config PATCH keeps the name');
    const cleared = await call(t, owner, 'PATCH', `/api/v1/notifications/channels/${id}`, { name: null });
    assert.equal(cleared.statusCode, 200);
    assert.equal(cleared.data.name, null);
  });

  test('bad names are 400 problems naming /body/name; an empty PATCH is a 400', async () => {
    for (const name of ['', '   ', 'x'.repeat(101)]) {
      const res = await call(t, owner, 'POST', '/api/v1/notifications/channels', email('x@acme.example', name));
      assert.equal(res.statusCode, 400, JSON.stringify(name));
      assert.match(res.headers['content-type'] as string, /application\/problem\+json/);
      assert.ok(
        res.data.errors.some((e: { path: string }) => e.path === '/body/name'),
        JSON.stringify(res.data.errors),
      );
    }
    const made = await call(t, owner, 'POST', '/api/v1/notifications/channels', email('y@acme.example'));
    const blank = await call(t, owner, 'PATCH', `/api/v1/notifications/channels/${made.data.id}`, { name: ' ' });
    assert.equal(blank.statusCode, 400);
    assert.ok(blank.data.errors.some((e: { path: string }) => e.path === '/body/name'));
    const empty = await call(t, owner, 'PATCH', `/api/v1/notifications/channels/${made.data.id}`, {});
    assert.equal(empty.statusCode, 400);
  });
});
