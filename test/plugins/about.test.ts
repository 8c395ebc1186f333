// GET /api/v1/version, GET / and CORS for browser front ends on other origins.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { WEB_DIST } from '../../src/plugins/web.ts';
import { buildTestApp, call, type TestApp } from '../helpers/app.ts';
import { loadConfig } from '../../src/config/index.ts';
import { ROOT } from '../helpers/process.ts';

const pkg = JSON.parse(fs.readFileSync(`${ROOT}/package.json`, 'utf8'));

describe('version and front door', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({
      env: { INSIGHTS_COMMIT: 'abc1234', INSIGHTS_CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' },
    });
  });
  after(() => t.close());

  test('GET /api/v1/version names the package, its version, the commit, Node.js and the warehouse dialect to an authenticated caller', async () => {
    const member = await t.login({ tenant: 'acme', user: 'mia', role: 'member' });
    const res = await call(t, member, 'GET', '/api/v1/version');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.data, {
      name: pkg.name,
      version: pkg.version,
      commit: 'abc1234',
      node: process.versions.node,
      warehouse: 'duckdb',
    });
    const doc = (await call(t, undefined, 'GET', '/api/v1/openapi.json')).data;
    const op = doc.paths['/api/v1/version'].get;
    assert.ok(op.responses['200'], 'the version operation is in the OpenAPI document');
    assert.ok(op.responses['401'], 'it declares 401');
    assert.notDeepEqual(op.security, [], 'it is not marked public');
  });

  test('GET /api/v1/version without credentials is a 401 problem that tells no version', async () => {
    const res = await call(t, undefined, 'GET', '/api/v1/version');
    assert.equal(res.statusCode, 401);
    assert.match(String(res.headers['content-type']), /application\/problem\+json/);
    assert.doesNotMatch(res.body, new RegExp(process.versions.node.replace(/\./g, '\\.')));
    assert.doesNotMatch(res.body, new RegExp(`"${pkg.version.replace(/\./g, '\\.')}"`));
  });

  test('GET / is the web app when it is built, else leads to the API documentation', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    if (fs.existsSync(path.join(WEB_DIST, 'index.html'))) {
      assert.equal(res.statusCode, 200);
      assert.match(res.headers['content-type'] as string, /text\/html/);
      return;
    }
    assert.equal(res.statusCode, 302);
    assert.equal(res.headers.location, '/docs');
  });

  test('CORS: a listed origin gets the headers and a preflight without credentials; another origin gets none', async () => {
    const owner = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
    const ok = await t.app.inject({
      method: 'GET',
      url: '/api/v1/dashboards/',
      headers: { origin: 'https://app.example.com', authorization: owner },
    });
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.headers['access-control-allow-origin'], 'https://app.example.com');
    assert.match(String(ok.headers['access-control-expose-headers']), /Link/);

    const pre = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/dashboards/',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    assert.equal(pre.statusCode, 204, pre.body);
    assert.equal(pre.headers['access-control-allow-origin'], 'http://localhost:5173');
    assert.match(String(pre.headers['access-control-allow-headers']), /Authorization/i);

    const other = await t.app.inject({
      method: 'GET',
      url: '/api/v1/dashboards/',
      headers: { origin: 'https://evil.example', authorization: owner },
    });
    assert.equal(other.headers['access-control-allow-origin'], undefined);
  });
});

test('without INSIGHTS_CORS_ORIGINS no origin is allowed', async () => {
  const t = await buildTestApp();
  try {
    const member = await t.login({ tenant: 'acme', user: 'mia', role: 'member' });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/version',
      headers: { origin: 'https://app.example.com', authorization: member },
    });
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    assert.equal(JSON.parse(res.body).commit, null);
  } finally {
    await t.close();
  }
});

test('INSIGHTS_CORS_ORIGINS must list origins (scheme://host[:port]); anything else stops start-up naming it', () => {
  assert.deepEqual(loadConfig({ INSIGHTS_CORS_ORIGINS: 'https://a.example/, http://localhost:3000' }).corsOrigins, [
    'https://a.example',
    'http://localhost:3000',
  ]);
  assert.deepEqual(loadConfig({}).corsOrigins, []);
  for (const bad of ['*', 'a.example', 'https://a.example/path', 'ftp://a.example']) {
    assert.throws(() => loadConfig({ INSIGHTS_CORS_ORIGINS: bad }), /INSIGHTS_CORS_ORIGINS/, bad);
  }
});

test('.env.example lists every setting the configuration reads, and nothing else', () => {
  const source = fs.readFileSync(`${ROOT}/src/config/index.ts`, 'utf8');
  const read = new Set([...source.matchAll(/env, '([A-Z0-9_]+)'/g)].map((m) => m[1]));
  const listed = new Set([...fs.readFileSync(`${ROOT}/.env.example`, 'utf8').matchAll(/^# ([A-Z0-9_]+)=/gm)].map((m) => m[1]));
  assert.ok(read.size > 20);
  assert.deepEqual([...listed].sort(), [...read].sort());
});
