// Routes whose schemas are written the same way share one compiled serializer and one validator
// (src/plugins/compiled-schemas.ts): the app has ~470 response schemas of ~75 kinds and ~100
// request schemas of ~40, each compiled function kept for the life of the process. Sharing must
// not change what any route answers or refuses.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from 'typebox';
import { createHttpApp } from '../../src/plugins/http.ts';

const item = () => Type.Object({ id: Type.String(), count: Type.Integer() }, { additionalProperties: false });
const other = () => Type.Object({ id: Type.String(), label: Type.String() }, { additionalProperties: false });
const body = () => Type.Object({ name: Type.String({ minLength: 1 }) }, { additionalProperties: false });

test('routes with equal schemas share compiled functions; each still answers and refuses by its own schema', async () => {
  const app = await createHttpApp({ logger: false, metrics: false, corsOrigins: [], rateLimitPerMinute: 1000, trustProxy: false });
  const seen: Record<string, { serialize: unknown; validate: unknown }> = {};
  for (const [url, response] of [
    ['/a', item()],
    ['/b', item()],
    ['/c', other()],
  ] as const) {
    app.post(url, { schema: { body: body(), response: { 200: response } } }, async (req, reply) => {
      seen[url] = { serialize: reply.getSerializationFunction('200'), validate: req.getValidationFunction('body') };
      // A field the schema does not name is left out by the serializer, whichever route compiled it.
      return { id: (req.body as { name: string }).name, count: 3, label: 'x', secret: 'never sent' };
    });
  }
  try {
    for (const url of ['/a', '/b', '/c']) {
      const res = await app.inject({ method: 'POST', url, payload: { name: 'n1' } });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), url === '/c' ? { id: 'n1', label: 'x' } : { id: 'n1', count: 3 });
      const bad = await app.inject({ method: 'POST', url, payload: { name: '' } });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.headers['content-type'] as string, /application\/problem\+json/);
    }
    assert.ok(seen['/a'].serialize, 'the route has a compiled serializer');
    assert.equal(seen['/a'].serialize, seen['/b'].serialize, 'equal response schemas: one serializer');
    assert.notEqual(seen['/a'].serialize, seen['/c'].serialize, 'different response schemas: their own');
    assert.equal(seen['/a'].validate, seen['/b'].validate, 'equal body schemas: one validator');
    assert.equal(seen['/a'].validate, seen['/c'].validate);
  } finally {
    await app.close();
  }
});

test('a query schema and a body schema written the same way keep their own validators (queries coerce text, bodies do not)', async () => {
  const app = await createHttpApp({ logger: false, metrics: false, corsOrigins: [], rateLimitPerMinute: 1000, trustProxy: false });
  const shape = () => Type.Object({ n: Type.Integer() });
  app.post('/q', { schema: { querystring: shape(), body: shape() } }, async (req) => ({ query: req.query, body: req.body }));
  try {
    const ok = await app.inject({ method: 'POST', url: '/q?n=4', payload: { n: 5 } });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual(ok.json(), { query: { n: 4 }, body: { n: 5 } });
    const textInBody = await app.inject({ method: 'POST', url: '/q?n=4', payload: { n: '5' } });
    assert.equal(textInBody.statusCode, 400, 'a number sent as text in a JSON body is refused');
  } finally {
    await app.close();
  }
});
