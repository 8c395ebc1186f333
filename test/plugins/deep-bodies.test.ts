// Deeply nested JSON at every operation that takes a JSON body (every POST, PUT, PATCH and DELETE): JSON.parse accepts 100 000 nested
// brackets, and a recursive walk after it used to overflow the stack (500 on 22 operations). Each
// such body is a 400 problem naming the body; a malformed one is MALFORMED_JSON; never a 5xx.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, type TestApp } from '../helpers/app.ts';
import { ERROR_CODES } from '../../src/lib/errors.ts';
import { MAX_BODY_DEPTH } from '../../src/plugins/nul-guard.ts';

const nestedArrays = (n: number) => '['.repeat(n) + ']'.repeat(n);
const nestedObjects = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

/** Balanced and too deep: refused as BODY_TOO_DEEP wherever the body is JSON. */
const TOO_DEEP: Record<string, string> = {
  '5 000 arrays': nestedArrays(5_000),
  '100 000 arrays': nestedArrays(100_000),
  '5 000 objects': nestedObjects(5_000),
  'deep inside a field': `{"name":"x","description":${nestedArrays(20_000)}}`,
  'one level too deep': nestedArrays(MAX_BODY_DEPTH + 1),
};
/** Not JSON at all: 100 000 brackets that never close. */
const UNBALANCED = '['.repeat(100_000);

interface Operation {
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
}

let t: TestApp;
let owner: string;
let operations: Operation[];

before(async () => {
  t = await buildTestApp({ env: { INSIGHTS_MESSENGER_API_URL: 'http://127.0.0.1:9', SMTP_URL: 'smtp://127.0.0.1:9' } });
  owner = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
  const doc = (await call(t, undefined, 'GET', '/api/v1/openapi.json')).data;
  // Path parameters get values of the right shape, so that nothing but the body can be wrong.
  const sample: Record<string, string> = { code: 'revenue', table: 'orders', provider: 'vendor_a' };
  operations = [];
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      // Fastify parses a JSON body on every POST, PUT, PATCH and DELETE, declared or not.
      if (!['post', 'put', 'patch', 'delete'].includes(method)) continue;
      if (op.requestBody && !op.requestBody.content?.['application/json']) continue;
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => sample[name] ?? '0191d5a4-7c3e-7bbb-8f1e-000000000001');
      operations.push({ method: method.toUpperCase() as Operation['method'], url });
    }
  }
});
after(() => t?.close());

test('every operation with a JSON body answers a too-deep body with 400 BODY_TOO_DEEP, never a 5xx', async () => {
  assert.ok(operations.length >= 22, `found ${operations.length} operations that parse a JSON body`);
  const failures: string[] = [];
  for (const op of operations) {
    for (const [name, body] of Object.entries(TOO_DEEP)) {
      const res = await t.app.inject({
        method: op.method,
        url: op.url,
        headers: { authorization: owner, 'content-type': 'application/json' },
        payload: body,
      });
      const problem = /application\/problem\+json/.test(String(res.headers['content-type'])) ? JSON.parse(res.body) : undefined;
      if (res.statusCode !== 400 || problem?.code !== 'BODY_TOO_DEEP' || problem.errors?.[0]?.path !== '/body') {
        failures.push(`${op.method} ${op.url} (${name}): ${res.statusCode} ${res.body.slice(0, 160)}`);
      }
    }
  }
  assert.deepEqual(failures, []);
});

test('100 000 unclosed brackets are MALFORMED_JSON at every such operation', async () => {
  const failures: string[] = [];
  for (const op of operations) {
    const res = await t.app.inject({
      method: op.method,
      url: op.url,
      headers: { authorization: owner, 'content-type': 'application/json' },
      payload: UNBALANCED,
    });
    const problem = /application\/problem\+json/.test(String(res.headers['content-type'])) ? JSON.parse(res.body) : undefined;
    // A data upload is streamed to a file, not parsed: its nesting is measured as it arrives, so
    // an unclosed nest is refused for its depth before its end could show it malformed.
    const expected = op.url.startsWith('/api/v1/data/') ? 'BODY_TOO_DEEP' : 'MALFORMED_JSON';
    if (res.statusCode >= 500 || !problem || !(problem.code in ERROR_CODES) || problem.code !== expected) {
      failures.push(`${op.method} ${op.url}: ${res.statusCode} ${res.body.slice(0, 160)}`);
    }
  }
  assert.deepEqual(failures, []);
});

test(`a body nested ${MAX_BODY_DEPTH} levels deep is not refused for its depth`, async () => {
  const res = await call(t, owner, 'POST', '/api/v1/dashboards/', undefined);
  assert.equal(res.statusCode, 400);
  const deep = await t.app.inject({
    method: 'POST',
    url: '/api/v1/dashboards/',
    headers: { authorization: owner, 'content-type': 'application/json' },
    payload: `{"name":"x","description":${nestedArrays(MAX_BODY_DEPTH - 1)}}`,
  });
  assert.equal(deep.statusCode, 400);
  assert.equal(JSON.parse(deep.body).code, 'VALIDATION_FAILED', 'the schema, not the depth, refuses it');
});
