// The insight engine: the catalog of the semantic model, parameter resolution, compilation for the warehouse's dialect,
// execution, shaping of rows (zero-filled periods, rounded money, ratios, KPI comparison), cache.
import type { Clock } from '../../lib/clock.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import {
  accessKey,
  compile,
  compileDistinct,
  compileSpan,
  filterValues,
  outputColumns,
  type ResolvedQuery,
} from '../../semantic/compiler.ts';
import { DIALECTS } from '../../semantic/dialects/index.ts';
import { DEMO_MODEL_PATH, demoModel, type SemanticModel } from '../../semantic/model.ts';
import type { CompareKind } from '../../lib/chart.schemas.ts';
import { periodStarts } from '../../semantic/periods.ts';
import { probeModel, tableProblem } from '../../semantic/probe.ts';
import type { Attributes, CatalogEntry, InsightDefinition, RollupDefinition } from '../../semantic/types.ts';
import { isOutOfMemory, type Warehouse, type WarehouseRow } from '../../warehouse/warehouse.ts';
import { ResultCache, type CacheEntry } from './insights.cache.ts';
import { parametersOf, resolveParams, type ExecuteParams } from './insights.params.ts';

export type { ExecuteParams } from './insights.params.ts';
export type { CatalogEntry, InsightDefinition } from '../../semantic/types.ts';

import type { Cell } from '../../lib/chart.schemas.ts';
export type { Cell };

/** Which rollups may answer a tenant's queries now (src/warehouse/rollups.ts), and their builds as a cache key. */
export interface RollupSource {
  usable(tenantId: string): Promise<{ rollups: RollupDefinition[]; key: string }>;
  /** usable() when it is known without a read, for this data version; else undefined. */
  knownUsable?(tenantId: string, dataVersion: string | undefined): { rollups: RollupDefinition[]; key: string } | undefined;
}

export interface ChartHintOut {
  type: string;
  x_axis: string;
  y_axis?: string[];
  series?: string;
  title?: string;
}

/** ExecuteResponse.data of docs/product.md §6. */
export interface ExecuteResult {
  insight_code: string;
  insight_name: string;
  granularity: string | null;
  /** A filter's value, or its values when several were given. */
  filters: Record<string, string | string[]>;
  period: { from: string; to: string };
  /** With compare: what the rows were compared with, and that window. */
  compare?: CompareKind;
  previous_period?: { from: string; to: string };
  columns: { name: string; type: string; label: string; currency?: string; decimals?: number }[];
  rows: Record<string, Cell>[];
  chart_hint: ChartHintOut;
  row_count: number;
  generated_at: string;
  cached: boolean;
}

/**
 * Whose data a query reads: a tenant, or a caller (an AuthContext fits) whose attributes the model's
 * access filters read. A bare tenant id carries no attributes, so a cube with access filters refuses it.
 */
export type Scope = string | { readonly tenantId: string; readonly attributes?: Attributes };

const scopeOf = (s: Scope): { tenantId: string; attributes?: Attributes } => (typeof s === 'string' ? { tenantId: s } : s);

/** The cache key of a resolved query, without the warehouse version. */
function cacheKey(def: InsightDefinition, q: ResolvedQuery): string {
  const filters = def.filters.map((f) => q.filters[f] ?? null);
  return JSON.stringify([
    // Callers with different values of the attributes the insight's access filters read see different rows.
    accessKey(def, q.attributes),
    q.tenantId,
    def.code,
    q.granularity,
    filters,
    q.window.from,
    q.window.to,
    q.previous?.from ?? null,
    q.previous?.to ?? null,
    q.limit ?? null,
    q.compare?.kind ?? null,
  ]);
}

/** The cache key of a resolved query at a warehouse version and the rollups usable. */
/** What usable() answers without rollups (fullKey reads its key as ''). */
const NO_ROLLUPS = { rollups: [], key: '' };

function fullKey(version: string | undefined, usable: { key: string } | undefined, resolvedKey: string): string {
  // The rollups' builds are part of the key: a result never outlives the rollup it was read from.
  return `${version ?? ''}\u0000${usable?.key ?? ''}\u0000${resolvedKey}`;
}

/** A request as sent, by whose data it reads: the tenant and all of the caller's attributes (stricter than accessKey). */
function sentKey(scope: Scope, today: string, asSent: string): string {
  const { tenantId, attributes } = scopeOf(scope);
  return JSON.stringify([tenantId, attributes ?? null, today, asSent]);
}

/** A cache hit's ExecuteResponse as JSON in UTF-8, serialized and encoded on the first hit. */
function hitBytes(entry: CacheEntry<ExecuteResult>): Buffer {
  entry.hitBytes ??= Buffer.from(JSON.stringify({ success: true, data: { ...entry.result, cached: true } }));
  return entry.hitBytes;
}

/**
 * The insight's chart hint for this query: a time series split by a filter names it as `series`;
 * with compare, each measure on the y axis is drawn beside its previous figure.
 */
function chartHint(def: InsightDefinition, q: ResolvedQuery): ChartHintOut {
  const hint: ChartHintOut = { ...def.chart, title: def.chart.title ?? def.name };
  if (q.series) hint.series = q.series;
  if (q.compare && def.kind !== 'kpi' && hint.y_axis)
    hint.y_axis = hint.y_axis.flatMap((y) => (def.measures.some((m) => m.name === y) ? [y, `${y}_previous`] : [y]));
  return hint;
}

function withAttributes(q: ResolvedQuery, scope: Scope): ResolvedQuery {
  const attributes = typeof scope === 'string' ? undefined : scope.attributes;
  return attributes ? { ...q, attributes } : q;
}

const round2 = (n: number) => Math.round((n + Number.EPSILON) * 100) / 100;

function num(v: unknown): number {
  return v === null || v === undefined ? 0 : Number(v);
}

export class InsightsService {
  private readonly byCode: Map<string, InsightDefinition>;
  private readonly entries: CatalogEntry[];
  readonly cache = new ResultCache<ExecuteResult>();
  private readonly resolved = new Map<string, { q: ResolvedQuery; key: string }>();
  /** Requests as sent (asSent of executeJson) by caller and day → their resolution, for cachedJson. */
  private readonly sent = new Map<string, { def: InsightDefinition; q: ResolvedQuery; key: string }>();

  constructor(
    private readonly warehouse: Warehouse,
    private readonly clock: Clock,
    readonly model: SemanticModel = demoModel(),
    private readonly rollups?: RollupSource,
  ) {
    const definitions = model.insights;
    this.byCode = new Map(definitions.map((d) => [d.code, d]));
    this.entries = definitions.map((d) => ({
      code: d.code,
      name: d.name,
      description: d.description,
      kind: d.kind,
      granularities: [...d.granularities],
      default_granularity: d.defaultGranularity ?? null,
      filters: [...d.filters],
      parameters: parametersOf(d),
      measures: outputColumns(d)
        .filter((c) => c.type !== 'date' && c.type !== 'string' && !d.dimensions.some((x) => x.name === c.name))
        .map((c) => ({ name: c.name, label: c.label, type: c.type })),
      dimensions: d.dimensions.map((x) => ({ name: x.name, label: x.label })),
      default_limit: d.limit?.default ?? null,
      chart_hint: { ...d.chart },
      synonyms: [...d.synonyms],
    }));
  }

  catalog(): CatalogEntry[] {
    return this.entries;
  }

  /** Every filter parameter of the catalog, once (the execute route's query schema). */
  filterParameters(): { name: string; label: string }[] {
    const out = new Map<string, string>();
    for (const d of this.byCode.values()) for (const f of d.filters) if (!out.has(f)) out.set(f, d.filterRules[f].label);
    return [...out].map(([name, label]) => ({ name, label }));
  }

  find(code: string): InsightDefinition | undefined {
    return this.byCode.get(code);
  }

  get(code: string): InsightDefinition {
    const def = this.byCode.get(code);
    if (!def) throw notFound(`Insight "${code}"`);
    return def;
  }

  /** The tenant's data version: it changes with every load, so caches of its data key on it. */
  dataVersion(tenantId: string): Promise<string | undefined> {
    return this.warehouse.version(tenantId);
  }

  /**
   * The first and last day of the insight's data for the tenant, or undefined where it has none
   * (or its table is not loaded yet): chat's fallback window for questions that name no period.
   */
  async dataSpan(scope: Scope, code: string): Promise<{ from: string; to: string } | undefined> {
    const { tenantId, attributes } = scopeOf(scope);
    let sql: string;
    let params: unknown[];
    try {
      // As the caller: without the attributes an access filter needs, there is no span to tell.
      ({ sql, params } = compileSpan(this.get(code), DIALECTS[this.warehouse.dialect], tenantId, attributes));
    } catch {
      return undefined;
    }
    let rows: WarehouseRow[];
    try {
      rows = await this.warehouse.query(sql, params);
    } catch {
      return undefined;
    }
    const from = rows[0]?.first;
    const to = rows[0]?.last;
    return typeof from === 'string' && typeof to === 'string' ? { from: from.slice(0, 10), to: to.slice(0, 10) } : undefined;
  }

  /**
   * The values of a filter in all of the tenant's data, read through an insight that takes it; at
   * most `max`, or undefined where there are more (too many to be words of a question) or the
   * table is not loaded yet.
   */
  async filterValuesOf(scope: Scope, code: string, filter: string, max: number): Promise<string[] | undefined> {
    const { tenantId, attributes } = scopeOf(scope);
    let q: ReturnType<typeof compileDistinct>;
    try {
      // As the caller: the values of rows an access filter hides are not offered.
      q = compileDistinct(this.get(code), DIALECTS[this.warehouse.dialect], tenantId, filter, max + 1, attributes);
    } catch {
      return undefined;
    }
    if (!q) return undefined;
    let rows: WarehouseRow[];
    try {
      rows = await this.warehouse.query(q.sql, q.params);
    } catch {
      return undefined;
    }
    const values = rows.map((r) => r.value).filter((v): v is string => typeof v === 'string' && v.trim().length > 0);
    return values.length > max ? undefined : values;
  }

  today(): string {
    return this.clock.now().toISOString().slice(0, 10);
  }

  /** Resolves parameters without running anything (chat and subscriptions validate with it). */
  resolve(scope: Scope, code: string, params: ExecuteParams, where = 'query'): ResolvedQuery {
    return withAttributes(resolveParams(this.get(code), scopeOf(scope).tenantId, params, this.today(), where), scope);
  }

  async execute(scope: Scope, code: string, params: ExecuteParams): Promise<ExecuteResult> {
    const def = this.get(code);
    const q = withAttributes(resolveParams(def, scopeOf(scope).tenantId, params, this.today()), scope);
    return this.run(def, q);
  }

  /**
   * The whole ExecuteResponse as JSON, for the execute route: a cache hit answers with bytes
   * serialized and encoded once, which keeps hits close to the cost of a constant route. It is the
   * JSON of an ExecuteResult built here field by field, so it holds nothing the schema does not name.
   */
  async executeJson(scope: Scope, code: string, params: ExecuteParams, asSent?: string): Promise<string | Buffer> {
    const def = this.get(code);
    const { tenantId, attributes } = scopeOf(scope);
    // Parameters as sent resolve the same way all day long: remember their resolution, so a
    // repeated request goes straight to the cache.
    const today = this.today();
    const raw = JSON.stringify([
      tenantId,
      code,
      today,
      Object.entries(params).sort(([a], [b]) => (a < b ? -1 : 1)),
      accessKey(def, attributes),
    ]);
    let known = this.resolved.get(raw);
    if (!known) {
      const q = withAttributes(resolveParams(def, tenantId, params, today), scope);
      known = { q, key: cacheKey(def, q) };
      if (this.resolved.size >= 5000) this.resolved.clear();
      this.resolved.set(raw, known);
    }
    const { result, entry } = await this.lookup(def, known.q, known.key);
    if (asSent !== undefined) {
      if (this.sent.size >= 5000) this.sent.clear();
      this.sent.set(sentKey(scope, today, asSent), { def, ...known });
    }
    if (!entry) return JSON.stringify({ success: true, data: result });
    return hitBytes(entry);
  }

  /**
   * The answer executeJson gives to a request (as its UTF-8 bytes) sent exactly like one it answered before (asSent,
   * e.g. the URL) by a caller of the same tenant and attributes, today, when that answer is in the
   * cache now; undefined otherwise (nothing is run). The execute route's early answers use it.
   */
  cachedJson(scope: Scope, asSent: string): Buffer | undefined | Promise<Buffer | undefined> {
    const known = this.sent.get(sentKey(scope, this.today(), asSent));
    if (!known) return undefined;
    // In the request's own tick when the data version and the usable rollups are in memory (the
    // same values cached() would read), else after reading them.
    const tenantId = known.q.tenantId;
    const version = this.warehouse.knownVersion?.(tenantId);
    const usable = version && (this.rollups ? this.rollups.knownUsable?.(tenantId, version.value) : NO_ROLLUPS);
    if (version && usable) {
      const entry = version.value === undefined ? undefined : this.cache.get(fullKey(version.value, usable, known.key));
      return entry && hitBytes(entry);
    }
    return this.cached(known.q, known.key).then((entry) => entry && hitBytes(entry));
  }

  /** Runs a resolved query, through the cache. */
  async run(def: InsightDefinition, q: ResolvedQuery): Promise<ExecuteResult> {
    const { result, entry } = await this.lookup(def, q);
    return entry ? { ...entry.result, cached: true } : result;
  }

  /** A cache hit (entry), or a fresh result stored for the next caller. */
  private async lookup(
    def: InsightDefinition,
    q: ResolvedQuery,
    resolvedKey = cacheKey(def, q),
  ): Promise<{ result: ExecuteResult; entry?: CacheEntry<ExecuteResult> }> {
    const [version, usable] = await Promise.all([this.warehouse.version(q.tenantId), this.rollups?.usable(q.tenantId)]);
    const key = fullKey(version, usable, resolvedKey);
    if (version !== undefined) {
      const hit = this.cache.get(key);
      if (hit) return { result: hit.result, entry: hit };
    }
    const { sql, params } = compile(def, DIALECTS[this.warehouse.dialect], usable?.rollups.length ? { ...q, rollups: usable.rollups } : q);
    let raw: WarehouseRow[];
    try {
      raw = await this.warehouse.query(sql, params);
    } catch (err) {
      const problem = await this.dataProblem(def);
      if (problem) throw problem;
      if (version === undefined) throw new AppError('SERVICE_UNAVAILABLE', this.noDataYet(def));
      if (isOutOfMemory(err)) {
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          `The warehouse ran out of memory answering ${def.code} over this period. Ask for a shorter period or fewer values, or raise the warehouse's memory ceiling (INSIGHTS_DUCKDB_MEMORY_BURST for the embedded one).`,
        );
      }
      throw err;
    }
    const result: ExecuteResult = {
      insight_code: def.code,
      insight_name: def.name,
      granularity: q.granularity,
      filters: Object.fromEntries(Object.entries(q.filters).filter(([, v]) => v !== undefined)),
      period: { ...q.window },
      ...(q.compare ? { compare: q.compare.kind, previous_period: { ...q.compare.window } } : {}),
      columns: outputColumns(def, q).map((c) => ({ ...c })),
      rows: this.shape(def, q, raw),
      chart_hint: chartHint(def, q),
      row_count: 0,
      generated_at: this.clock.now().toISOString(),
      cached: false,
    };
    result.row_count = result.rows.length;
    if (version !== undefined) this.cache.set(key, { result });
    return { result };
  }

  /** The cache entry of a resolved query now, if any. */
  private async cached(q: ResolvedQuery, resolvedKey: string): Promise<CacheEntry<ExecuteResult> | undefined> {
    const [version, usable] = await Promise.all([this.warehouse.version(q.tenantId), this.rollups?.usable(q.tenantId)]);
    return version === undefined ? undefined : this.cache.get(fullKey(version, usable, resolvedKey));
  }

  /** What to do about an empty warehouse: the demo is seeded; a model of the user's own names the tables to load. */
  private noDataYet(def: InsightDefinition): string {
    if (this.model.location === DEMO_MODEL_PATH) return 'The warehouse holds no data yet; run `insights demo seed` or restart the server.';
    const tables = [...new Set(def.tables.map((t) => t.table))];
    const first = tables[0] ?? 'T';
    return (
      `The warehouse holds no data yet; load the table${tables.length === 1 ? '' : 's'} insight ${def.code} reads (${tables.join(', ')}): ` +
      `insights data load --table ${first} --file F --tenant X, or POST /api/v1/data/${first} (docs/data.md).`
    );
  }

  /**
   * Why the insight's query failed when the model and the warehouse disagree (checked only after a
   * query failed): a table not loaded yet, a table without its cube's tenant column, or a column the
   * model's SQL names that the table lacks (the model check's probe, on this insight's cubes).
   */
  private async dataProblem(def: InsightDefinition): Promise<AppError | undefined> {
    for (const use of def.tables) {
      const problem = await tableProblem(this.warehouse, use);
      if (problem?.missing) {
        return new AppError(
          'DATA_NOT_LOADED',
          `Table "${use.table}" of insight ${def.code} is not in the warehouse yet; load its data first (insights data load --table ${use.table} …).`,
        );
      }
      if (problem) return new AppError('DATA_MODEL_MISMATCH', `Insight ${def.code}: ${problem.message}.`);
    }
    const cubes = new Set([...def.plan.facts.map((f) => f.cube), ...def.tables.map((t) => t.cube)]);
    const found = (await probeModel(this.model, this.warehouse, cubes))[0];
    return (
      found &&
      new AppError('DATA_MODEL_MISMATCH', `Insight ${def.code}: the model's ${found.path} does not fit the warehouse: ${found.message}`)
    );
  }

  private shape(def: InsightDefinition, q: ResolvedQuery, raw: WarehouseRow[]): Record<string, Cell>[] {
    const columns = outputColumns(def, q);
    // Money and percentages to the cent; a measure with nothing to aggregate (a zero-filled
    // period, a ratio over zero) reads 0.
    const fix = (m: { type: string }, v: unknown): number => (m.type === 'money' || m.type === 'percent' ? round2(num(v)) : num(v));
    const values = (r: WarehouseRow | undefined): Record<string, Cell> => {
      const out: Record<string, Cell> = {};
      for (const m of def.measures) out[m.name] = fix(m, r?.[m.name]);
      return out;
    };
    // compare: the previous figure (null where no period lines up) and the change in percent
    // (null when the previous figure is 0 or missing).
    const compared = (r: WarehouseRow | undefined, current: Record<string, Cell>, lined: boolean): Record<string, Cell> => {
      const out: Record<string, Cell> = {};
      if (!q.compare) return out;
      for (const m of def.measures) {
        const before = lined ? fix(m, r?.[`${m.name}__previous`]) : null;
        const now = current[m.name] as number;
        out[`${m.name}_previous`] = before;
        out[`${m.name}_change_pct`] = before === null || before === 0 ? null : round2(((now - before) / Math.abs(before)) * 100);
      }
      return out;
    };
    const ordered = (row: Record<string, Cell>) => Object.fromEntries(columns.map((c) => [c.name, row[c.name] ?? null]));

    if (def.kind === 'timeseries') {
      const series = q.series;
      const key = (period: string, value?: unknown) => (series ? `${period}\u0000${String(value)}` : period);
      const byKey = new Map(raw.map((r) => [key(String(r.period).slice(0, 10), series ? r[series] : undefined), r]));
      const lined = new Map(q.compare?.periods?.map((p) => [p.period, p.previous !== null]));
      const seriesValues = series ? filterValues(q.filters[series]!) : [undefined];
      // Every period of the window appears (per series value), with zeros where nothing happened.
      return periodStarts(q.window.from, q.window.to, q.granularity!).flatMap((p) =>
        seriesValues.map((v) => {
          const r = byKey.get(key(p, v));
          const current = values(r);
          return ordered({ period: p, ...(series ? { [series]: v! } : {}), ...current, ...compared(r, current, lined.get(p) ?? false) });
        }),
      );
    }
    if (def.kind === 'breakdown' || def.kind === 'top') {
      return raw.map((r) => {
        const row: Record<string, Cell> = {};
        for (const d of def.dimensions) row[d.name] = r[d.name] as Cell;
        const current = values(r);
        return ordered({ ...row, ...current, ...compared(r, current, true) });
      });
    }
    const m = def.measures[0];
    const value = fix(m, raw[0]?.value);
    const previous = fix(m, raw[0]?.previous_value);
    return [
      ordered({
        period_from: q.window.from,
        period_to: q.window.to,
        value,
        previous_period_from: q.previous!.from,
        previous_period_to: q.previous!.to,
        previous_value: previous,
        change: fix(m, value - previous),
        change_pct: previous === 0 ? null : round2(((value - previous) / previous) * 100),
      }),
    ];
  }

  /** Drops every cached result (after a re-seed in this process). */
  invalidate(): void {
    this.cache.clear();
  }
}
