// `insights serve` runs every thread but the event loop's at a lower CPU priority once it listens
// (INSIGHTS_THREAD_NICE, 10 by default; docs/performance.md §19): libuv's pool, where DuckDB runs
// its reads, DuckDB's own workers and V8's helpers yield to the thread every request passes
// through. 0 leaves them as they were started.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import { EMBEDDED_ONLY, ownerDataDir, startServer, stopServer, type RunningServer } from '../helpers/process.ts';

const LINUX = process.platform === 'linux' ? false : 'thread priorities are read from /proc (Linux)';

/** Each thread's nice value, by thread id (/proc/PID/task/TID/stat: the 19th field). */
function niceOfThreads(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      // After the command's parenthesised name: field 3 (state) is index 0, field 19 (nice) index 16.
      out.set(Number(task), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

let dataDir = '';
let server: RunningServer | undefined;
after(() => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test('every thread but the event loop runs at INSIGHTS_THREAD_NICE once the server listens; 0 leaves them', {
  skip: EMBEDDED_ONLY || LINUX,
}, async () => {
  const owner = await ownerDataDir('insights-nice-');
  dataDir = owner.dataDir;
  const { headers } = owner;
  // The test runner's own nice value is where the server's threads start.
  const base = os.getPriority();

  server = await startServer(dataDir, 60_000, { INSIGHTS_THREAD_NICE: '7' });
  const pid = server.child.pid!;
  // A warehouse read answers with its threads lowered (it runs on libuv's pool and DuckDB's workers).
  const res = await fetch(`${server.url}/api/v1/insights/revenue/execute?granularity=month`, { headers });
  assert.equal(res.status, 200, await res.text());
  const lowered = niceOfThreads(pid);
  assert.equal(lowered.get(pid), base, 'the event loop keeps its priority');
  const others = [...lowered].filter(([tid]) => tid !== pid);
  assert.ok(others.length >= 4, `libuv's pool, DuckDB's and V8's threads: ${others.length}`);
  assert.deepEqual(
    others.filter(([, nice]) => nice !== Math.max(7, base)),
    [],
    'every other thread runs at INSIGHTS_THREAD_NICE',
  );
  await stopServer(server);

  server = await startServer(dataDir, 60_000, { INSIGHTS_THREAD_NICE: '0' });
  const left = niceOfThreads(server.child.pid!);
  assert.deepEqual(
    [...left.values()].filter((nice) => nice !== base),
    [],
    'with 0 every thread keeps the priority it started with',
  );
  await stopServer(server);
});
