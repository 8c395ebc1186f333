import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';
import { FakeProviders } from '../../fakes/llm-providers.ts';

const KEYS = {
  vendor_a: 'sk-proj-good-0123456789abcdef',
  vendor_b: 'sk-ant-api03-good-0123456789abcdef',
  vendor_c: 'AIzaSy-good-0123456789abcdefgh',
  router: 'sk-or-v1-good-0123456789abcdef',
  custom: 'local-good-token-0123456789',
} as const;
type P = keyof typeof KEYS;
const PROVIDERS = Object.keys(KEYS) as P[];
const badKey = (p: P) => KEYS[p].replace('good', 'bad');
const MODELS: Record<P, string> = {
  vendor_a: 'gpt-4o-mini',
  vendor_b: 'claude-3-5-haiku-latest',
  vendor_c: 'gemini-2.0-flash',
  router: 'openai/gpt-4o-mini',
  custom: 'my-llama',
};

describe('AI connectors', () => {
  let t: TestApp;
  let fake: FakeProviders;
  let owner: string;
  let admin: string;
  let member: string;
  let otherOwner: string;
  const testBody = (p: P, over: Record<string, unknown> = {}) => ({
    provider: p,
    api_key: KEYS[p],
    model: MODELS[p],
    ...(p === 'custom' ? { base_url: fake.customBaseUrl } : {}),
    ...over,
  });

  before(async () => {
    fake = await new FakeProviders().start();
    t = await buildTestApp({ env: fake.env() });
    // Generous, so a loaded machine does not turn a success into a timeout; the timeout case shortens it.
    t.app.services.connectors.timeoutMs = 5000;
    owner = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
    admin = await t.login({ tenant: 'acme', user: 'ada', role: 'admin' });
    member = await t.login({ tenant: 'acme', user: 'max', role: 'member' });
    otherOwner = await t.login({ tenant: 'globex', user: 'gus', role: 'owner' });
  });
  after(async () => {
    await t.close();
    await fake.close();
  });

  test('connection test succeeds on every provider with its own protocol and auth header', async () => {
    for (const p of PROVIDERS) {
      fake.requests = [];
      const res = await call(t, owner, 'POST', '/api/v1/ai/connectors/test', testBody(p));
      assert.equal(res.statusCode, 200, p);
      assert.equal(res.data.success, true, `${p}: ${res.data.message}`);
      assert.equal(typeof res.data.latency_ms, 'number');
      assert.ok(res.data.latency_ms >= 1);
      assert.match(res.data.message, new RegExp(MODELS[p].replace(/[./]/g, '\\$&')));
      assert.equal(fake.requests.length, 1, p);
      const r = fake.requests[0];
      assert.equal(r.provider, p);
      if (p === 'vendor_b') {
        assert.equal(r.headers['x-api-key'], KEYS[p]);
        assert.equal(r.headers['anthropic-version'], '2023-06-01');
        assert.equal(r.body.model, MODELS[p]);
      } else if (p === 'vendor_c') {
        assert.equal(r.headers['x-goog-api-key'], KEYS[p]);
        assert.equal(r.path, `/c/v1beta/models/${MODELS[p]}:generateContent`);
        assert.equal(r.headers.authorization, undefined);
      } else {
        assert.equal(r.headers.authorization, `Bearer ${KEYS[p]}`);
        assert.equal(r.body.model, MODELS[p]);
      }
    }
  });

  test('every failure kind is success:false, latency_ms null, a message a person understands, never the key', async () => {
    const cases: { over: (p: P) => Record<string, unknown>; expect: RegExp }[] = [
      { over: (p) => ({ api_key: badKey(p) }), expect: /refused the API key/ },
      { over: () => ({ model: 'missing-model' }), expect: /does not know this model/ },
      { over: () => ({ model: 'slow-model' }), expect: /did not answer within 400 ms/ },
      { over: () => ({ model: 'boom-model' }), expect: /failed \(500/ },
      { over: () => ({ model: 'moved-model' }), expect: /redirect \(302\)/ },
      { over: () => ({ model: 'junk-model' }), expect: /not JSON/ },
      { over: (p) => ({ api_key: KEYS[p].replace('good', 'busy') }), expect: /rate limiting|no credit or quota/ },
    ];
    for (const p of PROVIDERS) {
      for (const c of cases) {
        const body = testBody(p, c.over(p));
        t.app.services.connectors.timeoutMs = body.model === 'slow-model' ? 400 : 5000;
        const res = await call(t, owner, 'POST', '/api/v1/ai/connectors/test', body);
        assert.equal(res.statusCode, 200, `${p} ${JSON.stringify(c.over(p))}`);
        assert.equal(res.data.success, false, `${p} ${res.data.message}`);
        assert.equal(res.data.latency_ms, null);
        assert.match(res.data.message, c.expect, `${p}: ${res.data.message}`);
        assert.ok(!res.data.message.includes(String(body.api_key)), `${p} leaks the key: ${res.data.message}`);
      }
    }
    t.app.services.connectors.timeoutMs = 5000;
  });

  test('quota exhaustion is named as such', async () => {
    for (const p of ['vendor_a', 'router'] as P[]) {
      const res = await call(t, owner, 'POST', '/api/v1/ai/connectors/test', testBody(p, { api_key: KEYS[p].replace('good', 'broke') }));
      assert.match(res.data.message, /no credit or quota/, res.data.message);
    }
  });

  test('a refused connection and an unreachable host are failures too', async () => {
    const closed = new FakeProviders();
    await closed.start();
    const url = closed.customBaseUrl;
    await closed.close();
    const res = await call(t, owner, 'POST', '/api/v1/ai/connectors/test', testBody('custom', { base_url: url }));
    assert.equal(res.data.success, false);
    assert.match(res.data.message, /connection was refused/);
  });

  test('without INSIGHTS_EGRESS_ALLOW a loopback or metadata base_url is refused with a clear message', async () => {
    const strict = await buildTestApp();
    try {
      const o = await strict.login({ tenant: 'acme', user: 'olga', role: 'owner' });
      for (const base of [fake.customBaseUrl, 'http://169.254.169.254/v1', 'http://10.1.2.3/v1', 'http://[::ffff:127.0.0.1]/v1']) {
        fake.requests = [];
        const res = await call(strict, o, 'POST', '/api/v1/ai/connectors/test', {
          provider: 'custom',
          api_key: 'x',
          model: 'm',
          base_url: base,
        });
        assert.equal(res.statusCode, 200);
        assert.equal(res.data.success, false);
        assert.equal(res.data.latency_ms, null);
        assert.match(res.data.message, /refused.*INSIGHTS_EGRESS_ALLOW/s, res.data.message);
        assert.equal(fake.requests.length, 0);
      }
    } finally {
      await strict.close();
    }
  });

  test('key format per provider, base_url only for custom, model required for custom: 400 naming the field', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ provider: 'vendor_a', api_key: 'pk-0123456789abcdef' }, '/body/api_key'],
      [{ provider: 'vendor_a', api_key: 'sk-ant-api03-0123456789abcdef' }, '/body/api_key'],
      [{ provider: 'vendor_b', api_key: 'sk-0123456789abcdef' }, '/body/api_key'],
      [{ provider: 'vendor_c', api_key: 'sk-0123456789abcdef' }, '/body/api_key'],
      [{ provider: 'router', api_key: 'sk-0123456789abcdef' }, '/body/api_key'],
      [{ provider: 'vendor_a', api_key: KEYS.vendor_a, base_url: 'https://example.com/v1' }, '/body/base_url'],
      [{ provider: 'custom', api_key: 'anything', model: 'm' }, '/body/base_url'],
      [{ provider: 'custom', api_key: 'anything', base_url: 'https://llm.example.com/v1' }, '/body/model'],
      [{ provider: 'custom', api_key: 'anything', model: 'm', base_url: 'ftp://llm.example.com' }, '/body/base_url'],
      [{ provider: 'nope', api_key: 'x' }, '/body/provider'],
      [{ provider: 'vendor_a', api_key: KEYS.vendor_a, extra: 1 }, '/body/extra'],
    ];
    for (const [body, path] of bad) {
      const res = await call(t, owner, 'POST', '/api/v1/ai/connectors', body);
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.ok(
        res.data.errors.some((e: any) => e.path === path),
        `${JSON.stringify(body)} → ${JSON.stringify(res.data.errors)}`,
      );
    }
    const test = await call(t, owner, 'POST', '/api/v1/ai/connectors/test', {
      provider: 'vendor_c',
      api_key: KEYS.vendor_c,
      model: 'gemini-2.0-flash',
      base_url: 'https://x.example',
    });
    assert.equal(test.statusCode, 400);
    assert.equal(test.data.errors[0].path, '/body/base_url');
  });

  test('create returns 201 masked with model defaults and labels; the saved one becomes the only active one', async () => {
    const a = await call(t, owner, 'POST', '/api/v1/ai/connectors', { provider: 'vendor_a', api_key: KEYS.vendor_a });
    assert.equal(a.statusCode, 201);
    assert.deepEqual(
      { ...a.data, created_at: undefined },
      {
        provider: 'vendor_a',
        api_key_masked: 'sk-p****cdef',
        is_active: true,
        model: 'gpt-4o-mini',
        model_label: 'GPT-4o mini',
        base_url: null,
        created_at: undefined,
      },
    );
    assert.match(a.data.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const b = await call(t, admin, 'POST', '/api/v1/ai/connectors', {
      provider: 'vendor_b',
      api_key: KEYS.vendor_b,
      model: 'claude-sonnet-4-20250514',
    });
    assert.equal(b.statusCode, 201);
    assert.equal(b.data.model_label, 'Claude Sonnet 4');
    const c = await call(t, owner, 'POST', '/api/v1/ai/connectors', {
      provider: 'custom',
      api_key: 'short',
      model: 'my-llama',
      base_url: fake.customBaseUrl + '/',
    });
    assert.equal(c.data.api_key_masked, '****');
    assert.equal(c.data.base_url, fake.customBaseUrl);
    assert.equal(c.data.model_label, null);

    let list = await call(t, member, 'GET', '/api/v1/ai/connectors');
    assert.equal(list.statusCode, 200);
    assert.deepEqual(list.data.map((x: any) => [x.provider, x.is_active]).sort(), [
      ['custom', true],
      ['vendor_a', false],
      ['vendor_b', false],
    ]);

    // overwrite: same provider again replaces the record and activates it
    const a2 = await call(t, owner, 'POST', '/api/v1/ai/connectors', {
      provider: 'vendor_a',
      api_key: 'sk-proj-second-key-9876543210',
      model: 'gpt-unknown-x',
    });
    assert.equal(a2.statusCode, 201);
    assert.equal(a2.data.api_key_masked, 'sk-p****3210');
    assert.equal(a2.data.model_label, null);
    list = await call(t, owner, 'GET', '/api/v1/ai/connectors');
    assert.equal(list.data.length, 3);
    assert.deepEqual(
      list.data.filter((x: any) => x.is_active).map((x: any) => x.provider),
      ['vendor_a'],
    );
    assert.ok(!JSON.stringify(list.data).includes('second-key'));

    // other tenant sees nothing
    assert.deepEqual((await call(t, otherOwner, 'GET', '/api/v1/ai/connectors')).data, []);
  });

  test('PATCH switches the active one; delete of the active leaves none active; 404s', async () => {
    const r = await call(t, owner, 'PATCH', '/api/v1/ai/connectors/vendor_b', { is_active: true });
    assert.equal(r.statusCode, 200);
    assert.equal(r.data.is_active, true);
    let list = await call(t, owner, 'GET', '/api/v1/ai/connectors');
    assert.deepEqual(
      list.data.filter((x: any) => x.is_active).map((x: any) => x.provider),
      ['vendor_b'],
    );

    const off = await call(t, owner, 'PATCH', '/api/v1/ai/connectors/vendor_b', { is_active: false });
    assert.equal(off.data.is_active, false);
    list = await call(t, owner, 'GET', '/api/v1/ai/connectors');
    assert.equal(list.data.filter((x: any) => x.is_active).length, 0);

    await call(t, owner, 'PATCH', '/api/v1/ai/connectors/custom', { is_active: true });
    const del = await call(t, owner, 'DELETE', '/api/v1/ai/connectors/custom');
    assert.equal(del.statusCode, 204);
    assert.equal(del.body, '');
    list = await call(t, owner, 'GET', '/api/v1/ai/connectors');
    assert.deepEqual(list.data.map((x: any) => x.provider).sort(), ['vendor_a', 'vendor_b']);
    assert.equal(list.data.filter((x: any) => x.is_active).length, 0);

    assert.equal((await call(t, owner, 'DELETE', '/api/v1/ai/connectors/custom')).statusCode, 404);
    assert.equal((await call(t, owner, 'PATCH', '/api/v1/ai/connectors/router', { is_active: true })).statusCode, 404);
    assert.equal((await call(t, otherOwner, 'PATCH', '/api/v1/ai/connectors/vendor_a', { is_active: true })).statusCode, 404);
    assert.equal((await call(t, otherOwner, 'DELETE', '/api/v1/ai/connectors/vendor_a')).statusCode, 404);
    assert.equal((await call(t, owner, 'PATCH', '/api/v1/ai/connectors/vendor_a', {})).statusCode, 400);
    assert.equal((await call(t, owner, 'DELETE', '/api/v1/ai/connectors/bogus')).statusCode, 400);
  });

  test('members may list but not create, activate, delete or test', async () => {
    assert.equal((await call(t, member, 'GET', '/api/v1/ai/connectors')).statusCode, 200);
    assert.equal(
      (await call(t, member, 'POST', '/api/v1/ai/connectors', { provider: 'vendor_a', api_key: KEYS.vendor_a })).statusCode,
      403,
    );
    assert.equal((await call(t, member, 'PATCH', '/api/v1/ai/connectors/vendor_a', { is_active: true })).statusCode, 403);
    assert.equal((await call(t, member, 'DELETE', '/api/v1/ai/connectors/vendor_a')).statusCode, 403);
    assert.equal((await call(t, member, 'POST', '/api/v1/ai/connectors/test', testBody('vendor_a'))).statusCode, 403);
    assert.equal((await call(t, undefined, 'GET', '/api/v1/ai/connectors')).statusCode, 401);
  });

  test('the database holds no plaintext key, only the sealed form that opens to it', async () => {
    const key = 'sk-ant-api03-plaintext-canary-key-42';
    await call(t, owner, 'POST', '/api/v1/ai/connectors', { provider: 'vendor_b', api_key: key });
    // use it, so the chat tables hold an exchange answered through this key
    const chat = await call(t, owner, 'POST', '/api/v1/ai/chat', { message: 'revenue' });
    assert.equal(chat.data.data.answered_by, 'vendor_b');
    // Every table of the system of record, not just the connectors'.
    const tables = await t.db.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
    );
    assert.ok(tables.some((x) => x.name === 'ai_connectors'));
    for (const { name } of tables) {
      const all = await t.db.query(`SELECT * FROM "${name}"`);
      assert.ok(!JSON.stringify(all).includes('plaintext-canary'), `plaintext key stored in ${name}`);
    }
    const rows = await t.db.query('SELECT * FROM ai_connectors');
    const row = rows.find((r: any) => r.provider === 'vendor_b' && r.tenant_id === 'acme')!;
    assert.match(row.api_key_sealed, /^v1:/);
    assert.equal(t.secrets.open(row.api_key_sealed), key);
    assert.equal(row.api_key_masked, 'sk-a****y-42');
  });
});
