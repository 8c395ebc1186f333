// When the idle release collects (src/lib/idle-heap.ts), on a real HTTP server with a heap whose
// size the test sets: only with nothing in flight, once per idle spell, not without growth, a
// spell too soon after the last release waits for the interval, and a pipelined request whose
// socket closed before its turn does not count as in flight for ever.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { releaseHeapWhenIdle, type Heap, type HeapRelease } from '../../src/lib/idle-heap.ts';

const IDLE_MS = 40;
const INTERVAL_MS = 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `ok` holds, for up to 5 s: timers run late on a loaded machine. */
async function eventually(ok: () => boolean): Promise<boolean> {
  for (const until = Date.now() + 5000; !ok() && Date.now() < until; ) await sleep(10);
  return ok();
}

/** A heap of `size` bytes that a collection takes back to `floor`. */
function fakeHeap(): Heap & { size: number; floor: number; collections: number } {
  return {
    size: 10_000,
    floor: 1_000,
    collections: 0,
    bytes() {
      return this.size;
    },
    async collect() {
      this.collections++;
      this.size = this.floor;
    },
  };
}

async function serverWith(handler: http.RequestListener) {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const heap = fakeHeap();
  const releases: HeapRelease[] = [];
  const idle = releaseHeapWhenIdle(server, {
    idleMs: IDLE_MS,
    minIntervalMs: INTERVAL_MS,
    minGrowthBytes: 100,
    heap,
    onRelease: (r) => releases.push(r),
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  after(async () => {
    idle.stop();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return { server, heap, releases, url };
}

test('one release once nothing is in flight, none while a request is, none twice in one spell', async () => {
  let hold: (() => void) | undefined;
  const { heap, releases, url } = await serverWith((req, res) => {
    if (req.url === '/slow') hold = () => res.end('slow');
    else res.end('ok');
  });
  const slow = fetch(`${url}/slow`).then((r) => r.text());
  await (await fetch(`${url}/fast`)).text();
  await sleep(IDLE_MS * 5);
  assert.equal(heap.collections, 0, 'a request still in flight');
  hold!();
  assert.equal(await slow, 'slow');
  assert.ok(await eventually(() => heap.collections === 1), 'released once idle');
  assert.deepEqual(
    releases.map((r) => [r.before, r.after]),
    [[10_000, 1_000]],
  );
  await sleep(IDLE_MS * 5);
  assert.equal(heap.collections, 1, 'once per idle spell');
});

test('a spell soon after a release waits for the interval; a spell without growth is left alone', async () => {
  const { heap, url } = await serverWith((_req, res) => res.end('ok'));
  await (await fetch(url)).text();
  assert.ok(await eventually(() => heap.collections === 1));
  const released = performance.now();

  heap.size = 5_000;
  await (await fetch(url)).text();
  await sleep(IDLE_MS * 3);
  assert.equal(heap.collections, 1, 'not yet: the last release was less than the interval ago');
  assert.ok(await eventually(() => heap.collections === 2), 'released once the interval passed, the server still idle');
  assert.ok(performance.now() - released >= INTERVAL_MS - IDLE_MS * 3);

  heap.size = heap.floor + 50;
  await sleep(INTERVAL_MS);
  await (await fetch(url)).text();
  await sleep(IDLE_MS * 5);
  assert.equal(heap.collections, 2, 'the heap grew by less than the least growth');
});

test('pipelined requests whose socket closes before their turn are not in flight for ever', async () => {
  const { heap, url } = await serverWith((req, res) => {
    // The first answers late, so the two behind it are still queued when the client leaves.
    if (req.url === '/a') setTimeout(() => res.end('a'), 100);
    else res.end(req.url);
  });
  const { port } = new URL(url);
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  socket.write(['/a', '/b', '/c'].map((p) => `GET ${p} HTTP/1.1\r\nHost: x\r\n\r\n`).join(''));
  await sleep(50);
  socket.destroy();
  assert.ok(await eventually(() => heap.collections === 1), 'every request ended, so the server was idle');
});
