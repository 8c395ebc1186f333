// Builds the rollup tables (docs/rollups.md): a rollup whole for every tenant, in slices, swapped
// in with its state rows in one transaction; one tenant's rows after that tenant's load; and the
// stamps of the rollups a load does not touch. What is built is said by the state rows it writes,
// never by the table alone, so a build that fails half way leaves the previous one answering.
import { DIALECTS } from '../../semantic/dialects/index.ts';
import { bucketStart } from '../../semantic/periods.ts';
import { unreadableTable } from '../../semantic/probe.ts';
import { ROLLUP_SCHEMA, rollupOutsideSpanSql, rollupSelect, rollupTimeSpanSql } from '../../semantic/rollups.ts';
import type { RollupDefinition } from '../../semantic/types.ts';
import type { LoadMode } from '../load/rules.ts';
import type { RollupDdl, TransactionStatement } from './ddl.ts';
import { BUCKETABLE, bucketable, bucketEnd, buildSlices, outsideSpanProblem, spanSide } from './span.ts';
import { type RollupState, STATE } from './state.ts';
import type { Warehouse } from '../warehouse.ts';

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

/** What a load tells the rollups (DataService, `insights data load`). */
export interface LoadDone {
  table: string;
  tenantId: string;
  mode: LoadMode;
  timeRanges?: Record<string, { min: string; max: string }>;
  /** The tenant's data version read before the load: rollups current with it stay current if they do not read the table. */
  versionBefore?: string;
}

const newVersion = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

export class RollupBuilder {
  constructor(
    private readonly warehouse: Warehouse,
    private readonly state: RollupState,
    /** The engine's way with rollup tables (rollups/ddl.ts). */
    private readonly ddl: RollupDdl,
  ) {}

  private get d() {
    return DIALECTS[this.warehouse.dialect];
  }

  /** The first table of the rollup's data the warehouse cannot read (not loaded yet), if any. */
  async tableMissing(r: RollupDefinition): Promise<string | undefined> {
    for (const table of r.tables) if ((await unreadableTable(this.warehouse, table)) !== undefined) return table;
    return undefined;
  }

  /**
   * Builds one rollup whole, every tenant at once; tenants with rows outside the bucketable span
   * are left out (not current: their queries read the raw rows) and reported.
   */
  async build(r: RollupDefinition, started: number, signal?: AbortSignal): Promise<RollupBuild> {
    const missing = await this.tableMissing(r);
    if (missing) return { rollup: r.id, tenants: [], ms: 0, skipped: `table ${missing} is not loaded yet` };
    // Versions are read before the build: if a load commits in between, the state names older
    // data than the table holds, and the rollup waits for the load's own refresh (never the reverse).
    const all = (await this.warehouse.query(`SELECT DISTINCT ${r.source.tenant} AS t FROM ${r.source.table} AS ${r.source.alias}`)).map(
      (x) => String(x.t),
    );
    // Slice by slice (partitions, else months): each join and aggregation then holds one slice,
    // so a build stays within the server's memory ceiling whatever the table's size.
    let span = await this.timeSpan(rollupTimeSpanSql(r, this.d));
    const leftOut: { tenant: string; problem: string }[] = [];
    if (span.lo && span.hi && (!bucketable(span.lo) || !bucketable(span.hi))) {
      for (const x of await this.warehouse.query(rollupOutsideSpanSql(r, this.d), [BUCKETABLE.from, BUCKETABLE.to])) {
        leftOut.push({ tenant: String(x.tenant), problem: outsideSpanProblem(String(x.lo), String(x.hi)) });
      }
      // The slices cover the rows that are rolled up, not the whole bucketable span: a tenant's
      // rows in year 1 and 9999 made a 50-row build insert 3,612 monthly slices (75 s).
      span = await this.timeSpan(rollupTimeSpanSql(r, this.d, { within: true }), [BUCKETABLE.from, BUCKETABLE.to]);
    }
    const tenants = all.filter((t) => !leftOut.some((x) => x.tenant === t));
    const versions = await Promise.all(tenants.map(async (t) => (await this.warehouse.version(t)) ?? ''));
    const version = newVersion();
    const building = this.d.quote(`${r.cube}__${r.name}__building`);
    const slices = span.lo && span.hi ? buildSlices(r, span.lo, span.hi, span.n) : [];
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
    this.state.forgetRecent();
    for (const x of leftOut) await this.state.record(r.id, x.tenant, x.problem, 1);
    return { rollup: r.id, tenants, ms: Date.now() - started, ...(leftOut.length ? { left_out: leftOut } : {}) };
  }

  /** Rollups that do not read the loaded table and were current before the load are current after it. */
  async keepUnaffectedCurrent(rollups: readonly RollupDefinition[], load: LoadDone): Promise<void> {
    if (load.versionBefore === undefined) return;
    const unaffected = rollups.filter((r) => !r.tables.includes(load.table));
    if (unaffected.length === 0) return;
    const state = await this.state.ofTenant(load.tenantId);
    const after = (await this.warehouse.version(load.tenantId)) ?? '';
    const statements = unaffected.flatMap((r) => {
      const s = state.get(r.id);
      if (!s || s.definition !== r.definitionHash || s.data_version !== load.versionBefore) return [];
      return this.state.write(r.id, load.tenantId, { ...s, data_version: after });
    });
    if (statements.length) await this.warehouse.transaction(statements);
    this.state.forgetRecent(load.tenantId);
  }

  /** Rebuilds one tenant's rows of a rollup; returns why it cannot (rows it cannot bucket), or undefined. */
  async refreshTenant(
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
      const span = await this.timeSpan(rollupTimeSpanSql(r, this.d, { tenant: true }), [tenant]);
      if (span.lo && span.hi && (spanSide(span.lo) !== 0 || spanSide(span.hi) !== 0)) {
        const problem = outsideSpanProblem(span.lo, span.hi);
        await this.state.record(r.id, tenant, problem, 1, true);
        this.state.forgetRecent(tenant);
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
    this.state.forgetRecent(tenant);
    return undefined;
  }

  /** A rollupTimeSpanSql read: the first and last day (unset without rows) and the row count. */
  private async timeSpan(sql: string, params?: unknown[]): Promise<{ lo?: string; hi?: string; n: number }> {
    const [span] = await this.warehouse.query(sql, params);
    return { lo: span?.lo ? String(span.lo) : undefined, hi: span?.hi ? String(span.hi) : undefined, n: Number(span?.n ?? 0) };
  }

  /** Rows per tenant in the rollup's table; empty when the table is gone. */
  async rowCounts(r: RollupDefinition): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    try {
      for (const c of await this.warehouse.query(`SELECT "__tenant" AS t, count(*) AS n FROM ${r.table} GROUP BY 1`))
        counts.set(String(c.t), Number(c.n));
    } catch {
      // The table is gone: every tenant shows 0 rows and is not current.
    }
    return counts;
  }
}
