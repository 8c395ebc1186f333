// The "Start here" dashboard: one builder for the demo seed (ensure) and for people who ask
// (POST /api/v1/dashboards/starter); idempotent both ways, owners and admins only, per tenant.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';
import { DEMO_OWNER } from '../../../src/modules/starter/starter.service.ts';
import { starterWidgets } from '../../../src/modules/starter/starter.ts';

describe('starter dashboard', () => {
  let t: TestApp;
  let owner: string;
  let admin: string;
  let member: string;
  before(async () => {
    t = await buildTestApp();
    owner = await t.login({ tenant: 'demo', user: 'owner', name: 'Demo Owner', role: 'owner' });
    admin = await t.login({ tenant: 'acme', user: 'ada', role: 'admin' });
    member = await t.login({ tenant: 'acme', user: 'max', role: 'member' });
  });
  after(() => t.close());

  test('the plan from the catalog: two KPIs, a time series and a rolling one, two breakdowns, a top list, a cohort, drawn as each suggests', () => {
    const insights = t.app.services.insights;
    const plan = starterWidgets(insights.catalog(), (code) => insights.isRolling(code));
    const kinds = plan.map((w) => insights.catalog().find((i) => i.code === w.insight_code)!.kind);
    assert.deepEqual(kinds, ['kpi', 'kpi', 'timeseries', 'timeseries', 'breakdown', 'breakdown', 'top', 'cohort']);
    assert.deepEqual(
      plan.map((w) => w.insight_code).filter((c) => ['revenue', 'rolling_revenue', 'customer_retention'].includes(c)),
      ['revenue', 'rolling_revenue', 'customer_retention'],
    );
    assert.deepEqual(
      plan.map((w) => [w.widget_type, w.display_size]),
      [
        ['kpi', 'small'],
        ['kpi', 'small'],
        ['chart', 'full'],
        ['chart', 'full'],
        ['chart', 'medium'],
        ['chart', 'medium'],
        [plan[6].widget_type, 'medium'],
        ['table', 'full'],
      ],
    );
    // A model without rolling measures or cohorts: the six of before.
    assert.equal(starterWidgets(insights.catalog().filter((i) => i.kind !== 'cohort')).length, 6);
    assert.deepEqual(starterWidgets([]), []);
  });

  test('at the seed: made once, by the demo owner, not shared; a re-seed makes no second copy, a deleted one stays deleted', async () => {
    const made = await t.app.services.starter.ensure(DEMO_OWNER);
    assert.ok(made);
    assert.equal(made.name, 'Start here');
    assert.equal(made.is_shared, false, "sharing it with the members is the owner's call");
    assert.equal(made.created_by, 'owner');
    assert.equal(made.widget_ids.length, 8);
    assert.equal(await t.app.services.starter.ensure(DEMO_OWNER), undefined, 'no second copy');
    const list = await call(t, owner, 'GET', '/api/v1/dashboards/');
    assert.deepEqual(
      list.data.map((d: { name: string }) => d.name),
      ['Start here'],
    );
    // The widgets are live and draw: refresh them all.
    const detail = await call(t, owner, 'GET', `/api/v1/dashboards/${made.id}`);
    assert.equal(detail.statusCode, 200);
    for (const w of detail.data.widgets) {
      assert.equal(w.data_source, 'live_insight');
      const r = await call(t, owner, 'POST', `/api/v1/dashboards/${made.id}/widgets/${w.id}/refresh`, {});
      assert.equal(r.statusCode, 200, `${w.title}: ${r.body}`);
    }
    assert.equal((await call(t, owner, 'DELETE', `/api/v1/dashboards/${made.id}`)).statusCode, 204);
    assert.equal(await t.app.services.starter.ensure(DEMO_OWNER), undefined, 'a deleted starter is not put back by a re-seed');
  });

  test('asked for: 201 with a new one, 200 with the same one after; a new one once it was deleted; members 403', async () => {
    const first = await call(t, admin, 'POST', '/api/v1/dashboards/starter', {});
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.data.name, 'Start here');
    assert.equal(first.data.tenant_id, 'acme');
    assert.equal(first.data.created_by, 'ada');
    assert.equal(first.data.widget_ids.length, 8);
    const second = await call(t, admin, 'POST', '/api/v1/dashboards/starter');
    assert.equal(second.statusCode, 200);
    assert.equal(second.data.id, first.data.id);
    const denied = await call(t, member, 'POST', '/api/v1/dashboards/starter', {});
    assert.equal(denied.statusCode, 403);
    assert.match(denied.headers['content-type'] as string, /application\/problem\+json/);
    assert.equal((await call(t, admin, 'DELETE', `/api/v1/dashboards/${first.data.id}`)).statusCode, 204);
    const again = await call(t, admin, 'POST', '/api/v1/dashboards/starter', {});
    assert.equal(again.statusCode, 201);
    assert.notEqual(again.data.id, first.data.id);
    const list = await call(t, admin, 'GET', '/api/v1/dashboards/');
    assert.equal(list.data.filter((d: { name: string }) => d.name === 'Start here').length, 1);
  });
});

describe('starter dashboard deleted while it is being made', () => {
  test('the request answers 409 CONFLICT (a path without an id has no 404 to answer), and no half starter stays', async () => {
    const { StarterService } = await import('../../../src/modules/starter/starter.service.ts');
    const { notFound } = await import('../../../src/lib/errors.ts');
    const deleted: string[] = [];
    const catalog = [
      { code: 'revenue', kind: 'kpi', title: 'Revenue', chart: 'kpi' },
      { code: 'orders', kind: 'kpi', title: 'Orders', chart: 'kpi' },
    ] as never;
    const repo = { find: async () => undefined, claim: async () => true, record: async () => undefined, release: async () => undefined };
    const service = new StarterService(
      repo as never,
      {
        dashboards: {
          create: async () => ({ id: 'd1' }) as never,
          delete: async (_a: unknown, id: string) => {
            deleted.push(id);
          },
          findForSystem: async () => undefined,
        },
        // Another admin deleted the new dashboard between its creation and its first widget.
        widgets: {
          create: async () => {
            throw notFound('Dashboard');
          },
        },
        catalog: () => catalog,
      },
      { now: () => new Date() } as never,
    );
    const auth = { tenantId: 'acme', userId: 'ada', role: 'admin' } as never;
    if (starterWidgets(catalog).length === 0) return assert.fail('the plan must hold the two KPIs');
    await assert.rejects(service.make(auth), (err: { code?: string }) => err.code === 'CONFLICT');
    assert.deepEqual(deleted, ['d1']);
  });
});
