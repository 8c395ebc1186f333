// The OpenAPI document as a client generator sees it: valid OpenAPI 3.1, one stable operationId
// per operation, errors as problem documents, named schemas referenced, paged lists announcing
// their Link header, and the package's version.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { completeDocument, operationIdOf } from '../../src/plugins/openapi-document.ts';

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function operations(doc: Json): { method: string; path: string; op: Json }[] {
  const out: { method: string; path: string; op: Json }[] = [];
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const method of METHODS) if (item[method]) out.push({ method, path, op: item[method] });
  }
  return out;
}

function refsIn(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => refsIn(n, into));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') into.add(v);
      else refsIn(v, into);
    }
  }
  return into;
}

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: Json;
  before(async () => {
    t = await buildTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    assert.equal(res.statusCode, 200);
    doc = res.json();
  });
  after(() => t.close());

  test('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(doc));
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2)?.slice(0, 3000));
    assert.equal(doc.openapi, '3.1.0');
  });

  test("info.version is package.json's version, and servers are given", () => {
    const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    assert.equal(doc.info.version, pkg.version);
    assert.ok(Array.isArray(doc.servers) && doc.servers.length > 0 && typeof doc.servers[0].url === 'string');
  });

  test('every operation has a unique camelCase operationId', () => {
    const seen = new Map<string, string>();
    const ops = operations(doc);
    assert.ok(ops.length >= 38, `only ${ops.length} operations`);
    for (const { method, path, op } of ops) {
      const where = `${method.toUpperCase()} ${path}`;
      assert.match(op.operationId ?? '', /^[a-z][A-Za-z0-9]*$/, `${where} has a camelCase operationId`);
      assert.ok(!seen.has(op.operationId), `${where} and ${seen.get(op.operationId)} share ${op.operationId}`);
      seen.set(op.operationId, where);
    }
    // The names clients already use stay as they are.
    const byRoute = Object.fromEntries(ops.map(({ method, path, op }) => [`${method.toUpperCase()} ${path}`, op.operationId]));
    assert.equal(byRoute['GET /api/v1/dashboards/'], 'listDashboards');
    assert.equal(byRoute['POST /api/v1/dashboards/'], 'createDashboard');
    assert.equal(byRoute['GET /api/v1/dashboards/{id}'], 'getDashboard');
    assert.equal(byRoute['GET /api/v1/notifications/logs'], 'listDeliveryLogs');
  });

  test('the naming rule gives readable ids to routes the table does not name', () => {
    assert.equal(operationIdOf('get', '/api/v1/version'), 'getVersion');
    assert.equal(operationIdOf('post', '/api/v1/models/{id}/reload'), 'postModelsReload');
    assert.equal(operationIdOf('get', '/'), 'getRoot');
  });

  test('every 4xx and 5xx response is application/problem+json with the Problem schema', () => {
    let checked = 0;
    for (const { method, path, op } of operations(doc)) {
      for (const [status, response] of Object.entries(op.responses as Json)) {
        if (Number(status) < 400) continue;
        checked++;
        const where = `${method.toUpperCase()} ${path} ${status}`;
        assert.deepEqual(Object.keys(response.content ?? {}), ['application/problem+json'], where);
        assert.equal(response.content['application/problem+json'].schema.$ref, '#/components/schemas/Problem', where);
      }
    }
    assert.ok(checked > 100);
  });

  test('errors are declared where they can occur: 401, 404 for ids in the path, 413/415 for bodies, 403 for role rules', () => {
    for (const { method, path, op } of operations(doc)) {
      const where = `${method.toUpperCase()} ${path}`;
      const statuses = Object.keys(op.responses);
      for (const s of ['400', '401', '429']) assert.ok(statuses.includes(s), `${where} declares ${s}`);
      assert.equal(statuses.includes('404'), path.includes('{'), `${where}: 404 exactly when the path names an id`);
      if (op.requestBody || ['post', 'put', 'patch', 'delete'].includes(method))
        for (const s of ['413', '415']) assert.ok(statuses.includes(s), `${where} declares ${s}`);
      // Node's parser and a draining server can answer any request (test/plugins/framework-errors.test.ts).
      for (const s of ['408', '431', '503']) assert.ok(statuses.includes(s), `${where} declares ${s}`);
      assert.ok(op.responses['429'].headers?.['Retry-After'], `${where}: 429 carries Retry-After`);
    }
    const forbids = (m: string, p: string) => Object.keys(doc.paths[p][m].responses).includes('403');
    assert.ok(forbids('post', '/api/v1/dashboards/'), 'creating a dashboard can be refused to a member');
    assert.ok(forbids('post', '/api/v1/ai/connectors'));
    assert.ok(forbids('delete', '/api/v1/dashboards/{id}/widgets/{wid}'));
    assert.ok(!forbids('get', '/api/v1/dashboards/'), 'any role may list dashboards');
    assert.ok(!forbids('get', '/api/v1/notifications/logs'), 'any role may read its logs');
    assert.ok(Object.keys(doc.paths['/api/v1/dashboards/{id}/widgets/{wid}/refresh'].post.responses).includes('409'));
    assert.ok(Object.keys(doc.paths['/api/v1/notifications/channels/{id}/test'].post.responses).includes('502'));
  });

  test('named component schemas exist, and operations reference them instead of copying them', () => {
    const names = Object.keys(doc.components.schemas);
    for (const name of [
      'Problem',
      'Dashboard',
      'DashboardDetail',
      'DashboardWidget',
      'ChartHint',
      'ChartType',
      'DataRow',
      'GlobalFilterPreset',
      'ExecuteResponse',
      'AIConnector',
      'NotificationChannel',
      'InsightSubscription',
      'DashboardSubscription',
      'DeliveryLog',
      'ApiToken',
    ]) {
      assert.ok(names.includes(name), `components.schemas.${name}`);
    }
    const referenced = refsIn(doc.paths);
    const referencedFromComponents = refsIn(doc.components.schemas);
    for (const name of names) {
      const ref = `#/components/schemas/${name}`;
      assert.ok(referenced.has(ref) || referencedFromComponents.has(ref), `${name} is referenced`);
    }
    const dashboards = doc.paths['/api/v1/dashboards/'];
    assert.deepEqual(dashboards.get.responses['200'].content['application/json'].schema, {
      type: 'array',
      items: { $ref: '#/components/schemas/Dashboard' },
    });
    assert.deepEqual(dashboards.post.responses['201'].content['application/json'].schema, { $ref: '#/components/schemas/Dashboard' });
    // Inside a named schema, the names it uses are references too.
    assert.ok(refsIn(doc.components.schemas.DashboardWidget).has('#/components/schemas/ChartHint'));
    assert.ok(refsIn(doc.components.schemas.DashboardDetail).has('#/components/schemas/DashboardWidget'));
    // No schema of the paths is still an inline copy of a named one.
    const text = JSON.stringify(doc.paths);
    assert.ok(!text.includes('"title":"'), 'no titled (named) schema is left inline');
  });

  test('paged list operations declare the Link header; others do not', () => {
    const paged = operations(doc).filter(({ op }) => (op.parameters ?? []).some((p: Json) => p.in === 'query' && p.name === 'cursor'));
    assert.deepEqual(paged.map(({ path }) => path).sort(), [
      '/api/v1/dashboards/',
      '/api/v1/notifications/channels',
      '/api/v1/notifications/logs',
    ]);
    for (const { op, path } of paged) assert.equal(op.responses['200'].headers?.Link?.schema?.type, 'string', `${path} declares Link`);
    assert.equal(doc.paths['/api/v1/insights'].get.responses['200'].headers?.Link, undefined);
  });

  test('the Link header the paged lists send is the one declared', async () => {
    const auth = await t.login({ tenant: 'oa', user: 'o', role: 'owner' });
    for (const name of ['a', 'b']) {
      await t.app.inject({ method: 'POST', url: '/api/v1/dashboards/', headers: { authorization: auth }, payload: { name } });
    }
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/dashboards/?limit=1', headers: { authorization: auth } });
    assert.match(String(res.headers.link), /^<\/api\/v1\/dashboards\/\?limit=1&cursor=[^>]+>; rel="next"$/);
    const bad = await t.app.inject({ method: 'GET', url: '/api/v1/dashboards/?limit=0', headers: { authorization: auth } });
    assert.equal(bad.statusCode, 400);
    assert.match(String(bad.headers['content-type']), /^application\/problem\+json/);
  });

  test('two different schemas under one title are refused rather than silently merged', () => {
    const clash = {
      info: {},
      paths: {
        '/a': { get: { responses: { '200': { content: { 'application/json': { schema: { title: 'X', type: 'string' } } } } } } },
        '/b': { get: { responses: { '200': { content: { 'application/json': { schema: { title: 'X', type: 'number' } } } } } } },
      },
    };
    assert.throws(() => completeDocument(clash as never), /Two different schemas are titled "X"/);
  });
});
