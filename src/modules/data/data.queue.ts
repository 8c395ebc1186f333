// Fair turns for data loads: at most `slots` loads run at once, each tenant's one at a time and in
// the order they came, and a free slot goes to the tenants in turn (the one served longest ago
// first). So one tenant's big load, or many of them, never makes another tenant's small load wait
// for more than the loads already running. A request that goes away while waiting leaves the queue.
import { AppError } from '../../lib/errors.ts';

interface Waiter {
  start: () => void;
}

export class LoadQueue {
  private running = 0;
  private readonly busy = new Set<string>();
  /** Tenants with waiting loads, each in arrival order. */
  private readonly waiting = new Map<string, Waiter[]>();
  /** When each tenant last got a slot (a sequence number): the one served longest ago goes first. */
  private readonly served = new Map<string, number>();
  private turns = 0;

  constructor(private readonly slots: number) {}

  /** Runs `work` in the tenant's turn; a `signal` aborted before its turn rejects without running it. */
  async run<T>(tenant: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const list = this.waiting.get(tenant) ?? [];
        const i = list.indexOf(waiter);
        if (i >= 0) list.splice(i, 1);
        if (list.length === 0) this.waiting.delete(tenant);
        reject(signal!.reason ?? new AppError('BAD_REQUEST', 'The request was cancelled.'));
      };
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const list = this.waiting.get(tenant);
      if (list) list.push(waiter);
      else this.waiting.set(tenant, [waiter]);
      this.next();
    });
    try {
      return await work();
    } finally {
      this.running--;
      this.busy.delete(tenant);
      this.next();
    }
  }

  /** Loads waiting for their turn (all tenants). */
  get queued(): number {
    let n = 0;
    for (const list of this.waiting.values()) n += list.length;
    return n;
  }

  private next(): void {
    while (this.running < this.slots) {
      let tenant: string | undefined;
      for (const t of this.waiting.keys()) {
        if (!this.busy.has(t) && (tenant === undefined || (this.served.get(t) ?? -1) < (this.served.get(tenant) ?? -1))) tenant = t;
      }
      if (tenant === undefined) return;
      const list = this.waiting.get(tenant)!;
      const waiter = list.shift()!;
      if (list.length === 0) this.waiting.delete(tenant);
      this.served.set(tenant, this.turns++);
      // Tenants long gone need no turn number (a new one starts first, as if never served).
      if (this.served.size > 10_000)
        for (const t of this.served.keys()) if (!this.waiting.has(t) && !this.busy.has(t)) this.served.delete(t);
      this.running++;
      this.busy.add(tenant);
      waiter.start();
    }
  }
}
