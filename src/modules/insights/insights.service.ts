// The insight engine: the catalog of the semantic model, parameter resolution, and each insight
// run as the query it names (src/semantic/query/insight-query.ts) through the one query runner,
// its rows presented as execute returns them (periods, rounded money, KPI comparison), cached.
import type { Clock } from '../../lib/clock.ts';
import { notFound } from '../../lib/errors.ts';
import { PERIOD, accessKey, compileValues, previousOf } from '../../semantic/query/compile.ts';
import { cohortQuery, insightQuery, type InsightParams } from '../../semantic/query/insight-query.ts';
import { cohortRows } from '../../semantic/query/compile-cohort.ts';
import { memberSource } from '../../semantic/query/plan.ts';
import { arrange, type Row } from '../../semantic/query/rows.ts';
import { demoModel, type SemanticModel } from '../../semantic/model.ts';
import type { Attributes, InsightDefinition } from '../../semantic/types.ts';
import type { Warehouse } from '../../warehouse/warehouse.ts';
import { QueryRunner, stateKey, type DataState, type RollupSource } from '../query/query.runner.ts';
import { outputColumns } from './insights.columns.ts';
import { ResultCache, type CacheEntry } from './insights.cache.ts';
import { Flights } from '../../lib/flights.ts';
import { parametersOf, resolveParams, type ExecuteParams } from './insights.params.ts';
import type { CatalogEntry, ExecuteResult } from './insights.schemas.ts';

export type { RollupSource } from '../query/query.runner.ts';
export type { ExecuteParams } from './insights.params.ts';
export type { CatalogEntry, ExecuteResult } from './insights.schemas.ts';
export type { InsightDefinition } from '../../semantic/types.ts';

import type { Cell, ChartHint } from '../../lib/chart.schemas.ts';
export type { Cell };

/**
 * Whose data a query reads: a tenant, or a caller (an AuthContext fits) whose attributes the model's
 * access filters read. A bare tenant id carries no attributes, so a cube with access filters refuses it.
 */
export type Scope = string | { readonly tenantId: string; readonly attributes?: Attributes };

const scopeOf = (s: Scope): { tenantId: string; attributes?: Attributes } => (typeof s === 'string' ? { tenantId: s } : s);

/** The cache key of a resolved query, without the warehouse version. */
function cacheKey(def: InsightDefinition, q: InsightParams): string {
  const filters = def.filters.map((f) => q.filters[f] ?? null);
  return JSON.stringify([
    // Callers with different values of the attributes the insight's access filters read see different rows.
    accessKey(def.plan, q.attributes),
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

const DAY_MS = 86_400_000;

/**
 * A request as sent (asSent of executeJson) that was answered: its resolution on `day`, for
 * cachedJson. `at` keeps the result cache's key at the last data state it was looked up at, so a
 * repeated hit builds (and hashes) no new key.
 */
interface Sent {
  def: InsightDefinition;
  q: InsightParams;
  key: string;
  day: string;
  at?: { version: string; usable: string; key: string };
}

/**
 * The answered requests of one text as sent, by whose data they read: the tenant, or the tenant and
 * all of the caller's attributes (stricter than accessKey).
 */
interface SentBy {
  tenant: Map<string, Sent>;
  attributed: Map<string, Sent>;
}

function sentOf(by: SentBy | undefined, scope: Scope): Sent | undefined {
  if (!by) return undefined;
  const { tenantId, attributes } = scopeOf(scope);
  return attributes ? by.attributed.get(JSON.stringify([tenantId, attributes])) : by.tenant.get(tenantId);
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
function chartHint(def: InsightDefinition, q: InsightParams): ChartHint {
  const hint: ChartHint = { ...def.chart, title: def.chart.title ?? def.name };
  if (q.series) hint.series = q.series;
  if (q.compare && def.kind !== 'kpi' && hint.y_axis)
    hint.y_axis = hint.y_axis.flatMap((y) => (def.measures.some((m) => m.name === y) ? [y, `${y}_previous`] : [y]));
  return hint;
}

function withAttributes(q: InsightParams, scope: Scope): InsightParams {
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
  /** Uncached answers being read: a caller asking the same at the same data state waits for that read. */
  private readonly reading = new Flights();
  private readonly resolved = new Map<string, { q: InsightParams; key: string }>();
  /** Requests as sent (asSent of executeJson) → by whose data they read → their resolution, for cachedJson. */
  private readonly sent = new Map<string, SentBy>();
  private sentCount = 0;
  /** today() for the UTC day [from, to) in ms: the same string all day long. */
  private day = { from: 0, to: 0, text: '' };

  /** The one path to the warehouse, shared with semantic queries (app.ts gives it to the query service). */
  readonly runner: QueryRunner;

  constructor(
    warehouse: Warehouse,
    private readonly clock: Clock,
    readonly model: SemanticModel = demoModel(),
    rollups?: RollupSource,
  ) {
    this.runner = new QueryRunner(warehouse, model, rollups);
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

  /** The dimension ("cube.dimension") a filter parameter of the catalog stands for: the first insight's that takes it. */
  filterMember(name: string): string | undefined {
    for (const d of this.byCode.values()) if (d.filterRefs[name]) return d.filterRefs[name];
    return undefined;
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
    return this.runner.dataVersion(tenantId);
  }

  /**
   * The first and last day of the insight's time dimension in the tenant's data as the caller sees
   * it, or undefined where it has none (or its table is not loaded yet): chat's fallback window for
   * questions that name no period.
   */
  async dataSpan(scope: Scope, code: string): Promise<{ from: string; to: string } | undefined> {
    const { tenantId, attributes } = scopeOf(scope);
    const member = memberSource(this.model.cubes, this.get(code).plan.facts[0].refs.time);
    // As the caller: without the attributes an access filter needs, there is no span to tell.
    return member ? this.runner.span(member, tenantId, attributes) : undefined;
  }

  /**
   * The values of a filter in all of the tenant's data, read through an insight that takes it; at
   * most `max`, or undefined where there are more (too many to be words of a question) or the
   * table is not loaded yet.
   */
  async filterValuesOf(scope: Scope, code: string, filter: string, max: number): Promise<string[] | undefined> {
    const { tenantId, attributes } = scopeOf(scope);
    const ref = this.get(code).filterRefs[filter];
    const member = ref ? memberSource(this.model.cubes, ref) : undefined;
    if (!member) return undefined;
    let compiled: ReturnType<typeof compileValues>;
    try {
      // As the caller: the values of rows an access filter hides are not offered.
      compiled = compileValues(member, this.runner.dialect, tenantId, max + 1, attributes);
    } catch {
      return undefined;
    }
    const rows = await this.runner.tryRead(tenantId, compiled.sql, compiled.params);
    if (!rows) return undefined;
    const values = rows.map((r) => r.value).filter((v): v is string => typeof v === 'string' && v.trim().length > 0);
    return values.length > max ? undefined : values;
  }

  /** Whether an insight's measures include a rolling one (docs/model.md "Time intelligence"). */
  isRolling(code: string): boolean {
    return this.get(code).plan.facts.some((f) => f.measures.some((m) => m.rolling));
  }

  today(): string {
    const now = this.clock.now().getTime();
    if (now < this.day.from || now >= this.day.to) {
      const from = now - (((now % DAY_MS) + DAY_MS) % DAY_MS);
      this.day = { from, to: from + DAY_MS, text: new Date(from).toISOString().slice(0, 10) };
    }
    return this.day.text;
  }

  /** Resolves parameters without running anything (chat and subscriptions validate with it). */
  resolve(scope: Scope, code: string, params: ExecuteParams, where = 'query'): InsightParams {
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
      accessKey(def.plan, attributes),
    ]);
    let known = this.resolved.get(raw);
    if (!known) {
      const q = withAttributes(resolveParams(def, tenantId, params, today), scope);
      known = { q, key: cacheKey(def, q) };
      if (this.resolved.size >= 5000) this.resolved.clear();
      this.resolved.set(raw, known);
    }
    const { result, entry } = await this.lookup(def, known.q, known.key);
    if (asSent !== undefined) this.remember(scope, asSent, { def, ...known, day: today });
    if (!entry) return JSON.stringify({ success: true, data: result });
    return hitBytes(entry);
  }

  /**
   * The answer executeJson gives to a request (as its UTF-8 bytes) sent exactly like one it answered before (asSent,
   * e.g. the URL) by a caller of the same tenant and attributes, today, when that answer is in the
   * cache now; undefined otherwise (nothing is run). The execute route's early answers use it.
   */
  cachedJson(scope: Scope, asSent: string): Buffer | undefined | Promise<Buffer | undefined> {
    const known = sentOf(this.sent.get(asSent), scope);
    if (!known || known.day !== this.today()) return undefined;
    // In the request's own tick when the data version and the usable rollups are in memory (the
    // same values cached() would read), else after reading them.
    const state = this.runner.knownState(known.q.tenantId);
    if (state) {
      if (state.version === undefined) return undefined;
      const usable = state.usable?.key ?? '';
      let at = known.at;
      if (!at || at.version !== state.version || at.usable !== usable) {
        at = { version: state.version, usable, key: stateKey(state, known.key) };
        known.at = at;
      }
      const entry = this.cache.get(at.key);
      return entry && hitBytes(entry);
    }
    return this.cached(known.q, known.key).then((entry) => entry && hitBytes(entry));
  }

  /** Remembers what a request as sent resolved to, by whose data it reads (at most 5,000, then all are forgotten). */
  private remember(scope: Scope, asSent: string, known: Sent): void {
    if (this.sentCount >= 5000) {
      this.sent.clear();
      this.sentCount = 0;
    }
    let by = this.sent.get(asSent);
    if (!by) {
      by = { tenant: new Map(), attributed: new Map() };
      this.sent.set(asSent, by);
    }
    const { tenantId, attributes } = scopeOf(scope);
    const [map, key] = attributes ? [by.attributed, JSON.stringify([tenantId, attributes])] : [by.tenant, tenantId];
    if (!map.has(key)) this.sentCount++;
    map.set(key, known);
  }

  /** Runs a resolved query, through the cache. */
  async run(def: InsightDefinition, q: InsightParams): Promise<ExecuteResult> {
    const { result, entry } = await this.lookup(def, q);
    return entry ? { ...entry.result, cached: true } : result;
  }

  /** A cache hit (entry), or a fresh result stored for the next caller. */
  private async lookup(
    def: InsightDefinition,
    q: InsightParams,
    resolvedKey = cacheKey(def, q),
  ): Promise<{ result: ExecuteResult; entry?: CacheEntry<ExecuteResult> }> {
    const state = await this.runner.state(q.tenantId);
    const key = stateKey(state, resolvedKey);
    if (state.version !== undefined) {
      const hit = this.cache.get(key);
      if (hit) return { result: hit.result, entry: hit };
    }
    return { result: await this.reading.join(key, () => this.read(def, q, state, key)) };
  }

  /** Reads a resolved query's answer at a data state and stores it for the next caller. */
  private async read(def: InsightDefinition, q: InsightParams, state: DataState, key: string): Promise<ExecuteResult> {
    const subject = { name: `insight ${def.code}`, tables: def.tables, cubes: def.plan.facts.map((f) => f.cube) };
    let rows: Record<string, Cell>[];
    if (def.kind === 'cohort') {
      const { sql, params } = cohortQuery(def, this.runner.dialect, q);
      rows = cohortRows(await this.runner.read(q.tenantId, sql, params, state, subject), def.cohort!.granularity, q.window);
    } else {
      const { plan, q: query, arrangement } = insightQuery(def, q);
      rows = this.shape(def, q, arrange(await this.runner.rows(plan, query, state, subject), arrangement).rows);
    }
    const result: ExecuteResult = {
      insight_code: def.code,
      insight_name: def.name,
      granularity: q.granularity,
      filters: Object.fromEntries(Object.entries(q.filters).filter(([, v]) => v !== undefined)),
      period: { ...q.window },
      ...(q.compare ? { compare: q.compare.kind, previous_period: { ...q.compare.window } } : {}),
      columns: outputColumns(def, q).map((c) => ({ ...c })),
      rows,
      chart_hint: chartHint(def, q),
      row_count: 0,
      generated_at: this.clock.now().toISOString(),
      cached: false,
    };
    result.row_count = result.rows.length;
    if (state.version !== undefined) this.cache.set(key, { result });
    return result;
  }

  /** The cache entry of a resolved query now, if any. */
  private async cached(q: InsightParams, resolvedKey: string): Promise<CacheEntry<ExecuteResult> | undefined> {
    const state = await this.runner.state(q.tenantId);
    return state.version === undefined ? undefined : this.cache.get(stateKey(state, resolvedKey));
  }

  /** Arranged rows (rows.ts) named and laid out as execute returns them, figures rounded. */
  private shape(def: InsightDefinition, q: InsightParams, rows: Row[]): Record<string, Cell>[] {
    const columns = outputColumns(def, q);
    // Money and percentages to the cent.
    const fix = (m: { type: string }, v: Cell): number => (m.type === 'money' || m.type === 'percent' ? round2(num(v)) : num(v));
    const ordered = (row: Record<string, Cell>) => Object.fromEntries(columns.map((c) => [c.name, row[c.name] ?? null]));
    const figures = (r: Row): Record<string, Cell> => {
      const out: Record<string, Cell> = {};
      for (const m of def.measures) out[m.name] = fix(m, r[m.ref!]);
      if (!q.compare) return out;
      // compare: the previous figure (null where no period lines up) and the change in percent
      // (null when the previous figure is 0 or missing).
      for (const m of def.measures) {
        const p = r[previousOf(m.ref!)];
        const before = p === null ? null : fix(m, p);
        const now = out[m.name] as number;
        out[`${m.name}_previous`] = before;
        out[`${m.name}_change_pct`] = before === null || before === 0 ? null : round2(((now - before) / Math.abs(before)) * 100);
      }
      return out;
    };
    if (def.kind === 'timeseries') {
      const series = q.series;
      return rows.map((r) => ordered({ period: r[PERIOD], ...(series ? { [series]: r[def.filterRefs[series]] } : {}), ...figures(r) }));
    }
    if (def.kind === 'breakdown' || def.kind === 'top') {
      return rows.map((r) => {
        const row: Record<string, Cell> = {};
        for (const d of def.dimensions) row[d.name] = r[d.ref!];
        return ordered({ ...row, ...figures(r) });
      });
    }
    const m = def.measures[0];
    const value = fix(m, rows[0]?.[m.ref!] ?? null);
    const previous = fix(m, rows[0]?.[previousOf(m.ref!)] ?? null);
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
