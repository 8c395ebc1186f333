// The event loop's thread first (docs/performance.md §19). Every request passes through the main
// thread, while DuckDB's reads run on libuv's pool and DuckDB's own workers: when those threads
// hold both cores, the event loop waits for a core and every request waits with it, the light ones
// (a dashboard, a widget write) behind the heavy ones. On Linux the nice value is a per-thread
// attribute (setpriority(2) on a thread id), so the other threads are made to yield to the loop
// without the privilege raising the loop's own priority would need. Threads they create later
// (DuckDB's workers after a change of its `threads`) start at their creator's value.
import fs from 'node:fs';
import os from 'node:os';

/**
 * Gives every thread of this process but the main one the nice value `nice` (or leaves a thread
 * already at a lower priority as it is); returns how many threads were lowered. Where the threads
 * cannot be listed (not Linux) nothing changes.
 */
export function lowerOtherThreads(nice: number, pid: number = process.pid): number {
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  let lowered = 0;
  for (const task of tasks) {
    const tid = Number(task);
    if (tid === pid) continue;
    try {
      if (os.getPriority(tid) >= nice) continue;
      os.setPriority(tid, nice);
      lowered++;
    } catch {
      // The thread ended meanwhile.
    }
  }
  return lowered;
}
