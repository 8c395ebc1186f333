import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';

const DASHBOARD_FIELDS = [
  'active_preset_id',
  'created_at',
  'created_by',
  'created_by_name',
  'description',
  'global_filter_presets',
  'id',
  'is_shared',
  'name',
  'shared_with_emails',
  'tenant_id',
  'updated_at',
  'widget_ids',
];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const keys = (o: object) => Object.keys(o).sort();

describe('dashboards', () => {
  let t: TestApp;
  let owner: string;
  let admin: string;
  let member: string; // mo, not the creator of anything at first
  let other: string; // another tenant's owner
  before(async () => {
    t = await buildTestApp();
    owner = await t.login({ tenant: 'acme', user: 'olga', role: 'owner', name: 'Olga Owner', email: 'olga@acme.example' });
    admin = await t.login({ tenant: 'acme', user: 'adam', role: 'admin', name: 'Adam Admin' });
    member = await t.login({ tenant: 'acme', user: 'mo', role: 'member', email: 'Mo@Acme.Example' });
    other = await t.login({ tenant: 'globex', user: 'gus', role: 'owner' });
  });
  after(() => t.close());

  const create = async (auth: string, body: Record<string, unknown>) => {
    const res = await call(t, auth, 'POST', '/api/v1/dashboards/', body);
    assert.equal(res.statusCode, 201, res.body);
    return res.data;
  };

  test('create: 201 with every field, defaults and the caller as creator', async () => {
    const res = await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'Sales' });
    assert.equal(res.statusCode, 201);
    assert.deepEqual(keys(res.data), DASHBOARD_FIELDS);
    assert.equal(res.data.tenant_id, 'acme');
    assert.equal(res.data.name, 'Sales');
    assert.equal(res.data.description, null);
    assert.equal(res.data.created_by, 'olga');
    assert.equal(res.data.created_by_name, 'Olga Owner');
    assert.equal(res.data.is_shared, false);
    assert.deepEqual(res.data.shared_with_emails, []);
    assert.deepEqual(res.data.widget_ids, []);
    assert.deepEqual(res.data.global_filter_presets, []);
    assert.equal(res.data.active_preset_id, null);
    assert.match(res.data.created_at, ISO);
    assert.equal(res.data.created_at, t.clock.now().toISOString());
    assert.equal(res.data.updated_at, res.data.created_at);

    const full = await create(admin, {
      name: 'Ops',
      description: 'Daily numbers',
      is_shared: true,
      shared_with_emails: ['A@B.example', 'a@b.example'],
      global_filter_presets: [{ id: 'de', name: 'Germany', filters: { country: 'DE', granularity: 'week' } }],
      active_preset_id: 'de',
    });
    assert.equal(full.created_by, 'adam');
    assert.equal(full.description, 'Daily numbers');
    assert.equal(full.is_shared, true);
    assert.deepEqual(full.shared_with_emails, ['a@b.example']);
    assert.deepEqual(full.global_filter_presets, [{ id: 'de', name: 'Germany', filters: { country: 'DE', granularity: 'week' } }]);
    assert.equal(full.active_preset_id, 'de');
  });

  test('both /api/v1/dashboards and /api/v1/dashboards/ work', async () => {
    const res = await call(t, owner, 'POST', '/api/v1/dashboards', { name: 'No slash' });
    assert.equal(res.statusCode, 201);
    const list = await call(t, owner, 'GET', '/api/v1/dashboards');
    assert.equal(list.statusCode, 200);
    assert.ok(list.data.some((d: any) => d.id === res.data.id));
  });

  test('a member may not create a dashboard (403); no credentials is 401', async () => {
    const res = await call(t, member, 'POST', '/api/v1/dashboards/', { name: 'Mine' });
    assert.equal(res.statusCode, 403);
    assert.equal(res.data.code, 'FORBIDDEN');
    assert.equal((await call(t, undefined, 'GET', '/api/v1/dashboards/')).statusCode, 401);
    assert.equal((await call(t, undefined, 'POST', '/api/v1/dashboards/', { name: 'x' })).statusCode, 401);
  });

  test('create validation: 400 naming missing, unknown and invalid fields', async () => {
    let res = await call(t, owner, 'POST', '/api/v1/dashboards/', { description: 'x', colour: 'red', id: 'mine' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.data.code, 'VALIDATION_FAILED');
    assert.deepEqual(res.data.errors.map((e: any) => e.path).sort(), ['/body/colour', '/body/id', '/body/name']);

    res = await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'x', is_shared: 'yes' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.data.errors[0].path, '/body/is_shared');

    res = await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'x', shared_with_emails: ['not-an-email'] });
    assert.equal(res.statusCode, 400);
    assert.equal(res.data.errors[0].path, '/body/shared_with_emails/0');

    res = await call(t, owner, 'POST', '/api/v1/dashboards/', {
      name: 'x',
      global_filter_presets: [{ id: 'p', name: 'P' }],
      active_preset_id: 'q',
    });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(
      res.data.errors.map((e: any) => e.path),
      ['/body/active_preset_id'],
    );
    assert.match(res.data.detail, /active_preset_id/);

    for (const [filters, path] of [
      // Checked as execute checks it (the model's rule: upper case, two letters); 'de' is DE there.
      [{ country: 'D1' }, '/body/global_filter_presets/0/filters/country'],
      [{ country: 'DEU' }, '/body/global_filter_presets/0/filters/country'],
      [{ granularity: 'hour' }, '/body/global_filter_presets/0/filters/granularity'],
      [{ date_from: '2024-13-01' }, '/body/global_filter_presets/0/filters/date_from'],
      [{ date_from: '2024-03-01', date_to: '2024-02-01' }, '/body/global_filter_presets/0/filters/date_from'],
      [{ region: 'EU' }, '/body/global_filter_presets/0/filters/region'],
    ] as const) {
      res = await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'x', global_filter_presets: [{ name: 'P', filters }] });
      assert.equal(res.statusCode, 400, JSON.stringify(filters));
      assert.equal(res.data.errors[0].path, path, JSON.stringify(filters));
    }
    res = await call(t, owner, 'POST', '/api/v1/dashboards/', {
      name: 'x',
      global_filter_presets: [
        { id: 'a', name: 'A' },
        { id: 'a', name: 'B' },
      ],
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.data.errors[0].path, '/body/global_filter_presets/1/id');
    // A preset sent without an id gets one.
    const d = await create(owner, {
      name: 'x',
      global_filter_presets: [{ name: 'All', filters: { channel: 'web', date_from: '2024-01-01', date_to: '2024-01-31' } }],
    });
    assert.equal(typeof d.global_filter_presets[0].id, 'string');
    assert.ok(d.global_filter_presets[0].id.length > 0);
  });

  test('member visibility: created by them, is_shared, or their e-mail (any case); managers see all', async () => {
    const hidden = await create(owner, { name: 'Hidden' });
    const shared = await create(owner, { name: 'Shared', is_shared: true });
    const byEmail = await create(owner, { name: 'By e-mail', shared_with_emails: ['MO@acme.example'] });
    // mo created this while an admin; as a member it is still theirs.
    const moAdmin = await t.login({ tenant: 'acme', user: 'mo', role: 'admin' });
    const own = await create(moAdmin, { name: 'Own' });
    const foreign = await create(other, { name: 'Globex', is_shared: true });

    const seen = (await call(t, member, 'GET', '/api/v1/dashboards/')).data.map((d: any) => d.id);
    assert.ok(!seen.includes(hidden.id));
    assert.ok(seen.includes(shared.id));
    assert.ok(seen.includes(byEmail.id));
    assert.ok(seen.includes(own.id));
    assert.ok(!seen.includes(foreign.id));

    for (const auth of [owner, admin]) {
      const ids = (await call(t, auth, 'GET', '/api/v1/dashboards/')).data.map((d: any) => d.id);
      for (const d of [hidden, shared, byEmail, own]) assert.ok(ids.includes(d.id));
      assert.ok(!ids.includes(foreign.id));
    }

    assert.equal((await call(t, member, 'GET', `/api/v1/dashboards/${hidden.id}`)).statusCode, 404);
    for (const d of [shared, byEmail, own]) assert.equal((await call(t, member, 'GET', `/api/v1/dashboards/${d.id}`)).statusCode, 200);
    // A member without an e-mail only sees shared and own ones.
    const noMail = await t.login({ tenant: 'acme', user: 'nm', role: 'member', email: '' });
    const ids = (await call(t, noMail, 'GET', '/api/v1/dashboards/')).data.map((d: any) => d.id);
    assert.ok(ids.includes(shared.id) && !ids.includes(byEmail.id) && !ids.includes(hidden.id));
  });

  test('list: newest first, JSON array, paging with limit/cursor and a Link header', async () => {
    const t2 = await buildTestApp();
    try {
      const o = await t2.login({ tenant: 'p', user: 'o', role: 'owner' });
      const made: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await call(t2, o, 'POST', '/api/v1/dashboards/', { name: `D${i}` });
        made.push(res.data.id);
        t2.clock.advance(1000);
      }
      const all = await call(t2, o, 'GET', '/api/v1/dashboards/');
      assert.deepEqual(
        all.data.map((d: any) => d.id),
        [...made].reverse(),
      );
      assert.equal(all.headers.link, undefined);
      assert.deepEqual(keys(all.data[0]), DASHBOARD_FIELDS);

      const p1 = await call(t2, o, 'GET', '/api/v1/dashboards/?limit=2');
      assert.deepEqual(
        p1.data.map((d: any) => d.name),
        ['D4', 'D3'],
      );
      const next = /<([^>]+)>; rel="next"/.exec(p1.headers.link as string)![1];
      const p2 = await call(t2, o, 'GET', next);
      assert.deepEqual(
        p2.data.map((d: any) => d.name),
        ['D2', 'D1'],
      );
      assert.equal((await call(t2, o, 'GET', '/api/v1/dashboards/?limit=0')).statusCode, 400);
      assert.equal((await call(t2, o, 'GET', '/api/v1/dashboards/?limit=1001')).statusCode, 400);
    } finally {
      await t2.close();
    }
  });

  test('get by id: the Dashboard plus widgets in widget_ids order', async () => {
    const d = await create(owner, { name: 'With widgets' });
    const w = [];
    for (const title of ['A', 'B', 'C']) {
      const res = await call(t, owner, 'POST', `/api/v1/dashboards/${d.id}/widgets`, {
        title,
        widget_type: 'table',
        data_source: 'snapshot',
        snapshot_data: [{ x: title }],
      });
      assert.equal(res.statusCode, 201);
      w.push(res.data.id);
    }
    const order = [w[2], w[0], w[1]];
    assert.equal((await call(t, owner, 'PATCH', `/api/v1/dashboards/${d.id}`, { widget_ids: order })).statusCode, 200);
    const res = await call(t, owner, 'GET', `/api/v1/dashboards/${d.id}`);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(keys(res.data), [...DASHBOARD_FIELDS, 'widgets'].sort());
    assert.deepEqual(res.data.widget_ids, order);
    assert.deepEqual(
      res.data.widgets.map((x: any) => x.id),
      order,
    );
    assert.deepEqual(
      res.data.widgets.map((x: any) => x.title),
      ['C', 'A', 'B'],
    );
    assert.equal((await call(t, owner, 'GET', '/api/v1/dashboards/nope')).statusCode, 404);
  });

  test('patch: every field, updated_at moves, presets and active_preset_id checked', async () => {
    const d = await create(owner, { name: 'Before' });
    t.clock.advance(60_000);
    let res = await call(t, owner, 'PATCH', `/api/v1/dashboards/${d.id}`, {
      name: 'After',
      description: 'Now with text',
      is_shared: true,
      shared_with_emails: ['X@Y.example'],
      global_filter_presets: [
        { id: 'eu', name: 'EU', filters: { country: 'FR', category: 'Shoes', date_from: '2024-01-01', date_to: '2024-12-31' } },
        { id: 'm', name: 'Monthly', filters: { granularity: 'month' } },
      ],
      active_preset_id: 'eu',
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(keys(res.data), DASHBOARD_FIELDS);
    assert.equal(res.data.name, 'After');
    assert.equal(res.data.description, 'Now with text');
    assert.equal(res.data.is_shared, true);
    assert.deepEqual(res.data.shared_with_emails, ['x@y.example']);
    assert.equal(res.data.active_preset_id, 'eu');
    assert.equal(res.data.global_filter_presets.length, 2);
    assert.equal(res.data.created_at, d.created_at);
    assert.equal(res.data.updated_at, t.clock.now().toISOString());
    assert.notEqual(res.data.updated_at, d.updated_at);

    res = await call(t, owner, 'PATCH', `/api/v1/dashboards/${d.id}`, { active_preset_id: 'nope' });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(
      res.data.errors.map((e: any) => e.path),
      ['/body/active_preset_id'],
    );
    res = await call(t, owner, 'PATCH', `/api/v1/dashboards/${d.id}`, { active_preset_id: 'm' });
    assert.equal(res.data.active_preset_id, 'm');
    // Removing the active preset leaves none active.
    res = await call(t, owner, 'PATCH', `/api/v1/dashboards/${d.id}`, { global_filter_presets: [{ id: 'eu', name: 'EU', filters: {} }] });
    assert.equal(res.statusCode, 200);
    assert.equal(res.data.active_preset_id, null);
    res = await call(t, owner, 'PATCH', `/api/v1/dashboards/${d.id}`, {
      description: null,
      shared_with_emails: null,
      active_preset_id: null,
    });
    assert.equal(res.data.description, null);
    assert.deepEqual(res.data.shared_with_emails, []);

    res = await call(t, owner, 'PATCH', `/api/v1/dashboards/${d.id}`, { name: '', created_by: 'me', tenant_id: 'x' });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.data.errors.map((e: any) => e.path).sort(), ['/body/created_by', '/body/name', '/body/tenant_id']);
    // Nothing of a refused PATCH was applied.
    assert.equal((await call(t, owner, 'GET', `/api/v1/dashboards/${d.id}`)).data.name, 'After');
  });

  test('patch widget_ids: the same set only, else 400 naming widget_ids', async () => {
    const d = await create(owner, { name: 'Order' });
    const ids: string[] = [];
    for (const title of ['A', 'B']) {
      ids.push(
        (
          await call(t, owner, 'POST', `/api/v1/dashboards/${d.id}/widgets`, {
            title,
            widget_type: 'kpi',
            data_source: 'snapshot',
            snapshot_data: [],
          })
        ).data.id,
      );
    }
    for (const bad of [[ids[0]], [ids[0], ids[0]], [ids[0], ids[1], 'x'], [ids[0], 'x'], []]) {
      const res = await call(t, owner, 'PATCH', `/api/v1/dashboards/${d.id}`, { widget_ids: bad, name: 'Renamed' });
      assert.equal(res.statusCode, 400, JSON.stringify(bad));
      assert.deepEqual(
        res.data.errors.map((e: any) => e.path),
        ['/body/widget_ids'],
      );
    }
    const after = await call(t, owner, 'GET', `/api/v1/dashboards/${d.id}`);
    assert.deepEqual(after.data.widget_ids, ids);
    assert.equal(after.data.name, 'Order');
    const res = await call(t, owner, 'PATCH', `/api/v1/dashboards/${d.id}`, { widget_ids: [ids[1], ids[0]] });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.data.widget_ids, [ids[1], ids[0]]);
  });

  test('role matrix for patch and delete: managers, or the creator; view-only 403; hidden 404', async () => {
    const shared = await create(owner, { name: 'Shared', is_shared: true });
    const hidden = await create(owner, { name: 'Hidden' });
    const moAdmin = await t.login({ tenant: 'acme', user: 'mo', role: 'admin' });
    const own = await create(moAdmin, { name: 'Mo own' });

    assert.equal((await call(t, member, 'PATCH', `/api/v1/dashboards/${shared.id}`, { name: 'x' })).statusCode, 403);
    assert.equal((await call(t, member, 'DELETE', `/api/v1/dashboards/${shared.id}`)).statusCode, 403);
    assert.equal((await call(t, member, 'PATCH', `/api/v1/dashboards/${hidden.id}`, { name: 'x' })).statusCode, 404);
    assert.equal((await call(t, member, 'DELETE', `/api/v1/dashboards/${hidden.id}`)).statusCode, 404);

    const res = await call(t, member, 'PATCH', `/api/v1/dashboards/${own.id}`, { name: 'Mo renamed' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.data.name, 'Mo renamed');
    assert.equal(res.data.created_by, 'mo');

    assert.equal((await call(t, admin, 'PATCH', `/api/v1/dashboards/${hidden.id}`, { name: 'By admin' })).statusCode, 200);
    assert.equal((await call(t, admin, 'DELETE', `/api/v1/dashboards/${hidden.id}`)).statusCode, 204);
    const del = await call(t, member, 'DELETE', `/api/v1/dashboards/${own.id}`);
    assert.equal(del.statusCode, 204);
    assert.equal(del.body, '');
    assert.equal((await call(t, owner, 'GET', `/api/v1/dashboards/${own.id}`)).statusCode, 404);
    assert.equal((await call(t, owner, 'DELETE', `/api/v1/dashboards/${shared.id}`)).statusCode, 204);
    assert.equal((await call(t, owner, 'DELETE', `/api/v1/dashboards/${shared.id}`)).statusCode, 404);
  });

  test('delete removes the widgets in the same step', async () => {
    const d = await create(owner, { name: 'Doomed' });
    const w = await call(t, owner, 'POST', `/api/v1/dashboards/${d.id}/widgets`, {
      title: 'W',
      widget_type: 'kpi',
      data_source: 'snapshot',
      snapshot_data: [{ v: 1 }],
    });
    assert.equal(w.statusCode, 201);
    assert.equal((await t.db.query('SELECT id FROM dashboard_widgets WHERE dashboard_id = $1', [d.id])).length, 1);
    assert.equal((await call(t, owner, 'DELETE', `/api/v1/dashboards/${d.id}`)).statusCode, 204);
    assert.equal((await t.db.query('SELECT id FROM dashboard_widgets WHERE dashboard_id = $1', [d.id])).length, 0);
    assert.equal((await call(t, owner, 'GET', `/api/v1/dashboards/${d.id}/widgets`)).statusCode, 404);
  });

  test("another tenant's dashboard is 404 on every id route, for every role", async () => {
    const d = await create(owner, { name: 'Acme only', is_shared: true });
    const w = await call(t, owner, 'POST', `/api/v1/dashboards/${d.id}/widgets`, {
      title: 'W',
      widget_type: 'kpi',
      data_source: 'snapshot',
      snapshot_data: [{ v: 1 }],
    });
    const globexMember = await t.login({ tenant: 'globex', user: 'olga', role: 'member', email: 'olga@acme.example' });
    for (const auth of [other, globexMember]) {
      const calls: [string, string, unknown?][] = [
        ['GET', `/api/v1/dashboards/${d.id}`],
        ['PATCH', `/api/v1/dashboards/${d.id}`, { name: 'x' }],
        ['DELETE', `/api/v1/dashboards/${d.id}`],
        ['GET', `/api/v1/dashboards/${d.id}/widgets`],
        ['POST', `/api/v1/dashboards/${d.id}/widgets`, { title: 'x', widget_type: 'kpi', data_source: 'snapshot', snapshot_data: [] }],
        ['PATCH', `/api/v1/dashboards/${d.id}/widgets/${w.data.id}`, { title: 'x' }],
        ['DELETE', `/api/v1/dashboards/${d.id}/widgets/${w.data.id}`],
      ];
      for (const [method, url, body] of calls) {
        const res = await call(t, auth, method as any, url, body);
        assert.equal(res.statusCode, 404, `${method} ${url}`);
        assert.equal(res.data.code, 'NOT_FOUND');
      }
    }
    const still = await call(t, owner, 'GET', `/api/v1/dashboards/${d.id}`);
    assert.equal(still.data.name, 'Acme only');
    assert.equal(still.data.widgets.length, 1);
  });

  test('system context: getForSystem loads a dashboard with widgets for a tenant', async () => {
    const d = await create(owner, { name: 'For reports' });
    await call(t, owner, 'POST', `/api/v1/dashboards/${d.id}/widgets`, {
      title: 'W',
      widget_type: 'kpi',
      data_source: 'snapshot',
      snapshot_data: [{ v: 1 }],
    });
    const loaded = await t.app.services.dashboards.getForSystem('acme', d.id);
    assert.equal(loaded.name, 'For reports');
    assert.equal(loaded.widgets.length, 1);
    assert.equal(await t.app.services.dashboards.findForSystem('globex', d.id), undefined);
    await assert.rejects(t.app.services.dashboards.getForSystem('globex', d.id), { code: 'NOT_FOUND' });
  });
});
