// When the rollups are rebuilt without being asked (docs/rollups.md): what is outdated at the
// server's start, every rollup whose refresh_every has passed on the clock, and a refresh that
// failed after a load again with backoff. It owns the timers and the background work, and its
// stop aborts that work between statements and waits for it, so the warehouse is never closed
// under a build.
import type { Clock } from '../../lib/clock.ts';
import type { RollupDefinition } from '../../semantic/types.ts';
import type { RollupBuild } from './builder.ts';
import { messageOf, type RollupState } from './state.ts';

/** A failed refresh is retried after 2, 4, 8 … s (at most 5 min apart), this many times in all. */
export const REFRESH_ATTEMPTS = 6;
export const retryDelayMs = (attempt: number) => Math.min(300_000, 2_000 * 2 ** (attempt - 1));

/** The builds the upkeep starts (the store's). */
export interface RollupWork {
  /** The rollups not current for some tenant of their data. */
  outdated(): Promise<string[]>;
  build(only: string[], signal?: AbortSignal): Promise<RollupBuild[]>;
  /** Rebuilds one tenant's rows; returns why it cannot, or undefined. */
  refreshTenant(r: RollupDefinition, tenant: string, signal: AbortSignal): Promise<string | undefined>;
}

export class RollupUpkeep {
  private timers: NodeJS.Timeout[] = [];
  private readonly retries = new Map<string, NodeJS.Timeout>();
  /** Background builds (start, refresh_every, retries): stop() aborts them between statements and waits. */
  private readonly stopping = new AbortController();
  private readonly background = new Set<Promise<unknown>>();

  constructor(
    private readonly rollups: readonly RollupDefinition[],
    private readonly state: RollupState,
    private readonly clock: Clock,
    private readonly work: RollupWork,
  ) {}

  /**
   * Rebuilds every rollup with refresh_every whose oldest tenant build is at least that old on the
   * clock (or that was never built). The age is read from the state table, so a restart does not
   * reset it and instances sharing a warehouse see each other's builds.
   */
  async refreshDue(signal?: AbortSignal): Promise<RollupBuild[]> {
    const periodic = this.rollups.filter((r) => r.refreshEverySeconds);
    if (periodic.length === 0) return [];
    await this.state.ensure();
    const now = this.clock.now().getTime();
    const due: string[] = [];
    for (const r of periodic) {
      const at = await this.state.oldestBuild(r.id);
      if (!(at + r.refreshEverySeconds! * 1000 > now)) due.push(r.id);
    }
    return due.length ? this.work.build(due, signal) : [];
  }

  /** Retries a failed refresh of one tenant in the background, whole, with backoff; the latest attempt is recorded. */
  retry(r: RollupDefinition, tenant: string, attempt: number): void {
    if (this.stopping.signal.aborted || attempt >= REFRESH_ATTEMPTS) return;
    const key = `${r.id}\u0000${tenant}`;
    clearTimeout(this.retries.get(key));
    const timer = setTimeout(() => {
      this.retries.delete(key);
      const p = this.work.refreshTenant(r, tenant, this.stopping.signal).catch(async (err) => {
        if (this.stopping.signal.aborted) return;
        await this.state.record(r.id, tenant, `refresh failed: ${messageOf(err)}`, attempt + 1).catch(() => {});
        this.retry(r, tenant, attempt + 1);
      });
      this.track(p);
    }, retryDelayMs(attempt));
    timer.unref();
    this.retries.set(key, timer);
  }

  private track(p: Promise<unknown>): void {
    this.background.add(p);
    void p.finally(() => this.background.delete(p));
  }

  /**
   * The server's upkeep: builds what is outdated at start (in the background: queries use the raw
   * rows meanwhile), then checks every minute (or the shortest refresh_every) for rollups whose
   * refresh_every has passed, for data that changes outside the service (an external WAREHOUSE_URL
   * filled by other tools). One piece of upkeep runs at a time.
   */
  start(onError: (err: unknown) => void, onBuilt: (builds: RollupBuild[]) => void = () => {}): void {
    if (this.rollups.length === 0) return;
    const signal = this.stopping.signal;
    let busy = false;
    const run = (work: () => Promise<RollupBuild[]>) => {
      if (signal.aborted || busy) return;
      busy = true;
      this.track(
        work()
          .then(onBuilt, (err) => {
            if (!signal.aborted) onError(err);
          })
          .finally(() => (busy = false)),
      );
    };
    run(async () => {
      const ids = await this.work.outdated();
      return ids.length ? this.work.build(ids, signal) : [];
    });
    const periods = this.rollups.flatMap((r) => (r.refreshEverySeconds ? [r.refreshEverySeconds] : []));
    if (periods.length === 0) return;
    const timer = setInterval(() => run(() => this.refreshDue(signal)), Math.min(60, ...periods) * 1000);
    timer.unref();
    this.timers.push(timer);
  }

  /**
   * Stops the upkeep: a build in progress is abandoned after its current statement (rolled back,
   * so the previous build stays) and waited for, so the warehouse is never closed under it.
   */
  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    for (const t of this.retries.values()) clearTimeout(t);
    this.retries.clear();
    this.stopping.abort();
    await Promise.allSettled([...this.background]);
  }
}
