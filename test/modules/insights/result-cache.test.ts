// The result cache's bound (src/modules/insights/insights.cache.ts): at most maxEntries; an entry
// read since the eviction pass last went by it is kept over an unread one; a new answer is never
// the one evicted to make room for itself.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ResultCache } from '../../../src/modules/insights/insights.cache.ts';

const entry = (n: number) => ({ result: n });

test('the cache holds at most its size; the oldest unread entry goes first', () => {
  const cache = new ResultCache<number>(3);
  for (const k of ['a', 'b', 'c']) cache.set(k, entry(k.charCodeAt(0)));
  // One pass by all three (each new entry counts as read once), then 'a' is the oldest unread.
  cache.set('d', entry(4));
  assert.equal(cache.size, 3);
  assert.equal(cache.get('a'), undefined, 'the oldest, unread since it was passed, went');
  assert.deepEqual(
    ['b', 'c', 'd'].map((k) => cache.get(k) !== undefined),
    [true, true, true],
  );
});

test('an entry read since the last pass outlives unread older ones; the answer just stored stays', () => {
  const cache = new ResultCache<number>(3);
  for (const k of ['a', 'b', 'c']) cache.set(k, entry(1));
  cache.set('d', entry(1)); // passes a, b, c (unmarking them) and evicts the first: a
  assert.equal(cache.get('b')?.result, 1); // b is read again
  cache.set('e', entry(1)); // b read → to the back; c unread → evicted
  assert.equal(cache.get('c'), undefined);
  assert.ok(cache.get('b'), 'the entry read since the last pass stays');
  assert.ok(cache.get('e'), 'the new answer stays');
  assert.equal(cache.size, 3);
  // Every entry read: the pass goes round once and evicts the oldest, never the new one.
  for (const k of ['b', 'd', 'e']) cache.get(k);
  cache.set('f', entry(2));
  assert.equal(cache.size, 3);
  assert.equal(cache.get('f')?.result, 2);
});

test('setting a key again replaces its entry without growing the cache', () => {
  const cache = new ResultCache<number>(2);
  cache.set('a', entry(1));
  cache.set('a', entry(2));
  assert.equal(cache.size, 1);
  assert.equal(cache.get('a')?.result, 2);
  cache.clear();
  assert.equal(cache.size, 0);
});
