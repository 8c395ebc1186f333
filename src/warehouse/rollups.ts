// The rollup tables of the model (docs/rollups.md) in the warehouse: building them, refreshing one
// tenant's rows after that tenant's load, and saying which are current for a tenant. A rollup
// answers a tenant's query only when its state row says it was built from the tenant's current
// data with the current definition; anything else (never built, model changed, data loaded since)
// is answered from the raw rows, so a rollup can be late but never wrong.
import { systemClock, type Clock } from '../lib/clock.ts';
import { DIALECTS } from '../semantic/dialects/index.ts';
import { addPeriods, bucketStart } from '../semantic/periods.ts';
import { ROLLUP_SCHEMA, rollsUpTo, rollupSelect, rollupTimeSpanSql } from '../semantic/rollups.ts';
import { GRANULARITIES, type Granularity, type RollupDefinition } from '../semantic/types.ts';
import type { LoadMode } from './load.ts';
import { STANDARD_ROLLUP_DDL, type RollupDdl } from './rollup-ddl.ts';
import type { Warehouse } from './warehouse.ts';

const STATE = `"${ROLLUP_SCHEMA}"."state"`;

interface StateRow {
  definition: string;
  data_version: string;
  version: string;
}

export interface RollupBuild {
  rollup: string;
  /** Tenants whose rows were (re)built; empty when skipped. */
  tenants: string[];
  ms: number;
  /** Why nothing was built (a table of its data is not loaded yet). */
  skipped?: string;
}

export interface RollupStatus {
  rollup: string;
  table: string;
  granularity: Granularity;
  partition_granularity: Granularity | null;
  refresh_every_seconds: number | null;
  tenants: { tenant: string; rows: number; built_at: string; current: boolean }[];
}

/** The end (exclusive) of the bucket of `g` starting at `start`: the next bucket's start. */
const bucketEnd = (start: string, g: Granularity) => addPeriods(start, g, 1);

/** Rows of the time dimension's table a build slice should hold at most (its join and groups stay small). */
const ROWS_PER_SLICE = 1_000_000;

/**
 * The [from, to) day ranges a whole build inserts one at a time: partitions (else months), made
 * finer (weeks, then days) while a slice would hold more than ROWS_PER_SLICE rows on average.
 * Never finer than the rollup's own buckets need: slices are whole buckets of its granularity.
 */
function buildSlices(r: RollupDefinition, lo: string, hi: string, rows: number): [string, string][] {
  const order: Granularity[] = ['year', 'quarter', 'month', 'week', 'day'];
  let g: Granularity = r.partitionGranularity ?? (GRANULARITIES.indexOf(r.granularity) > GRANULARITIES.indexOf('month') ? r.granularity : 'month');
  const days = (Date.parse(hi) - Date.parse(lo)) / 86_400_000 + 1;
  const perDays: Record<Granularity, number> = { day: 1, week: 7, month: 30, quarter: 91, year: 365 };
  for (;;) {
    const finer = order[order.indexOf(g) + 1];
    const tooBig = rows / Math.max(1, Math.ceil(days / perDays[g])) > ROWS_PER_SLICE;
    // A slice is whole buckets of the rollup: a month rollup is sliced by months at the finest.
    if (!tooBig || !finer || !rollsUpTo(r.granularity, finer)) break;
    g = finer;
  }
  const out: [string, string][] = [];
  for (let from = bucketStart(lo, g); from <= hi; from = bucketEnd(from, g)) out.push([from, bucketEnd(from, g)]);
  return out;
}

const newVersion = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

export class RollupStore {
  private readonly states = new Map<string, { at: number; rows: Map<string, StateRow> }>();
  private schemaReady?: Promise<void>;
  private timers: NodeJS.Timeout[] = [];
  /** Background builds (start, refresh_every): stop() aborts them between statements and waits. */
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
  }

  /** built_at as stored: the injected clock's time, which refresh_every is measured on. */
  private builtAt(): string {
    return this.clock.now().toISOString().replace('T', ' ').slice(0, 19);
  }

  private get d() {
    return DIALECTS[this.warehouse.dialect];
  }

  private ensureSchema(): Promise<void> {
    this.schemaReady ??= this.warehouse
      .exec(
        this.ddl.schema(
          `"${ROLLUP_SCHEMA}"`,
          STATE,
          'rollup VARCHAR NOT NULL, tenant VARCHAR NOT NULL, definition VARCHAR NOT NULL, data_version VARCHAR NOT NULL, version VARCHAR NOT NULL, built_at TIMESTAMP NOT NULL, PRIMARY KEY (rollup, tenant)',
        ),
      )
      .catch((err) => {
        this.schemaReady = undefined;
        throw err;
      });
    return this.schemaReady;
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
      const found = await this.warehouse.query(`SELECT rollup, definition, data_version, version FROM ${STATE} WHERE tenant = $1`, [tenantId]);
      rows = new Map(found.map((r) => [String(r.rollup), { definition: String(r.definition), data_version: String(r.data_version), version: String(r.version) }]));
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

  private async tableMissing(r: RollupDefinition): Promise<string | undefined> {
    for (const table of r.tables) {
      const quoted = table.split('.').map((p) => this.d.quote(p)).join('.');
      try {
        await this.warehouse.query(`SELECT 1 FROM ${quoted} WHERE 1 = 0`);
      } catch {
        return table;
      }
    }
    return undefined;
  }

  /** Builds rollups whole, every tenant at once (all of them, or the ids given). */
  async build(only?: string[], signal?: AbortSignal): Promise<RollupBuild[]> {
    await this.ensureSchema();
    const out: RollupBuild[] = [];
    for (const r of this.rollups) {
      if (only && !only.includes(r.id) && !only.includes(r.name)) continue;
      const started = Date.now();
      const missing = await this.tableMissing(r);
      if (missing) {
        out.push({ rollup: r.id, tenants: [], ms: 0, skipped: `table ${missing} is not loaded yet` });
        continue;
      }
      // Versions are read before the build: if a load commits in between, the state names older
      // data than the table holds, and the rollup waits for the load's own refresh (never the reverse).
      const tenants = (await this.warehouse.query(`SELECT DISTINCT ${r.source.tenant} AS t FROM ${r.source.table} AS ${r.source.alias}`)).map((x) => String(x.t));
      const versions = await Promise.all(tenants.map(async (t) => (await this.warehouse.version(t)) ?? ''));
      const version = newVersion();
      const building = this.d.quote(`${r.cube}__${r.name}__building`);
      // Slice by slice (partitions, else months): each join and aggregation then holds one slice,
      // so a build stays within the server's memory ceiling whatever the table's size.
      const [span] = await this.warehouse.query(rollupTimeSpanSql(r, this.d));
      const slices = span?.lo && span?.hi ? buildSlices(r, String(span.lo), String(span.hi), Number(span.n)) : [];
      const statements = [
        ...this.ddl.drop(`"${ROLLUP_SCHEMA}".${building}`),
        ...(await this.ddl.createAs(`"${ROLLUP_SCHEMA}".${building}`, rollupSelect(r, this.d, { range: true }), ['1970-01-01', '1970-01-01'])),
        ...slices.map(([from, to]) => ({ sql: `INSERT INTO "${ROLLUP_SCHEMA}".${building} ${rollupSelect(r, this.d, { range: true })}`, params: [from, to] })),
        ...this.ddl.replace(`"${ROLLUP_SCHEMA}".${building}`, r.table, this.d.quote(`${r.cube}__${r.name}`), rollupSelect(r, this.d, { range: true }), ['1970-01-01', '1970-01-01']),
        this.ddl.delete(STATE, 'rollup = $1', [r.id]),
        ...tenants.map((t, i) => ({
          sql: `INSERT INTO ${STATE} VALUES ($1, $2, $3, $4, $5, CAST($6 AS TIMESTAMP))`,
          params: [r.id, t, r.definitionHash, versions[i], version, this.builtAt()],
        })),
      ];
      await this.warehouse.transaction(statements, signal);
      this.states.clear();
      out.push({ rollup: r.id, tenants, ms: Date.now() - started });
    }
    return out;
  }

  /**
   * After a load of `table` for one tenant: that tenant's rows of every built rollup that reads the
   * table are rebuilt before the load answers. An append into the rollup's own fact table whose
   * time column's range is known rebuilds only the partitions it touched (partition_granularity);
   * otherwise all of the tenant's rows. Rollups never built wait for a whole build.
   */
  async refreshAfterLoad(load: { table: string; tenantId: string; mode: LoadMode; timeRanges?: Record<string, { min: string; max: string }> }): Promise<RollupBuild[]> {
    const affected = this.rollups.filter((r) => r.tables.includes(load.table));
    if (affected.length === 0) return [];
    await this.ensureSchema();
    const out: RollupBuild[] = [];
    for (const r of affected) {
      const built = await this.warehouse.query(`SELECT count(*) AS n FROM ${STATE} WHERE rollup = $1 AND definition = $2`, [r.id, r.definitionHash]);
      if (Number(built[0]?.n ?? 0) === 0) continue;
      const started = Date.now();
      const dataVersion = (await this.warehouse.version(load.tenantId)) ?? '';
      const range = r.time.column && r.source.table?.replace(/"/g, '') === load.table ? load.timeRanges?.[r.time.column] : undefined;
      const statements: { sql: string; params?: unknown[] }[] = [];
      if (load.mode === 'append' && r.partitionGranularity && range) {
        const g = r.partitionGranularity;
        const from = bucketStart(range.min.slice(0, 10), g);
        const to = bucketEnd(bucketStart(range.max.slice(0, 10), g), g);
        statements.push(
          this.ddl.delete(r.table, `"__tenant" = $1 AND "__bucket" >= CAST($2 AS DATE) AND "__bucket" < CAST($3 AS DATE)`, [load.tenantId, from, to]),
          { sql: `INSERT INTO ${r.table} ${rollupSelect(r, this.d, { tenant: true, range: true })}`, params: [load.tenantId, from, to] },
        );
      } else {
        statements.push(
          this.ddl.delete(r.table, '"__tenant" = $1', [load.tenantId]),
          { sql: `INSERT INTO ${r.table} ${rollupSelect(r, this.d, { tenant: true })}`, params: [load.tenantId] },
        );
      }
      statements.push(
        this.ddl.delete(STATE, 'rollup = $1 AND tenant = $2', [r.id, load.tenantId]),
        {
          sql: `INSERT INTO ${STATE} VALUES ($1, $2, $3, $4, $5, CAST($6 AS TIMESTAMP))`,
          params: [r.id, load.tenantId, r.definitionHash, dataVersion, newVersion(), this.builtAt()],
        },
      );
      await this.warehouse.transaction(statements);
      this.states.delete(load.tenantId);
      out.push({ rollup: r.id, tenants: [load.tenantId], ms: Date.now() - started });
    }
    return out;
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
    await this.ensureSchema();
    const out: RollupStatus[] = [];
    for (const r of this.rollups) {
      const rows = await this.warehouse.query(`SELECT tenant, definition, data_version, built_at FROM ${STATE} WHERE rollup = $1 ORDER BY tenant`, [r.id]);
      const counts = new Map<string, number>();
      if (rows.length) {
        try {
          for (const c of await this.warehouse.query(`SELECT "__tenant" AS t, count(*) AS n FROM ${r.table} GROUP BY 1`)) counts.set(String(c.t), Number(c.n));
        } catch {
          // The table is gone: every tenant shows 0 rows and is not current.
        }
      }
      const tenants = await Promise.all(
        rows.map(async (s) => ({
          tenant: String(s.tenant),
          rows: counts.get(String(s.tenant)) ?? 0,
          built_at: String(s.built_at).replace(' ', 'T').slice(0, 19) + 'Z',
          current: s.definition === r.definitionHash && String(s.data_version) === ((await this.warehouse.version(String(s.tenant))) ?? '') && counts.has(String(s.tenant)),
        })),
      );
      out.push({
        rollup: r.id,
        table: r.table,
        granularity: r.granularity,
        partition_granularity: r.partitionGranularity ?? null,
        refresh_every_seconds: r.refreshEverySeconds ?? null,
        tenants,
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
    await this.ensureSchema();
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
    this.stopping.abort();
    await Promise.allSettled([...this.background]);
  }
}

