// The cache behind the dashboards' reads and the API tokens (src/db/change-cache.ts): a change of
// one scope (a tenant) forgets only what it picks of that scope, a read of that scope in flight
// while it changes is never kept, and the bookkeeping of scopes follows entries as they expire,
// are evicted or are forgotten.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChangeCache } from '../../src/db/change-cache.ts';

const live = { live: true, close: async () => {} };

function cache(ttlMs = 60_000, maxEntries = 100): ChangeCache<string[]> {
  const c = new ChangeCache<string[]>(ttlMs, maxEntries);
  c.follow(live);
  return c;
}

/** The keys each scope's bookkeeping holds (private: read here to show nothing is left behind). */
const scopes = (c: ChangeCache<string[]>) =>
  Object.fromEntries([...(c as unknown as { scopes: Map<string, Set<string>> }).scopes].map(([s, k]) => [s, [...k].sort()]));

/** A read whose answer the test gives when it wants to. */
function pending(): { read: () => Promise<string[]>; answer: (v: string[]) => void } {
  let answer: (v: string[]) => void = () => {};
  const p = new Promise<string[]>((resolve) => {
    answer = resolve;
  });
  return { read: () => p, answer };
}

test('a read of a scope in flight while that scope changes is not kept; another scope’s change does not stop it', async () => {
  const c = cache();
  const stale = pending();
  const during = c.through('a', stale.read, Date.now, 'acme');
  c.changedIn('acme');
  stale.answer(['old']);
  assert.deepEqual(await during, ['old'], 'the read still answers its caller');
  assert.equal(c.get('a', Date.now()), undefined, 'but it is not kept');

  const fine = pending();
  const other = c.through('b', fine.read, Date.now, 'acme');
  c.changedIn('globex');
  fine.answer(['new']);
  await other;
  assert.deepEqual(c.get('b', Date.now()), ['new']);
});

test('a change of one scope forgets what it picks there, and nothing of other scopes', async () => {
  const c = cache();
  await c.through('find x', async () => ['x'], Date.now, 'acme');
  await c.through('list', async () => ['x', 'y'], Date.now, 'acme');
  await c.through('find z', async () => ['z'], Date.now, 'acme');
  await c.through('other', async () => ['x'], Date.now, 'globex');
  c.changedIn('acme', (rows) => rows.includes('x'));
  assert.equal(c.get('find x', Date.now()), undefined);
  assert.equal(c.get('list', Date.now()), undefined);
  assert.deepEqual(c.get('find z', Date.now()), ['z']);
  assert.deepEqual(c.get('other', Date.now()), ['x'], "globex's entry holds an x too, and stays");
  assert.deepEqual(scopes(c), { acme: ['find z'], globex: ['other'] });
  c.changedIn('acme');
  assert.equal(c.get('find z', Date.now()), undefined);
  assert.deepEqual(scopes(c), { globex: ['other'] });
  c.changed();
  assert.equal(c.get('other', Date.now()), undefined);
  assert.deepEqual(scopes(c), {});
});

test('entries that expire, are evicted or are written again leave no key behind in their scope', async () => {
  let now = 1_000;
  const c = cache(100, 2);
  await c.through(
    'a',
    async () => ['a'],
    () => now,
    'acme',
  );
  await c.through(
    'b',
    async () => ['b'],
    () => now,
    'acme',
  );
  await c.through(
    'c',
    async () => ['c'],
    () => now,
    'globex',
  );
  assert.equal(c.get('a', now), undefined, 'the oldest is evicted beyond two entries');
  assert.deepEqual(scopes(c), { acme: ['b'], globex: ['c'] });
  c.set('b', ['b2'], c.begin(), now, 'globex');
  assert.deepEqual(scopes(c), { globex: ['b', 'c'] }, 'written again under another scope');
  now += 101;
  assert.equal(c.get('b', now), undefined, 'expired');
  assert.deepEqual(scopes(c), { globex: ['c'] });
});

test('more scopes changed than entries kept: everything is forgotten once, and reads in flight are refused', async () => {
  const c = cache(60_000, 2);
  await c.through('kept', async () => ['k'], Date.now, 'acme');
  const inFlight = pending();
  const during = c.through('late', inFlight.read, Date.now, 'zeta');
  c.changedIn('t1');
  c.changedIn('t2');
  assert.deepEqual(c.get('kept', Date.now()), ['k'], 'two scopes changed: within the bound');
  c.changedIn('t3');
  assert.equal(c.get('kept', Date.now()), undefined, 'a third: everything forgotten');
  inFlight.answer(['late']);
  await during;
  assert.equal(c.get('late', Date.now()), undefined);
});
