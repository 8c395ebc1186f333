// Markdown text blocks (extension): viewers read them, editors write them, tenant-scoped, 400s name
// the field, and the markdown is stored as written (the web app renders it safely).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.ts';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';

const clock = new ManualClock(new Date('2026-11-21T15:00:00Z'));
let t: TestApp;
let owner: string;
let member: string;
let other: string;
let dash: { id: string };

before(async () => {
  t = await buildTestApp({ clock });
  owner = await t.login({ tenant: 'demo', user: 'owner', role: 'owner' });
  member = await t.login({ tenant: 'demo', user: 'viewer', role: 'member' });
  other = await t.login({ tenant: 'other', user: 'boss', role: 'owner' });
  dash = (await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'Sales', is_shared: true })).data;
  await call(t, owner, 'POST', `/api/v1/dashboards/${dash.id}/widgets`, {
    title: 'Snap',
    widget_type: 'table',
    data_source: 'snapshot',
    snapshot_data: [{ a: 1 }],
  });
});
after(async () => t?.close());

const base = () => `/api/v1/dashboards/${dash.id}/text-blocks`;

test('an editor adds, changes and removes a text block; by default full width after the last widget', async () => {
  const body = '# Notes\n\nRevenue is **net** of refunds. <script>alert(1)</script> [x](javascript:alert(1))';
  const created = await call(t, owner, 'POST', base(), { body });
  assert.equal(created.statusCode, 201, created.body);
  assert.equal(created.data.body, body, 'stored as written');
  assert.equal(created.data.display_size, 'full');
  assert.equal(created.data.position, 1);
  const first = await call(t, owner, 'POST', base(), { body: 'Top', display_size: 'small', position: 0 });
  assert.equal(first.statusCode, 201, first.body);
  const list = await call(t, member, 'GET', base());
  assert.equal(list.statusCode, 200);
  assert.deepEqual(
    list.data.map((b: { body: string }) => b.body),
    ['Top', body],
  );
  const patched = await call(t, owner, 'PATCH', `${base()}/${first.data.id}`, { display_size: 'large', position: 2 });
  assert.equal(patched.statusCode, 200, patched.body);
  assert.equal(patched.data.display_size, 'large');
  assert.equal(patched.data.body, 'Top');
  assert.equal((await call(t, owner, 'DELETE', `${base()}/${first.data.id}`)).statusCode, 204);
  assert.equal((await call(t, owner, 'DELETE', `${base()}/${first.data.id}`)).statusCode, 404);
});

test('a member may read but not write; another tenant sees nothing', async () => {
  const b = (await call(t, owner, 'POST', base(), { body: 'x' })).data;
  assert.equal((await call(t, member, 'POST', base(), { body: 'y' })).statusCode, 403);
  assert.equal((await call(t, member, 'PATCH', `${base()}/${b.id}`, { body: 'y' })).statusCode, 403);
  assert.equal((await call(t, member, 'DELETE', `${base()}/${b.id}`)).statusCode, 403);
  assert.equal((await call(t, other, 'GET', base())).statusCode, 404);
  assert.equal((await call(t, other, 'PATCH', `${base()}/${b.id}`, { body: 'y' })).statusCode, 404);
  assert.equal((await call(t, other, 'DELETE', `${base()}/${b.id}`)).statusCode, 404);
});

test('bad input is a 400 naming the field', async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{}, '/body/body'],
    [{ body: '' }, '/body/body'],
    [{ body: 'x'.repeat(10_001) }, '/body/body'],
    [{ body: 'x', display_size: 'huge' }, '/body/display_size'],
    [{ body: 'x', position: -1 }, '/body/position'],
    [{ body: 'x', widget_type: 'text' }, '/body/widget_type'],
  ];
  for (const [body, path] of cases) {
    const r = await call(t, owner, 'POST', base(), body);
    assert.equal(r.statusCode, 400, JSON.stringify(body));
    assert.equal(r.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.ok(
      r.data.errors.some((e: { path: string }) => e.path === path),
      `${JSON.stringify(body).slice(0, 60)} → ${r.body.slice(0, 300)}`,
    );
  }
});

test('the operations are in the OpenAPI document', async () => {
  const doc = (await call(t, owner, 'GET', '/api/v1/openapi.json')).data;
  const p = doc.paths['/api/v1/dashboards/{id}/text-blocks'];
  assert.ok(p.get.responses['200'] && p.post.responses['201'] && p.post.responses['403']);
  const one = doc.paths['/api/v1/dashboards/{id}/text-blocks/{bid}'];
  assert.ok(one.patch.responses['200'] && one.delete.responses['204'] && one.delete.responses['404']);
});
