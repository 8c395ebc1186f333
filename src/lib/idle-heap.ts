// V8 keeps the heap a burst of requests grew: a full collection frees its objects but keeps the
// pages for the next burst, and V8's own memory reducer gives them back only some 8 s after its
// last full collection, and only once it has seen the allocation rate stay low (docs/footprint.md,
// "Giving the heap back when idle"). A server that has answered and has nothing in flight for
// `idleMs` asks V8 for the collection a low-memory notification makes: compacting, shrinking the
// young generation, releasing the pooled pages. That is the one way to it Node offers without
// flags: the inspector protocol's HeapProfiler.collectGarbage, in-process, no port opened.
//
// The collection pauses the event loop (60–90 ms on the demo's ~25 MB of live objects), so it
// runs only when nothing is in flight, at most once per `minIntervalMs`, and only when the heap
// has grown by `minGrowthBytes` since the last one: a health probe every few seconds does not
// cause one.
import type { Server } from 'node:http';
import { Session } from 'node:inspector/promises';
import v8 from 'node:v8';

export interface HeapRelease {
  /** How long the collection held the event loop. */
  ms: number;
  /** V8's heap in physical memory before and after, bytes. */
  before: number;
  after: number;
}

export interface IdleHeapOptions {
  /** Nothing in flight for this long, after at least one request since the last release. */
  idleMs: number;
  /** The least time between two releases. */
  minIntervalMs?: number;
  /** The least growth of the heap since the last release worth a pause. */
  minGrowthBytes?: number;
  onRelease?: (release: HeapRelease) => void;
  onError?: (err: unknown) => void;
}

const heapBytes = () => v8.getHeapStatistics().total_physical_size;

/** Gives V8's heap back to the system once `server` has been idle for `idleMs`; stop() ends it. */
export function releaseHeapWhenIdle(server: Server, options: IdleHeapOptions): { stop(): void } {
  const minIntervalMs = options.minIntervalMs ?? 30_000;
  const minGrowthBytes = options.minGrowthBytes ?? 4 * 1024 * 1024;
  let inFlight = 0;
  let answered = false;
  let lastEnd = 0;
  let lastRelease = Number.NEGATIVE_INFINITY;
  let heapAfterLast = 0;
  let releasing = false;

  const onRequest = (_req: unknown, res: { once(event: 'close', listener: () => void): unknown }) => {
    inFlight++;
    answered = true;
    res.once('close', () => {
      inFlight--;
      lastEnd = performance.now();
    });
  };
  server.on('request', onRequest);

  const release = async () => {
    const before = heapBytes();
    const t0 = performance.now();
    const session = new Session();
    session.connect();
    try {
      await session.post('HeapProfiler.collectGarbage');
    } finally {
      // After the answer, not from inside its callback: disconnecting there never returns.
      session.disconnect();
    }
    const after = heapBytes();
    heapAfterLast = after;
    options.onRelease?.({ ms: performance.now() - t0, before, after });
  };

  const check = () => {
    const now = performance.now();
    if (releasing || !answered || inFlight > 0 || now - lastEnd < options.idleMs || now - lastRelease < minIntervalMs) return;
    answered = false;
    if (heapBytes() < heapAfterLast + minGrowthBytes) return;
    releasing = true;
    lastRelease = now;
    release()
      .catch((err) => options.onError?.(err))
      .finally(() => {
        releasing = false;
        lastRelease = performance.now();
      });
  };
  const timer = setInterval(check, Math.max(50, Math.min(1000, Math.floor(options.idleMs / 2))));
  timer.unref();

  return {
    stop() {
      clearInterval(timer);
      server.off('request', onRequest);
    },
  };
}
