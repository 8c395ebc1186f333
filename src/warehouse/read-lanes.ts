// Reads side by side, fair between tenants (every engine's query(), docs/performance.md §13): at
// most `size` reads run at once (one per pooled connection: the cores, plus one), and no tenant
// holds more than size − 1 of them, so one tenant's slow queries always leave a connection to the
// others. Waiting reads go out tenant by tenant, the one served longest ago first, each tenant's in
// the order they came.

/** The lane of reads that name no tenant (the service's own: versions, rollup state, builds). */
export const SHARED_LANE = '';

interface Waiter {
  tenant: string;
  start: () => void;
}

export class ReadLanes {
  private running = 0;
  private readonly runningOf = new Map<string, number>();
  private readonly waiting = new Map<string, Waiter[]>();
  /** When each tenant last got a slot (a sequence number): the one served longest ago goes first. */
  private readonly served = new Map<string, number>();
  private turns = 0;

  constructor(readonly size: number) {}

  /** Runs `read` in the tenant's turn, on a slot of its own. */
  async run<T>(tenant: string | undefined, read: () => Promise<T>): Promise<T> {
    const lane = tenant ?? SHARED_LANE;
    await new Promise<void>((resolve) => {
      const list = this.waiting.get(lane);
      const waiter = { tenant: lane, start: resolve };
      if (list) list.push(waiter);
      else this.waiting.set(lane, [waiter]);
      this.next();
    });
    try {
      return await read();
    } finally {
      this.running--;
      const n = (this.runningOf.get(lane) ?? 1) - 1;
      if (n === 0) this.runningOf.delete(lane);
      else this.runningOf.set(lane, n);
      this.next();
    }
  }

  /** Reads waiting for a slot, all tenants. */
  get queued(): number {
    let n = 0;
    for (const list of this.waiting.values()) n += list.length;
    return n;
  }

  private next(): void {
    while (this.running < this.size) {
      const cap = Math.max(1, this.size - 1);
      let lane: string | undefined;
      for (const t of this.waiting.keys()) {
        if ((this.runningOf.get(t) ?? 0) >= cap) continue;
        if (lane === undefined || (this.served.get(t) ?? -1) < (this.served.get(lane) ?? -1)) lane = t;
      }
      if (lane === undefined) return;
      const list = this.waiting.get(lane)!;
      const waiter = list.shift()!;
      if (list.length === 0) this.waiting.delete(lane);
      this.served.set(lane, this.turns++);
      if (this.served.size > 10_000)
        for (const t of this.served.keys()) if (!this.waiting.has(t) && !this.runningOf.has(t)) this.served.delete(t);
      this.running++;
      this.runningOf.set(lane, (this.runningOf.get(lane) ?? 0) + 1);
      waiter.start();
    }
  }
}
