// The one path from a planned query to the warehouse's rows, for insights (execute, widgets,
// reports, chat) and semantic queries alike: the tenant's data version and usable rollups (what a
// cached answer must match), compilation for the warehouse's dialect, the read, and what a failed
// read means to the caller (a table not loaded, a model that does not fit the data, out of memory).
import { AppError } from '../../lib/errors.ts';
import { DIALECTS } from '../../semantic/dialects/index.ts';
import { DEMO_MODEL_PATH, type SemanticModel } from '../../semantic/model.ts';
import { probeModel, tableProblem } from '../../semantic/probe.ts';
import { compileQuery, compileSpan, type MemberSource, type ResolvedQuery } from '../../semantic/query/compile.ts';
import type { Attributes, QueryPlan, RollupDefinition, TableUse } from '../../semantic/types.ts';
import { isOutOfMemory, type Warehouse, type WarehouseRow } from '../../warehouse/warehouse.ts';

/** Which rollups may answer a tenant's queries now (src/warehouse/rollups.ts), and their builds as a cache key. */
export interface RollupSource {
  usable(tenantId: string): Promise<{ rollups: RollupDefinition[]; key: string }>;
  /** usable() when it is known without a read, for this data version; else undefined. */
  knownUsable?(tenantId: string, dataVersion: string | undefined): { rollups: RollupDefinition[]; key: string } | undefined;
}

/** What a tenant's answers depend on now: the data version and the rollups usable. */
export interface DataState {
  version: string | undefined;
  usable?: { rollups: RollupDefinition[]; key: string };
}

/** What a read is about, for its refusals: "insight revenue", "the query"; the tables it reads. */
export interface Subject {
  name: string;
  tables: readonly TableUse[];
  cubes: readonly string[];
}

/** What usable() answers without rollups (stateKey reads its key as ''). */
const NO_ROLLUPS = { rollups: [], key: '' };

/** The cache key of an answer at a data state: a result never outlives the data or the rollup it was read from. */
export function stateKey(state: Pick<DataState, 'version' | 'usable'>, answerKey: string): string {
  return `${state.version ?? ''}\u0000${state.usable?.key ?? ''}\u0000${answerKey}`;
}

export class QueryRunner {
  constructor(
    private readonly warehouse: Warehouse,
    readonly model: SemanticModel,
    private readonly rollups?: RollupSource,
  ) {}

  get dialect() {
    return DIALECTS[this.warehouse.dialect];
  }

  /** The tenant's data version: it changes with every load, so caches of its data key on it. */
  dataVersion(tenantId: string): Promise<string | undefined> {
    return this.warehouse.version(tenantId);
  }

  async state(tenantId: string): Promise<DataState> {
    const [version, usable] = await Promise.all([this.warehouse.version(tenantId), this.rollups?.usable(tenantId)]);
    return { version, ...(usable ? { usable } : {}) };
  }

  /** state() when it is known without a read (in memory for this data version), else undefined. */
  knownState(tenantId: string): DataState | undefined {
    const version = this.warehouse.knownVersion?.(tenantId);
    if (!version) return undefined;
    const usable = this.rollups ? this.rollups.knownUsable?.(tenantId, version.value) : NO_ROLLUPS;
    return usable ? { version: version.value, usable } : undefined;
  }

  /** Compiles the query with the rollups usable at `state` and reads its rows. */
  async rows(plan: QueryPlan, q: ResolvedQuery, state: DataState, subject: Subject): Promise<WarehouseRow[]> {
    const usable = state.usable?.rollups;
    const { sql, params } = compileQuery(plan, this.dialect, usable?.length ? { ...q, rollups: usable } : q);
    return this.read(q.tenantId, sql, params, state, subject);
  }

  /**
   * Runs compiled SQL of `tenantId`'s data, in that tenant's turn (read-lanes.ts); a failure is
   * explained when the model and the data disagree.
   */
  async read(
    tenantId: string,
    sql: string,
    params: unknown[],
    state: Pick<DataState, 'version'>,
    subject: Subject,
  ): Promise<WarehouseRow[]> {
    try {
      return await this.warehouse.query(sql, params, { tenant: tenantId });
    } catch (err) {
      const problem = await this.dataProblem(subject);
      if (problem) throw problem;
      if (state.version === undefined) throw new AppError('SERVICE_UNAVAILABLE', this.noDataYet(subject));
      if (isOutOfMemory(err)) {
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          `The warehouse ran out of memory answering ${subject.name} over this period. Ask for a shorter period or ` +
            `fewer values, or raise the warehouse's memory ceiling (INSIGHTS_DUCKDB_MEMORY_BURST for the embedded ` +
            `one).`,
        );
      }
      throw err;
    }
  }

  /** Runs a read of `tenantId`'s data that may fail quietly (a table not loaded yet): undefined then. */
  async tryRead(tenantId: string, sql: string, params: unknown[]): Promise<WarehouseRow[] | undefined> {
    try {
      return await this.warehouse.query(sql, params, { tenant: tenantId });
    } catch {
      return undefined;
    }
  }

  /**
   * The first and last day of a time member in the tenant's data as the caller sees it; undefined
   * where it has none, its table is not loaded yet, or an access filter needs an attribute the
   * caller lacks (then there is no span to tell).
   */
  async span(member: MemberSource, tenantId: string, attributes?: Attributes): Promise<{ from: string; to: string } | undefined> {
    let compiled: ReturnType<typeof compileSpan>;
    try {
      compiled = compileSpan(member, this.dialect, tenantId, attributes);
    } catch {
      return undefined;
    }
    const rows = await this.tryRead(tenantId, compiled.sql, compiled.params);
    const from = rows?.[0]?.first;
    const to = rows?.[0]?.last;
    return typeof from === 'string' && typeof to === 'string' ? { from: from.slice(0, 10), to: to.slice(0, 10) } : undefined;
  }

  /** What to do about an empty warehouse: the demo is seeded; a model of the user's own names the tables to load. */
  private noDataYet(subject: Subject): string {
    if (this.model.location === DEMO_MODEL_PATH) return 'The warehouse holds no data yet; run `insights demo seed` or restart the server.';
    const tables = [...new Set(subject.tables.map((t) => t.table))];
    const first = tables[0] ?? 'T';
    return (
      `The warehouse holds no data yet; load the table${tables.length === 1 ? '' : 's'} ${subject.name} reads (${tables.join(', ')}): ` +
      `insights data load --table ${first} --file F --tenant X, or POST /api/v1/data/${first} (docs/data.md).`
    );
  }

  /**
   * Why a read failed when the model and the warehouse disagree (checked only after a read
   * failed): a table not loaded yet, a table without its cube's tenant column, or a column the
   * model's SQL names that the table lacks (the model check's probe, on the cubes read).
   */
  private async dataProblem(subject: Subject): Promise<AppError | undefined> {
    const what = subject.name.charAt(0).toUpperCase() + subject.name.slice(1);
    for (const use of subject.tables) {
      const problem = await tableProblem(this.warehouse, use);
      if (problem?.missing) {
        return new AppError(
          'DATA_NOT_LOADED',
          `Table "${use.table}" of ${subject.name} is not in the warehouse yet; load its data first (insights data ` +
            `load --table ${use.table} …).`,
        );
      }
      if (problem) return new AppError('DATA_MODEL_MISMATCH', `${what}: ${problem.message}.`);
    }
    const cubes = new Set([...subject.cubes, ...subject.tables.map((t) => t.cube)]);
    const found = (await probeModel(this.model, this.warehouse, cubes))[0];
    return found && new AppError('DATA_MODEL_MISMATCH', `${what}: the model's ${found.path} does not fit the warehouse: ${found.message}`);
  }
}
