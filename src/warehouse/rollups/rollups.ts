// The rollup tables of the model (docs/rollups.md) in the warehouse, as the rest of the service
// sees them: building them, refreshing one tenant's rows after that tenant's load, and saying which
// are current for a tenant. A rollup answers a tenant's query only when its state row says it was
// built from the tenant's current data with the current definition; anything else (never built,
// model changed, data loaded since) is answered from the raw rows, so a rollup can be late but never
// wrong. The work is done by three parts: the state tables (rollups/state.ts), the builds
// (rollups/builder.ts) and the upkeep's timers and retries (rollups/refresh.ts).
import { systemClock, type Clock } from '../../lib/clock.ts';
import type { Granularity, RollupDefinition } from '../../semantic/types.ts';
import type { LoadMode } from '../load/rules.ts';
import { type LoadDone, type RollupBuild, RollupBuilder } from './builder.ts';
import { STANDARD_ROLLUP_DDL } from './ddl.ts';
import { RollupUpkeep } from './refresh.ts';
import { messageOf, type RollupProblem, RollupState, type StateRow } from './state.ts';
import type { Warehouse } from '../warehouse.ts';

export type { LoadDone, RollupBuild } from './builder.ts';
export { REFRESH_ATTEMPTS, retryDelayMs } from './refresh.ts';
export type { RollupProblem } from './state.ts';

export interface RollupStatus {
  rollup: string;
  table: string;
  granularity: Granularity;
  partition_granularity: Granularity | null;
  refresh_every_seconds: number | null;
  tenants: { tenant: string; rows: number; built_at: string; current: boolean }[];
  /** Why the rollup is not built (tenant '') or not current for a tenant, with the attempts so far. */
  problems: Omit<RollupProblem, 'rollup'>[];
}

/** The rollups that may answer a tenant's queries now, and a text naming their builds (cache keys). */
export interface Usable {
  rollups: RollupDefinition[];
  key: string;
}
const NONE_USABLE: Usable = { rollups: [], key: '' };

export class RollupStore {
  private readonly state: RollupState;
  /** usableOf's answers by the state map they were computed from (a new read is a new map). */
  private readonly usableMemo = new WeakMap<Map<string, StateRow>, { dataVersion: string | undefined; usable: Usable }>();
  private readonly builder: RollupBuilder;
  private readonly upkeep: RollupUpkeep;

  constructor(
    private readonly warehouse: Warehouse,
    readonly rollups: readonly RollupDefinition[],
    clock: Clock = systemClock,
  ) {
    const ddl = warehouse.rollupDdl ?? STANDARD_ROLLUP_DDL;
    this.state = new RollupState(warehouse, ddl, clock);
    this.builder = new RollupBuilder(warehouse, this.state, ddl);
    this.upkeep = new RollupUpkeep(rollups, this.state, clock, {
      outdated: () => this.outdated(),
      build: (only, signal) => this.build(only, signal),
      refreshTenant: (r, tenant, signal) => this.builder.refreshTenant(r, { tenantId: tenant }, signal),
    });
  }

  /**
   * The rollups that may answer this tenant's queries now, and a text naming their builds for the
   * result cache's key (a rebuild makes older cached answers unreachable).
   */
  async usable(tenantId: string): Promise<Usable> {
    if (this.rollups.length === 0) return NONE_USABLE;
    const [state, dataVersion] = await Promise.all([this.state.recentOfTenant(tenantId), this.warehouse.version(tenantId)]);
    return this.usableOf(state, dataVersion);
  }

  /**
   * usable() without waiting, when the tenant's rollup state is remembered and fresh and the data
   * version is given (the warehouse's knownVersion); undefined when a read is due.
   */
  knownUsable(tenantId: string, dataVersion: string | undefined): Usable | undefined {
    if (this.rollups.length === 0) return NONE_USABLE;
    const state = this.state.knownRecentOfTenant(tenantId);
    return state && this.usableOf(state, dataVersion);
  }

  /** Which rollups a tenant's state makes current for this data version; the same answer is reused while both stay. */
  private usableOf(state: Map<string, StateRow>, dataVersion: string | undefined): Usable {
    const memo = this.usableMemo.get(state);
    if (memo && memo.dataVersion === dataVersion) return memo.usable;
    const current = this.rollups.filter((r) => {
      const s = state.get(r.id);
      return s !== undefined && s.definition === r.definitionHash && s.data_version === (dataVersion ?? '');
    });
    const usable = { rollups: current, key: current.map((r) => `${r.id}@${state.get(r.id)!.version}`).join(',') };
    this.usableMemo.set(state, { dataVersion, usable });
    return usable;
  }

  /**
   * Builds rollups whole, every tenant at once (all of them, or the ids given). One rollup's
   * failure is recorded and reported, and the others are built; tenants with rows outside the
   * bucketable span are left out (not current: their queries read the raw rows) and reported.
   */
  async build(only?: string[], signal?: AbortSignal): Promise<RollupBuild[]> {
    await this.state.ensure();
    const out: RollupBuild[] = [];
    for (const r of this.rollups) {
      if (only && !only.includes(r.id) && !only.includes(r.name)) continue;
      signal?.throwIfAborted();
      const started = Date.now();
      try {
        out.push(await this.builder.build(r, started, signal));
      } catch (err) {
        if (signal?.aborted) throw err;
        const failed = messageOf(err);
        await this.state.record(r.id, '', `build failed: ${failed}`, 1).catch(() => {});
        out.push({ rollup: r.id, tenants: [], ms: Date.now() - started, failed });
      }
    }
    return out;
  }

  /**
   * After a load of `table` for one tenant, which has committed: that tenant's rows of every built
   * rollup that reads the table are rebuilt (an append into the rollup's own fact table whose time
   * range is known and bucketable, into a rollup current before the load, rebuilds only the
   * partitions it touched; otherwise all of the tenant's rows), and the rollups that do not read
   * it stay current. Never throws: a failure is recorded as the rollup's problem for the tenant
   * and, with `retry`, retried in the background with backoff (the load stands either way).
   */
  async refreshAfterLoad(load: LoadDone, options: { retry?: boolean } = {}): Promise<RollupBuild[]> {
    if (this.rollups.length === 0) return [];
    const out: RollupBuild[] = [];
    // On failure only the unaffected rollups' stamps are lost: they answer from the raw rows until
    // the next build, which is late but never wrong.
    await this.state
      .ensure()
      .then(() => this.builder.keepUnaffectedCurrent(this.rollups, load))
      .catch(() => {});
    for (const r of this.rollups.filter((x) => x.tables.includes(load.table))) {
      const started = Date.now();
      try {
        if (!(await this.state.builtWith(r.id, r.definitionHash))) continue;
        const problem = await this.builder.refreshTenant(r, load);
        out.push(
          problem
            ? { rollup: r.id, tenants: [], ms: Date.now() - started, left_out: [{ tenant: load.tenantId, problem }] }
            : { rollup: r.id, tenants: [load.tenantId], ms: Date.now() - started },
        );
      } catch (err) {
        const failed = messageOf(err);
        out.push({ rollup: r.id, tenants: [], ms: Date.now() - started, failed });
        await this.state.record(r.id, load.tenantId, `refresh after a load of ${load.table} failed: ${failed}`, 1).catch(() => {});
        if (options.retry) this.upkeep.retry(r, load.tenantId, 1);
      }
    }
    return out;
  }

  /**
   * The time columns of `table` whose loaded range refreshAfterLoad can use: an append into the
   * fact table of a rollup with partitions rebuilds only the partitions the range touches. Any other
   * load rebuilds the tenant's rows whole, so it needs no range (and reads its file once).
   */
  timeRangesOf(table: string, mode: LoadMode): string[] {
    if (mode !== 'append') return [];
    const columns = this.rollups.flatMap((r) =>
      r.partitionGranularity && r.time.column && r.source.table?.replace(/"/g, '') === table ? [r.time.column] : [],
    );
    return [...new Set(columns)];
  }

  /** The rollups that are not current for some tenant of their data (never built, model changed, data changed). */
  async outdated(): Promise<string[]> {
    const out: string[] = [];
    for (const s of await this.status()) {
      const r = this.rollups.find((x) => x.id === s.rollup)!;
      if (await this.builder.tableMissing(r)) continue;
      if (s.tenants.length === 0 || s.tenants.some((t) => !t.current)) out.push(s.rollup);
    }
    return out;
  }

  async status(): Promise<RollupStatus[]> {
    await this.state.ensure();
    const problems = await this.state.problems();
    const out: RollupStatus[] = [];
    for (const r of this.rollups) {
      const rows = await this.state.ofRollup(r.id);
      const counts = rows.length ? await this.builder.rowCounts(r) : new Map<string, number>();
      const tenants = await Promise.all(
        rows.map(async (s) => ({
          tenant: s.tenant,
          rows: counts.get(s.tenant) ?? 0,
          built_at: s.built_at,
          current:
            s.definition === r.definitionHash &&
            s.data_version === ((await this.warehouse.version(s.tenant)) ?? '') &&
            counts.has(s.tenant),
        })),
      );
      out.push({
        rollup: r.id,
        table: r.table,
        granularity: r.granularity,
        partition_granularity: r.partitionGranularity ?? null,
        refresh_every_seconds: r.refreshEverySeconds ?? null,
        tenants,
        problems: problems.filter((p) => p.rollup === r.id).map(({ rollup: _, ...p }) => p),
      });
    }
    return out;
  }

  /** Rebuilds the rollups whose refresh_every has passed (rollups/refresh.ts). */
  refreshDue(signal?: AbortSignal): Promise<RollupBuild[]> {
    return this.upkeep.refreshDue(signal);
  }

  /** Starts the server's upkeep (rollups/refresh.ts): what is outdated now, then refresh_every. */
  start(onError: (err: unknown) => void, onBuilt?: (builds: RollupBuild[]) => void): void {
    this.upkeep.start(onError, onBuilt);
  }

  /** Stops the upkeep and waits for a build in progress to be abandoned. */
  stop(): Promise<void> {
    return this.upkeep.stop();
  }
}
