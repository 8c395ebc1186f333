// A bounded, deterministic fuzz run over every operation of the OpenAPI document: malformed ids,
// NUL bytes, bad percent-encodings, wrong types, huge strings, bad JSON and wrong content types.
// Whatever arrives, the answer is never a 5xx, and every 4xx is a problem document whose code is in
// the error table.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, type TestApp } from '../helpers/app.ts';
import { ERROR_CODES } from '../../src/lib/errors.ts';
import { prng } from '../helpers/prng.ts';

const SEED = 0x5eed_2026;
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3000);

/** Raw path segments, already percent-encoded (or deliberately not). */
const BAD_SEGMENTS = [
  '%00',
  'nul%00nul',
  'a%00b',
  '%zz',
  '%c0%ae',
  '%',
  '%e0%80',
  '%ff%fe',
  '..%2f..%2fetc',
  '%2e%2e',
  'x'.repeat(101),
  'x'.repeat(5000),
  '0',
  '-1',
  'null',
  'undefined',
  '%20',
  'NaN',
  "'%3B--",
  '%0d%0a',
  '00000000-0000-0000-0000-000000000000',
  '0191d5a4-7c3e-7bbb-8f1e-00000000000g',
  '%F0%9F%98%80',
  '%ED%A0%80',
];

const JUNK_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1e308,
  3.5,
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'x'.repeat(70_000),
  [],
  [1, 'a'],
  {},
  { '\u0000': 1 },
  { nested: { deeper: ['\u0000'] } },
  '%zz',
  '\ud800',
  '2026-13-45',
  'day',
  'owner',
  'messenger',
];

const BAD_BODIES = [
  '{',
  '{"a":',
  'nul\u0000',
  '[1,2',
  '"str"',
  '123',
  'null',
  '{"__proto__":{"x":1}}',
  '{"constructor":{"prototype":{}}}',
  '\u0000',
];
const CONTENT_TYPES = [
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/jsonx',
  '',
];

/** A lone surrogate cannot be percent-encoded as UTF-8: send the bytes such a client would. */
function queryValue(v: unknown): string {
  try {
    return encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v));
  } catch {
    return '%ED%A0%80';
  }
}

interface Operation {
  method: string;
  path: string;
  bodyFields: string[];
  queryFields: string[];
}

test(`fuzz: ${REQUESTS} malformed requests across every operation give no 5xx and only problem documents`, async () => {
  const t: TestApp = await buildTestApp({
    env: {
      // Nothing leaves the machine: every third party points at a closed loopback port.
      INSIGHTS_MESSENGER_API_URL: 'http://127.0.0.1:9',
      INSIGHTS_PROVIDER_URL_VENDOR_A: 'http://127.0.0.1:9',
      INSIGHTS_PROVIDER_URL_VENDOR_B: 'http://127.0.0.1:9',
      INSIGHTS_PROVIDER_URL_VENDOR_C: 'http://127.0.0.1:9',
      INSIGHTS_PROVIDER_URL_ROUTER: 'http://127.0.0.1:9',
    },
  });
  after(() => t.close());
  const owner = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
  const member = await t.login({ tenant: 'acme', user: 'mia', role: 'member' });

  // Real ids, so that part of the run gets past the lookup into the services.
  const dash = (await call(t, owner, 'POST', '/api/v1/dashboards/', { name: 'fuzz' })).data;
  const widget = (
    await call(t, owner, 'POST', `/api/v1/dashboards/${dash.id}/widgets`, {
      title: 'w',
      widget_type: 'chart',
      data_source: 'live_insight',
      insight_code: 'revenue',
    })
  ).data;
  const real: Record<string, string> = { id: dash.id, wid: widget?.id ?? dash.id, subId: dash.id, provider: 'vendor_a', code: 'revenue' };

  const doc = (await call(t, undefined, 'GET', '/api/v1/openapi.json')).data;
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(methods)) {
      const schema = op.requestBody?.content?.['application/json']?.schema;
      ops.push({
        method: method.toUpperCase(),
        path,
        bodyFields: Object.keys(schema?.properties ?? {}),
        queryFields: (op.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name),
      });
    }
  }
  assert.ok(ops.length >= 30, `only ${ops.length} operations in the OpenAPI document`);

  const rnd = prng(SEED);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const failures: string[] = [];
  let fiveXx = 0;

  for (let i = 0; i < REQUESTS; i++) {
    const op = pick(ops);
    const url = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => (rnd() < 0.3 ? (real[name] ?? 'x') : pick(BAD_SEGMENTS)));
    const query =
      op.queryFields.length && rnd() < 0.6
        ? '?' +
          op.queryFields
            .filter(() => rnd() < 0.5)
            .map((q) => `${q}=${rnd() < 0.5 ? pick(BAD_SEGMENTS) : queryValue(pick(JUNK_VALUES))}`)
            .join('&')
        : rnd() < 0.1
          ? `?${pick(BAD_SEGMENTS)}=${pick(BAD_SEGMENTS)}`
          : '';
    const headers: Record<string, string> = {
      authorization:
        rnd() < 0.85 ? owner : rnd() < 0.5 ? member : pick(['Bearer x.y.z', 'Svc ', 'Basic Zm9vOmJhcg==', 'Bearer ' + 'a'.repeat(5000)]),
    };
    let payload: string | undefined;
    const shape = rnd();
    if (shape < 0.45) {
      const body: Record<string, unknown> = {};
      for (const f of op.bodyFields) if (rnd() < 0.7) body[f] = pick(JUNK_VALUES);
      if (rnd() < 0.2) body[pick(['\u0000', 'extra', 'x'.repeat(300)])] = pick(JUNK_VALUES);
      payload = JSON.stringify(body);
    } else if (shape < 0.65) {
      payload = pick(BAD_BODIES);
    } else if (shape < 0.75) {
      payload = JSON.stringify(pick(JUNK_VALUES));
    }
    if (payload !== undefined) {
      const ct = pick(CONTENT_TYPES);
      if (ct) headers['content-type'] = ct;
    }
    const res = await t.app.inject({ method: op.method as 'GET', url: url + query, headers, payload });
    const what = `#${i} ${op.method} ${(url + query).slice(0, 160)} ${headers['content-type'] ?? ''} ${payload?.slice(0, 80) ?? ''} → ${res.statusCode} ${res.body.slice(0, 160)}`;
    if (res.statusCode >= 500) {
      fiveXx++;
      failures.push(what);
      continue;
    }
    if (res.statusCode >= 400) {
      let code: string | undefined;
      try {
        code = JSON.parse(res.body).code;
      } catch {
        // not JSON at all: reported below
      }
      const isProblem = /^application\/problem\+json/.test(String(res.headers['content-type']));
      if (!isProblem || !code || !(code in ERROR_CODES)) failures.push(what);
    }
  }
  // eslint-disable-next-line no-console
  console.log(`fuzz: ${REQUESTS} requests, ${fiveXx} answered 5xx, ${failures.length} failures`);
  assert.deepEqual(failures.slice(0, 40), [], `${fiveXx} of ${REQUESTS} were 5xx; ${failures.length} failures in all`);
});
