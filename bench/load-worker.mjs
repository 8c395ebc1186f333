// A closed-loop HTTP load generator in a worker thread, so the server's event loop does not also
// drive the load: `connections` keep-alive connections, each sending its next request on answer.
import { parentPort, workerData } from 'node:worker_threads';
import { Pool } from 'undici';

const { origin, path, headers, connections, durationMs } = workerData;
const pool = new Pool(origin, { connections, pipelining: 1 });
let done = 0;
let failed = 0;
let bytes = 0;
const end = Date.now() + durationMs;
async function loop() {
  while (Date.now() < end) {
    const res = await pool.request({ path, method: 'GET', headers });
    const body = await res.body.arrayBuffer();
    if (res.statusCode === 200) {
      done++;
      bytes = body.byteLength;
    } else failed++;
  }
}
const started = Date.now();
await Promise.all(Array.from({ length: connections }, loop));
const elapsed = Date.now() - started;
await pool.close();
parentPort.postMessage({ done, failed, bytes, rps: (done / elapsed) * 1000 });
