// The rollup tables of the model (docs/rollups.md) in the warehouse: building them, refreshing one
// tenant's rows after that tenant's load, and saying which are current for a tenant. A rollup
// answers a tenant's query only when its state row says it was built from the tenant's current
// data with the current definition; anything else (never built, model changed, data loaded since)
// is answered from the raw rows, so a rollup can be late but never wrong.
import { systemClock, type Clock } from '../lib/clock.ts';
import { DIALECTS } from '../semantic/dialects/index.ts';
import { bucketStart } from '../semantic/periods.ts';
import { unreadableTable } from '../semantic/probe.ts';
import { ROLLUP_SCHEMA, rollupOutsideSpanSql, rollupSelect, rollupTimeSpanSql } from '../semantic/rollups.ts';
import type { Granularity, RollupDefinition } from '../semantic/types.ts';
import type { LoadMode } from './load.ts';
import { STANDARD_ROLLUP_DDL, type RollupDdl, type TransactionStatement } from './rollup-ddl.ts';
import { BUCKETABLE, bucketable, bucketEnd, buildSlices, outsideSpanProblem, spanSide } from './rollup-span.ts';
import { RollupState, STATE, type RollupProblem, type StateRow } from './rollup-state.ts';
import type { Warehouse } from './warehouse.ts';

export type { RollupProblem } from './rollup-state.ts';

export interface RollupBuild {
  rollup: string;
  /** Tenants whose rows were (re)built; empty when skipped. */
  tenants: string[];
  ms: number;
  /** Why nothing was built (a table of its data is not loaded yet). */
  skipped?: string;
  /** Why the build or refresh failed (recorded as a problem; a refresh is retried). */
  failed?: string;
  /** Tenants left out, each with why (rows it cannot bucket): their queries read the raw rows. */
  left_out?: { tenant: string; problem: string }[];
}

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

/** What a load tells the rollups (DataService, `insights data load`). */
export interface LoadDone {
  table: string;
  tenantId: string;
  mode: LoadMode;
  timeRanges?: Record<string, { min: string; max: string }>;
  /** The tenant's data version read before the load: rollups current with it stay current if they do not read the table. */
  versionBefore?: string;
}

/** A failed refresh is retried after 2, 4, 8 … s (at most 5 min apart), this many times in all. */
export const REFRESH_ATTEMPTS = 6;
export const retryDelayMs = (attempt: number) => Math.min(300_000, 2_000 * 2 ** (attempt - 1));

const newVersion = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0];

export class RollupStore {
  private readonly states = new Map<string, { at: number; rows: Map<string, StateRow> }>();
  private readonly state: RollupState;
  private timers: NodeJS.Timeout[] = [];
  private readonly retries = new Map<string, NodeJS.Timeout>();
  /** Background builds (start, refresh_every, retries): stop() aborts them between statements and waits. */
  private readonly stopping = new AbortController();
  private readonly background = new Set<Promise<unknown>>();
  /** DuckDB is written only by this process (it holds the file's lock): its state is read once. */
  private readonly memoMs: number;

  constructor(
    private readonly warehouse: Warehouse,
    readonly rollups: readonly RollupDefinition[],
    private readonly clock: Clock = systemClock,
  ) {
    this.memoMs = warehouse.dialect === 'duckdb' ? Number.POSITIVE_INFINITY : 2_000;
    this.state = new RollupState(warehouse, this.ddl, clock);
  }

  private get d() {
    return DIALECTS[this.warehouse.dialect];
  }

  /** The engine's way with rollup tables (rollup-ddl.ts). */
  private get ddl(): RollupDdl {
    return this.warehouse.rollupDdl ?? STANDARD_ROLLUP_DDL;
  }

  private async stateOf(tenantId: string): Promise<Map<string, StateRow>> {
    const memo = this.states.get(tenantId);
    if (memo && Date.now() - memo.at < this.memoMs) return memo.rows;
    let rows = new Map<string, StateRow>();
    try {
      rows = await this.state.ofTenant(tenantId);
    } catch {
      // No state table yet: nothing is built.
    }
    if (this.states.size > 10_000) this.states.clear();
    this.states.set(tenantId, { at: Date.now(), rows });
    return rows;
  }

  /**
   * The rollups that may answer this tenant's queries now, and a text naming their builds for the
   * result cache's key (a rebuild makes older cached answers unreachable).
   */
  async usable(tenantId: string): Promise<{ rollups: RollupDefinition[]; key: string }> {
    if (this.rollups.length === 0) return { rollups: [], key: '' };
    const [state, dataVersion] = await Promise.all([this.stateOf(tenantId), this.warehouse.version(tenantId)]);
    const current = this.rollups.filter((r) => {
      const s = state.get(r.id);
      return s !== undefined && s.definition === r.definitionHash && s.data_version === (dataVersion ?? '');
    });
    return { rollups: current, key: current.map((r) => `${r.id}@${state.get(r.id)!.version}`).join(',') };
  }

  /** The first table of the rollup's data the warehouse cannot read (not loaded yet), if any. */
  private async tableMissing(r: RollupDefinition): Promise<string | undefined> {
    for (const table of r.tables) if ((await unreadableTable(this.warehouse, table)) !== undefined) return table;
    return undefined;
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
        out.push(await this.buildOne(r, started, signal));
      } catch (err) {
        if (signal?.aborted) throw err;
        const failed = messageOf(err);
        await this.state.record(r.id, '', `build failed: ${failed}`, 1).catch(() => {});
        out.push({ rollup: r.id, tenants: [], ms: Date.now() - started, failed });
      }
    }
    return out;
  }

  private async buildOne(r: RollupDefinition, started: number, signal?: AbortSignal): Promise<RollupBuild> {
    const missing = await this.tableMissing(r);
    if (missing) return { rollup: r.id, tenants: [], ms: 0, skipped: `table ${missing} is not loaded yet` };
    // Versions are read before the build: if a load commits in between, the state names older
    // data than the table holds, and the rollup waits for the load's own refresh (never the reverse).
    const all = (await this.warehouse.query(`SELECT DISTINCT ${r.source.tenant} AS t FROM ${r.source.table} AS ${r.source.alias}`)).map(
      (x) => String(x.t),
    );
    // Slice by slice (partitions, else months): each join and aggregation then holds one slice,
    // so a build stays within the server's memory ceiling whatever the table's size.
    const [span] = await this.warehouse.query(rollupTimeSpanSql(r, this.d));
    const lo = span?.lo ? String(span.lo) : undefined;
    const hi = span?.hi ? String(span.hi) : undefined;
    const leftOut: { tenant: string; problem: string }[] = [];
    if (lo && hi && (!bucketable(lo) || !bucketable(hi))) {
      for (const x of await this.warehouse.query(rollupOutsideSpanSql(r, this.d), [BUCKETABLE.from, BUCKETABLE.to])) {
        leftOut.push({ tenant: String(x.tenant), problem: outsideSpanProblem(String(x.lo), String(x.hi)) });
      }
    }
    const tenants = all.filter((t) => !leftOut.some((x) => x.tenant === t));
    const versions = await Promise.all(tenants.map(async (t) => (await this.warehouse.version(t)) ?? ''));
    const version = newVersion();
    const building = this.d.quote(`${r.cube}__${r.name}__building`);
    const slices = lo && hi ? buildSlices(r, lo, hi, Number(span.n)) : [];
    const empty = ['1970-01-01', '1970-01-01'];
    const statements: TransactionStatement[] = [
      ...this.ddl.drop(`"${ROLLUP_SCHEMA}".${building}`),
      ...(await this.ddl.createAs(`"${ROLLUP_SCHEMA}".${building}`, rollupSelect(r, this.d, { range: true }), empty)),
      ...slices.map(([from, to]) => ({
        sql: `INSERT INTO "${ROLLUP_SCHEMA}".${building} ${rollupSelect(r, this.d, { range: true })}`,
        params: [from, to],
      })),
      ...this.ddl.replace(
        `"${ROLLUP_SCHEMA}".${building}`,
        r.table,
        this.d.quote(`${r.cube}__${r.name}`),
        rollupSelect(r, this.d, { range: true }),
        empty,
      ),
      this.ddl.delete(STATE, 'rollup = $1', [r.id]),
      ...tenants.flatMap((t, i) =>
        this.state.write(r.id, t, { definition: r.definitionHash, data_version: versions[i], version }).slice(1),
      ),
      this.state.solved(r.id),
    ];
    await this.warehouse.transaction(statements, signal);
    this.states.clear();
    for (const x of leftOut) await this.state.record(r.id, x.tenant, x.problem, 1);
    return { rollup: r.id, tenants, ms: Date.now() - started, ...(leftOut.length ? { left_out: leftOut } : {}) };
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
      .then(() => this.keepUnaffectedCurrent(load))
      .catch(() => {});
    for (const r of this.rollups.filter((x) => x.tables.includes(load.table))) {
      const started = Date.now();
      try {
        const built = await this.warehouse.query(`SELECT count(*) AS n FROM ${STATE} WHERE rollup = $1 AND definition = $2`, [
          r.id,
          r.definitionHash,
        ]);
        if (Number(built[0]?.n ?? 0) === 0) continue;
        const problem = await this.refreshTenant(r, load);
        out.push(
          problem
            ? { rollup: r.id, tenants: [], ms: Date.now() - started, left_out: [{ tenant: load.tenantId, problem }] }
            : { rollup: r.id, tenants: [load.tenantId], ms: Date.now() - started },
        );
      } catch (err) {
        const failed = messageOf(err);
        out.push({ rollup: r.id, tenants: [], ms: Date.now() - started, failed });
        await this.state.record(r.id, load.tenantId, `refresh after a load of ${load.table} failed: ${failed}`, 1).catch(() => {});
        if (options.retry) this.scheduleRetry(r, load.tenantId, 1);
      }
    }
    return out;
  }

  /** Rollups that do not read the loaded table and were current before the load are current after it. */
  private async keepUnaffectedCurrent(load: LoadDone): Promise<void> {
    if (load.versionBefore === undefined) return;
    const unaffected = this.rollups.filter((r) => !r.tables.includes(load.table));
    if (unaffected.length === 0) return;
    const state = await this.state.ofTenant(load.tenantId);
    const after = (await this.warehouse.version(load.tenantId)) ?? '';
    const statements = unaffected.flatMap((r) => {
      const s = state.get(r.id);
      if (!s || s.definition !== r.definitionHash || s.data_version !== load.versionBefore) return [];
      return this.state.write(r.id, load.tenantId, { ...s, data_version: after });
    });
    if (statements.length) await this.warehouse.transaction(statements);
    this.states.delete(load.tenantId);
  }

  /** Rebuilds one tenant's rows of a rollup; returns why it cannot (rows it cannot bucket), or undefined. */
  private async refreshTenant(
    r: RollupDefinition,
    load: Pick<LoadDone, 'tenantId'> & Partial<LoadDone>,
    signal?: AbortSignal,
  ): Promise<string | undefined> {
    const tenant = load.tenantId;
    const dataVersion = (await this.warehouse.version(tenant)) ?? '';
    const before = (await this.state.ofTenant(tenant)).get(r.id);
    const wasCurrent =
      before !== undefined &&
      load.versionBefore !== undefined &&
      before.definition === r.definitionHash &&
      before.data_version === load.versionBefore;
    const range = r.time.column && r.source.table?.replace(/"/g, '') === load.table ? load.timeRanges?.[r.time.column] : undefined;
    const statements: TransactionStatement[] = [];
    if (wasCurrent && load.mode === 'append' && r.partitionGranularity && range && bucketable(range.min) && bucketable(range.max)) {
      const g = r.partitionGranularity;
      const from = bucketStart(range.min.slice(0, 10), g);
      const to = bucketEnd(bucketStart(range.max.slice(0, 10), g), g);
      statements.push(
        this.ddl.delete(r.table, `"__tenant" = $1 AND "__bucket" >= CAST($2 AS DATE) AND "__bucket" < CAST($3 AS DATE)`, [
          tenant,
          from,
          to,
        ]),
        { sql: `INSERT INTO ${r.table} ${rollupSelect(r, this.d, { tenant: true, range: true })}`, params: [tenant, from, to] },
      );
    } else {
      const [span] = await this.warehouse.query(rollupTimeSpanSql(r, this.d, { tenant: true }), [tenant]);
      if (span?.lo && span?.hi && (spanSide(String(span.lo)) !== 0 || spanSide(String(span.hi)) !== 0)) {
        const problem = outsideSpanProblem(String(span.lo), String(span.hi));
        await this.state.record(r.id, tenant, problem, 1, true);
        this.states.delete(tenant);
        return problem;
      }
      statements.push(this.ddl.delete(r.table, '"__tenant" = $1', [tenant]), {
        sql: `INSERT INTO ${r.table} ${rollupSelect(r, this.d, { tenant: true })}`,
        params: [tenant],
      });
    }
    statements.push(
      ...this.state.write(r.id, tenant, { definition: r.definitionHash, data_version: dataVersion, version: newVersion() }),
      this.state.solved(r.id, tenant),
    );
    await this.warehouse.transaction(statements, signal);
    this.states.delete(tenant);
    return undefined;
  }

  /** Retries a failed refresh of one tenant in the background, whole, with backoff; the latest attempt is recorded. */
  private scheduleRetry(r: RollupDefinition, tenant: string, attempt: number): void {
    if (this.stopping.signal.aborted || attempt >= REFRESH_ATTEMPTS) return;
    const key = `${r.id}\u0000${tenant}`;
    clearTimeout(this.retries.get(key));
    const timer = setTimeout(() => {
      this.retries.delete(key);
      const p = this.refreshTenant(r, { tenantId: tenant }, this.stopping.signal).catch(async (err) => {
        if (this.stopping.signal.aborted) return;
        await this.state.record(r.id, tenant, `refresh failed: ${messageOf(err)}`, attempt + 1).catch(() => {});
        this.scheduleRetry(r, tenant, attempt + 1);
      });
      this.background.add(p);
      void p.finally(() => this.background.delete(p));
    }, retryDelayMs(attempt));
    timer.unref();
    this.retries.set(key, timer);
  }

  /** The rollups that are not current for some tenant of their data (never built, model changed, data changed). */
  async outdated(): Promise<string[]> {
    const out: string[] = [];
    for (const s of await this.status()) {
      const r = this.rollups.find((x) => x.id === s.rollup)!;
      if (await this.tableMissing(r)) continue;
      if (s.tenants.length === 0 || s.tenants.some((t) => !t.current)) out.push(s.rollup);
    }
    return out;
  }

  async status(): Promise<RollupStatus[]> {
    await this.state.ensure();
    const problems = await this.state.problems();
    const out: RollupStatus[] = [];
    for (const r of this.rollups) {
      const rows = await this.warehouse.query(
        `SELECT tenant, definition, data_version, built_at FROM ${STATE} WHERE rollup = $1 ORDER BY tenant`,
        [r.id],
      );
      const counts = new Map<string, number>();
      if (rows.length) {
        try {
          for (const c of await this.warehouse.query(`SELECT "__tenant" AS t, count(*) AS n FROM ${r.table} GROUP BY 1`))
            counts.set(String(c.t), Number(c.n));
        } catch {
          // The table is gone: every tenant shows 0 rows and is not current.
        }
      }
      const tenants = await Promise.all(
        rows.map(async (s) => ({
          tenant: String(s.tenant),
          rows: counts.get(String(s.tenant)) ?? 0,
          built_at: String(s.built_at).replace(' ', 'T').slice(0, 19) + 'Z',
          current:
            s.definition === r.definitionHash &&
            String(s.data_version) === ((await this.warehouse.version(String(s.tenant))) ?? '') &&
            counts.has(String(s.tenant)),
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
      const [row] = await this.warehouse.query(`SELECT CAST(min(built_at) AS VARCHAR) AS at FROM ${STATE} WHERE rollup = $1`, [r.id]);
      const at = row?.at ? Date.parse(`${String(row.at).replace(' ', 'T').slice(0, 19)}Z`) : Number.NaN;
      if (!(at + r.refreshEverySeconds! * 1000 > now)) due.push(r.id);
    }
    return due.length ? this.build(due, signal) : [];
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
    const track = (work: () => Promise<RollupBuild[]>) => {
      if (signal.aborted || busy) return;
      busy = true;
      const p = work()
        .then(onBuilt, (err) => {
          if (!signal.aborted) onError(err);
        })
        .finally(() => (busy = false));
      this.background.add(p);
      void p.finally(() => this.background.delete(p));
    };
    track(async () => {
      const ids = await this.outdated();
      return ids.length ? this.build(ids, signal) : [];
    });
    const periods = this.rollups.flatMap((r) => (r.refreshEverySeconds ? [r.refreshEverySeconds] : []));
    if (periods.length === 0) return;
    const timer = setInterval(() => track(() => this.refreshDue(signal)), Math.min(60, ...periods) * 1000);
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
