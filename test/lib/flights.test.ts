// Reads in flight shared by key: one read for concurrent callers, the key free again once it settles.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Flights } from '../../src/lib/flights.ts';

test('callers of one key share the read in flight; a settled read, failed or not, is not remembered', async () => {
  const flights = new Flights();
  let started = 0;
  let finish!: (v: string) => void;
  const read = () => {
    started++;
    return new Promise<string>((resolve) => (finish = resolve));
  };
  const a = flights.join('k', read);
  const b = flights.join('k', read);
  const other = flights.join('other', async () => 'x');
  assert.equal(started, 1);
  finish('answer');
  assert.deepEqual(await Promise.all([a, b, other]), ['answer', 'answer', 'x']);
  assert.equal(flights.size, 0);
  await assert.rejects(
    flights.join('k', async () => {
      throw new Error('down');
    }),
    /down/,
  );
  assert.equal(await flights.join('k', async () => 'again'), 'again');
  assert.equal(flights.size, 0);
});
