// V8 keeps the heap a burst of requests grew: a full collection frees its objects but keeps the
// pages for the next burst, and V8's own memory reducer gives them back only some 8 s after its
// last full collection, and only once it has seen the allocation rate stay low (docs/footprint.md,
// "Giving the heap back when idle"). A server that has answered and has nothing in flight for
// `idleMs` asks V8 for the collection a low-memory notification makes: compacting, shrinking the
// young generation, releasing the pooled pages. Node offers no call for it without flags but the
// inspector protocol's HeapProfiler.collectGarbage, in-process, no port opened.
//
// The collection pauses the event loop (60–90 ms on the demo's ~25 MB of live objects), so it
// runs only when nothing is in flight, at most once per `minIntervalMs` (a spell sooner waits for
// it, if it lasts), and only when the heap has grown by `minGrowthBytes` since the last one.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import v8 from 'node:v8';

export interface HeapRelease {
  /** How long the collection held the event loop. */
  ms: number;
  /** V8's heap in physical memory before and after, bytes. */
  before: number;
  after: number;
}

/** What is measured and collected: V8's heap unless a test gives its own. */
export interface Heap {
  bytes(): number;
  collect(): Promise<void>;
}

export interface IdleHeapOptions {
  /** Nothing in flight for this long, after at least one request since the last release. */
  idleMs: number;
  /** The least time between two releases. */
  minIntervalMs?: number;
  /** The least growth of the heap since the last release worth a pause. */
  minGrowthBytes?: number;
  heap?: Heap;
  onRelease?: (release: HeapRelease) => void;
  onError?: (err: unknown) => void;
}

/** V8's heap, collected as on a low-memory notification through an in-process inspector session. */
export const v8Heap: Heap = {
  bytes: () => v8.getHeapStatistics().total_physical_size,
  async collect() {
    // Loaded here: node:inspector throws on import in a node built without the inspector.
    const { Session } = await import('node:inspector/promises');
    const session = new Session();
    session.connect();
    try {
      await session.post('HeapProfiler.collectGarbage');
    } finally {
      // After the answer, not from inside its callback: disconnecting there never returns.
      session.disconnect();
    }
  },
};

/** Gives the heap back to the system once `server` has had nothing in flight for `idleMs`; stop() ends it. */
export function releaseHeapWhenIdle(server: Server, options: IdleHeapOptions): { stop(): void } {
  const heap = options.heap ?? v8Heap;
  const minIntervalMs = options.minIntervalMs ?? 30_000;
  const minGrowthBytes = options.minGrowthBytes ?? 4 * 1024 * 1024;
  let inFlight = 0;
  let requestSinceRelease = false;
  let lastRelease = Number.NEGATIVE_INFINITY;
  let heapAfterLast = 0;
  let releasing = false;
  let timer: NodeJS.Timeout | undefined;

  const arm = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(release, ms);
    timer.unref();
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    inFlight++;
    requestSinceRelease = true;
    clearTimeout(timer);
    // Once per request, whichever comes first: a pipelined request whose socket closes before its
    // turn never closes its response.
    let ended = false;
    const socket = req.socket;
    const end = () => {
      if (ended) return;
      ended = true;
      socket.off('close', end);
      if (--inFlight === 0) arm(options.idleMs);
    };
    res.once('close', end);
    socket.once('close', end);
  };
  server.on('request', onRequest);

  async function release() {
    if (releasing || inFlight > 0 || !requestSinceRelease) return;
    const wait = lastRelease + minIntervalMs - performance.now();
    if (wait > 0) return arm(wait);
    requestSinceRelease = false;
    const before = heap.bytes();
    if (before < heapAfterLast + minGrowthBytes) return;
    releasing = true;
    const t0 = performance.now();
    try {
      await heap.collect();
      heapAfterLast = heap.bytes();
      options.onRelease?.({ ms: performance.now() - t0, before, after: heapAfterLast });
    } catch (err) {
      options.onError?.(err);
    } finally {
      releasing = false;
      lastRelease = performance.now();
    }
  }

  return {
    stop() {
      clearTimeout(timer);
      server.off('request', onRequest);
    },
  };
}
