// `insights serve` gives V8's heap back to the system once no request has been in flight for
// INSIGHTS_IDLE_RELEASE_MS (docs/footprint.md, "Giving the heap back when idle"), never with 0:
// the wiring, the real collection and /metrics. When it collects is test/lib/idle-heap.test.ts.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { EMBEDDED_ONLY, ownerDataDir, startServer, stopServer, type RunningServer } from '../helpers/process.ts';

let dataDir = '';
let server: RunningServer | undefined;
after(() => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A sample of /metrics by its full name (labels included), or undefined when it is not there. */
async function metrics(url: string): Promise<(name: string) => number | undefined> {
  const res = await fetch(`${url}/metrics`);
  assert.equal(res.status, 200);
  const text = await res.text();
  return (name) => {
    const line = text.split('\n').find((l) => l.startsWith(`${name} `));
    return line === undefined ? undefined : Number(line.slice(name.length + 1));
  };
}

/** Requests that leave garbage behind: executes of other windows each time, and chat. */
async function burst(url: string, headers: Record<string, string>, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    const res = await fetch(`${url}/api/v1/insights/revenue/execute?granularity=day&date_from=2024-01-${day}&date_to=2025-06-30`, {
      headers,
    });
    assert.equal(res.status, 200, await res.text());
    const chat = await fetch(`${url}/api/v1/ai/chat`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ message: i % 2 ? 'revenue by country' : 'orders by week' }),
    });
    assert.equal(chat.status, 200, await chat.text());
  }
}

test('once idle the server gives V8 its heap back, at most every 30 s; 0 never', {
  skip: EMBEDDED_ONLY,
}, async () => {
  const owner = await ownerDataDir('insights-idle-heap-');
  dataDir = owner.dataDir;
  const { headers } = owner;

  server = await startServer(dataDir, 60_000, { INSIGHTS_IDLE_RELEASE_MS: '1000', LOG_LEVEL: 'debug', INSIGHTS_CHAT_RATE_LIMIT: '1000' });
  await burst(server.url, headers, 40);
  const busy = await metrics(server.url);
  assert.equal(busy('insights_idle_heap_release_seconds_count'), 0, 'nothing is released while requests come');
  const heapBusy = busy('nodejs_heap_size_total_bytes')!;
  await sleep(3000);
  const idle = await metrics(server.url);
  assert.equal(idle('insights_idle_heap_release_seconds_count'), 1, 'one release once idle');
  const heapIdle = idle('nodejs_heap_size_total_bytes')!;
  assert.ok(heapIdle < heapBusy, `V8's heap ${heapBusy} → ${heapIdle} bytes`);
  assert.match(server.output(), /idle: V8's heap [\d.]+ → [\d.]+ MB in \d+ ms/);

  // Another spell within 30 s of the last release waits for the 30 s.
  await burst(server.url, headers, 10);
  await sleep(3000);
  const again = await metrics(server.url);
  assert.equal(again('insights_idle_heap_release_seconds_count'), 1, 'at most one release every 30 s');
  await stopServer(server);

  server = await startServer(dataDir, 60_000, { INSIGHTS_IDLE_RELEASE_MS: '0', INSIGHTS_CHAT_RATE_LIMIT: '1000' });
  await burst(server.url, headers, 10);
  await sleep(3000);
  const off = await metrics(server.url);
  assert.equal(off('insights_idle_heap_release_seconds_count'), undefined, 'with 0 there is no release and no metric');
  await stopServer(server);
});
