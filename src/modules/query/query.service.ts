// The semantic query (docs/query.md): any question the model can answer, planned (once per query
// shape, per model), resolved against the day, run through the same runner, compiler, rollups and
// result cache as the insights, and presented with the members' names and formats. Also what a
// query may name (GET /api/v1/model), a dimension's values and a time dimension's span in the
// caller's data, cached per data version for every caller (chat, MCP, explore pickers).
import type { Clock } from '../../lib/clock.ts';
import { AppError, invalidField } from '../../lib/errors.ts';
import { humanize } from '../../semantic/cubes.ts';
import { plainText, synonymsIn } from '../../semantic/model.schema.ts';
import { comparison, daysBetween, defaultFrom, type Window } from '../../semantic/periods.ts';
import { accessKey, compileValues, PERIOD, previousOf, type ResolvedQuery } from '../../semantic/query/compile.ts';
import { memberSource, planQuery, type PlannedQuery } from '../../semantic/query/plan.ts';
import type { SemanticQuery } from '../../semantic/query/query.schema.ts';
import { arrange, type Row } from '../../semantic/query/rows.ts';
import { measureType } from '../../semantic/resolve.ts';
import type { Attributes, OutputColumn } from '../../semantic/types.ts';
import type { CatalogEntry } from '../insights/insights.schemas.ts';
import { type CacheEntry, ResultCache } from '../insights/insights.cache.ts';
import { MAX_PERIODS } from '../insights/insights.params.ts';
import { stateKey, type DataState, type QueryRunner } from './query.runner.ts';
import { Flights } from '../../lib/flights.ts';
import type { ModelDescription, QueryColumn, QueryResult } from './query.schemas.ts';

export type { QueryResult } from './query.schemas.ts';

/** Whose data a query reads: a tenant, or a caller whose attributes the model's access filters read. */
export type Scope = string | { readonly tenantId: string; readonly attributes?: Attributes };
const scopeOf = (s: Scope): { tenantId: string; attributes?: Attributes } => (typeof s === 'string' ? { tenantId: s } : s);

/** The most values of a dimension listed. */
export const MAX_VALUES = 1000;
/** The start of "all of the data" when a window gives only its end. */
const BEGINNING = '1900-01-01';

const round2 = (n: number) => Math.round((n + Number.EPSILON) * 100) / 100;

export class QueryService {
  private readonly plans = new Map<string, PlannedQuery>();
  /** Bodies of POST /api/v1/query as sent (runJson's `sent`) → their plan, for cachedJson. */
  private readonly sent = new Map<string, PlannedQuery>();
  private readonly results = new ResultCache<QueryResult>();
  private readonly lookups = new ResultCache<unknown>(5000);
  /** Answers, value lists and spans being read: a caller asking the same at the same data state waits for that read. */
  private readonly reading = new Flights();

  constructor(
    private readonly runner: QueryRunner,
    private readonly clock: Clock,
    private readonly catalog: () => CatalogEntry[],
  ) {}

  private get model() {
    return this.runner.model;
  }

  /** Drops every cached answer, value list and span (after a re-seed in this process; benchmarks). */
  invalidate(): void {
    this.results.clear();
    this.lookups.clear();
  }

  /** The query checked and planned against the model: once per shape of query (the model does not change while it runs). */
  plan(query: SemanticQuery, where = 'body'): PlannedQuery {
    const key = `${where}\u0000${JSON.stringify(query)}`;
    let planned = this.plans.get(key);
    if (!planned) {
      planned = planQuery(this.model.cubes, query, where);
      if (this.plans.size >= 2000) this.plans.clear();
      this.plans.set(key, planned);
    }
    return planned;
  }

  async run(scope: Scope, query: SemanticQuery, where = 'body'): Promise<QueryResult> {
    return (await this.answer(scope, this.plan(query, where), where)).result;
  }

  /**
   * The whole answer of POST /api/v1/query as JSON: a cache hit answers with bytes serialized and
   * encoded once (as execute's hits do), so a repeated question costs little more than routing.
   * `sent`: the body as the client sent it, when it was read before routing (fast-answers.ts): a
   * body answered here is planned once, and cachedJson answers it again from the cache.
   */
  async runJson(scope: Scope, query: SemanticQuery, sent?: string): Promise<string | Buffer> {
    const planned = this.plan(query, 'body');
    const { result, entry } = await this.answer(scope, planned, 'body');
    if (sent !== undefined) {
      if (this.sent.size >= 2000) this.sent.clear();
      this.sent.set(sent, planned);
    }
    return entry ? hitBytes(entry) : JSON.stringify({ data: result });
  }

  /**
   * What runJson answers to a body sent exactly like one it answered before (its text), for this
   * caller, today, when that answer is in the cache now and the data state is known without a read;
   * undefined otherwise (nothing is run). The early answers of POST /api/v1/query use it.
   */
  cachedJson(scope: Scope, sent: string): Buffer | undefined {
    const planned = this.sent.get(sent);
    if (!planned) return undefined;
    const { tenantId, attributes } = scopeOf(scope);
    const state = this.runner.knownState(tenantId);
    if (state?.version === undefined) return undefined;
    const window = windowOf(planned, this.today(), 'body');
    const entry = this.results.get(stateKey(state, answerKey(planned, tenantId, attributes, window)));
    return entry && hitBytes(entry);
  }

  private today(): string {
    return this.clock.now().toISOString().slice(0, 10);
  }

  private async answer(
    scope: Scope,
    planned: PlannedQuery,
    where: string,
  ): Promise<{ result: QueryResult; entry?: CacheEntry<QueryResult> }> {
    const { tenantId, attributes } = scopeOf(scope);
    const window = windowOf(planned, this.today(), where);
    // In memory for this data version when it is known (no read of the warehouse to learn it).
    const state = this.runner.knownState(tenantId) ?? (await this.runner.state(tenantId));
    const key = stateKey(state, answerKey(planned, tenantId, attributes, window));
    const hit = state.version === undefined ? undefined : this.results.get(key);
    if (hit) return { result: hit.result, entry: hit };
    return { result: await this.reading.join(key, () => this.read(planned, tenantId, attributes, window, state, key)) };
  }

  /** Reads a planned query's answer at a data state and stores it for the next caller. */
  private async read(
    planned: PlannedQuery,
    tenantId: string,
    attributes: Attributes | undefined,
    window: Window | undefined,
    state: DataState,
    key: string,
  ): Promise<QueryResult> {
    const grouped = Boolean(planned.time?.granularity);
    const keys = planned.dimensions;
    const measures = [...planned.measures, ...planned.having.map((h) => h.measure).filter((m) => !planned.measures.includes(m))];
    const granularity = planned.time?.granularity ?? null;
    const cmp = planned.compare && window ? comparison(planned.compare, window, granularity, grouped) : undefined;
    const oneRow = !grouped && !keys.length;
    const q: ResolvedQuery = {
      tenantId,
      attributes,
      granularity,
      ...(window ? { window } : {}),
      filters: planned.filters,
      // Grouped by time, rows.ts zero-fills, then filters, orders and cuts; by dimensions, SQL does.
      ...(grouped || oneRow
        ? {}
        : { having: planned.having, order: planned.order, limit: planned.limit, offset: planned.offset, total: true }),
      ...(cmp ? (oneRow ? { previous: cmp.window } : { compare: cmp }) : {}),
    };
    const subject = { name: 'the query', tables: planned.tables, cubes: planned.plan.facts.map((f) => f.cube) };
    const raw = await this.runner.rows(planned.plan, q, state, subject);
    const arranged = arrange(raw, {
      granularity,
      ...(window ? { window } : {}),
      keys,
      measures,
      ...(cmp && !oneRow ? { compare: cmp } : {}),
      previous: Boolean(cmp && oneRow),
      ...(grouped || oneRow ? { having: planned.having, order: planned.order, limit: planned.limit, offset: planned.offset } : {}),
    });
    let total = arranged.total;
    if (!grouped && !oneRow && !raw.length && planned.offset > 0) {
      // Past the last row: count the rows there are.
      const counted = await this.runner.rows(planned.plan, { ...q, compare: undefined, offset: 0, limit: 1 }, state, subject);
      total = counted.length ? Number(counted[0].__total ?? 0) : 0;
    }
    const columns = this.columns(planned, cmp ? planned.compare : undefined);
    const result: QueryResult = {
      columns: columns.map(({ ref: _ref, ...c }) => c as QueryColumn),
      rows: arranged.rows.map((r) => present(r, columns, planned.time?.member)),
      query: echo(planned, window),
      total_rows: total,
    };
    if (state.version !== undefined) this.results.set(key, { result });
    return result;
  }

  /** The answer's columns: time, dimensions, measures, and each measure's previous figure with compare. */
  private columns(planned: PlannedQuery, compare: PlannedQuery['compare']): OutputColumn[] {
    if (!compare) return planned.columns;
    const what = compare === 'previous_year' ? 'previous year' : 'previous period';
    const previous = planned.columns
      .filter((c) => planned.measures.includes(c.name))
      .map((c) => ({ ...c, name: `${c.name}.previous`, label: `${c.label}, ${what}` }));
    return [...planned.columns, ...previous];
  }

  /** What a query may name: every cube's measures, dimensions and segments, the joins, the insights. */
  describe(): ModelDescription {
    const titles = (t: unknown) => (t && typeof t === 'object' ? { titles: t as Record<string, string> } : {});
    const described = (d?: string) => (d ? { description: d } : {});
    return {
      cubes: [...this.model.cubes.values()].map((cube) => ({
        name: cube.name,
        title: cube.def.title ?? humanize(cube.name),
        ...described(cube.def.description),
        measures: [...cube.measures.values()].map((m) => ({
          name: `${cube.name}.${m.def.name}`,
          title: plainText(m.def.title) ?? humanize(m.def.name),
          ...titles(m.def.title),
          ...described(m.def.description),
          aggregation: m.def.type,
          format: measureType(m.def),
          ...(m.def.currency ? { currency: m.def.currency } : {}),
          ...(m.def.decimals !== undefined ? { decimals: m.def.decimals } : {}),
          synonyms: synonymsIn(m.def.synonyms),
        })),
        dimensions: [...cube.dimensions.values()].map((d) => ({
          name: `${cube.name}.${d.def.name}`,
          title: plainText(d.def.title) ?? humanize(d.def.name),
          ...titles(d.def.title),
          ...described(d.def.description),
          type: d.def.type,
          ...(d.def.format ? { format: d.def.format } : {}),
          synonyms: synonymsIn(d.def.synonyms),
          values_listable: d.def.type !== 'time',
          ...(d.def.values ? { values: [...d.def.values] } : {}),
        })),
        segments: [...cube.segments.values()].map((s) => ({
          name: `${cube.name}.${s.def.name}`,
          title: s.def.title ?? humanize(s.def.name),
          ...described(s.def.description),
        })),
        joins: [...cube.joins.keys()].map((c) => ({ cube: c, relationship: 'many_to_one' })),
      })),
      insights: this.catalog(),
    };
  }

  /** A dimension as the values and span reads need it, or a 400/404 naming it. */
  private member(ref: string, time: boolean, where: string) {
    const [c, name] = ref.split('.');
    const d = this.model.cubes.get(c)?.dimensions.get(name);
    if (!d) throw new AppError('NOT_FOUND', `${ref} is not a dimension of the model (GET /api/v1/model lists them)`);
    if ((d.def.type === 'time') !== time)
      throw invalidField(where, time ? `${ref} is not a time dimension` : `${ref} is a time dimension: its values are not listed`);
    return memberSource(this.model.cubes, ref)!;
  }

  /** A read per data version and caller's access, shared by every caller with the same. */
  private async lookup<T>(scope: Scope, what: unknown[], read: (tenantId: string, attributes?: Attributes) => Promise<T>): Promise<T> {
    const { tenantId, attributes } = scopeOf(scope);
    const version = await this.runner.dataVersion(tenantId);
    const key = JSON.stringify([tenantId, version ?? null, attributes ?? null, ...what]);
    const hit = version === undefined ? undefined : this.lookups.get(key);
    if (hit) return hit.result as T;
    return this.reading.join(key, async () => {
      const value = await read(tenantId, attributes);
      if (version !== undefined) this.lookups.set(key, { result: value });
      return value;
    });
  }

  /** The values of a dimension in the caller's data, in order, at most MAX_VALUES; with `search`, those containing it. */
  async dimensionValues(scope: Scope, ref: string, search?: string, where = '/params/member'): Promise<string[]> {
    const member = this.member(ref, false, where);
    const text = search?.trim() || undefined;
    return this.lookup(scope, ['values', ref, text ?? null], async (tenantId, attributes) => {
      const { sql, params } = compileValues(member, this.runner.dialect, tenantId, MAX_VALUES, attributes, text);
      const [c] = ref.split('.');
      const cube = this.model.cubes.get(c)!;
      const rows = await this.runner.read(
        tenantId,
        sql,
        params,
        { version: await this.runner.dataVersion(tenantId) },
        {
          name: `dimension ${ref}`,
          tables: cube.def.sql_table ? [{ table: cube.def.sql_table, cube: c, tenantColumn: cube.def.tenant_column }] : [],
          cubes: [c],
        },
      );
      return rows.map((r) => r.value).filter((v): v is string => typeof v === 'string' && v.trim().length > 0);
    });
  }

  /** The first and last day of a time dimension in the caller's data, or undefined where it has none (or its table is not loaded). */
  async dataSpan(scope: Scope, ref: string): Promise<{ from: string; to: string } | undefined> {
    const member = this.member(ref, true, '/params/member');
    return this.lookup(scope, ['span', ref], (tenantId, attributes) => this.runner.span(member, tenantId, attributes));
  }
}

/**
 * The window of a planned query on `today`: with a granularity, the insight engine's default for
 * it (its usual number of periods, ending today) where dates are missing; without one, the dates
 * given (one alone: to today, or from the beginning), else all of the data.
 */
export function windowOf(planned: PlannedQuery, today: string, where = 'body'): Window | undefined {
  const t = planned.time;
  if (!t) return undefined;
  const g = t.granularity;
  if (!g && !t.date_from && !t.date_to) return undefined;
  const to = t.date_to ?? (t.date_from && t.date_from > today ? t.date_from : today);
  const from = t.date_from ?? (g ? defaultFrom('timeseries', g, to) : BEGINNING);
  if (from > to) throw invalidField(`/${where}/time/date_from`, 'must not be after date_to');
  if (from < BEGINNING || to > '2999-12-31') throw invalidField(`/${where}/time/date_from`, 'is out of range');
  if (g && daysBetween(from, to) + 1 > MAX_PERIODS)
    throw invalidField(`/${where}/time/date_from`, `a window grouped by time may span at most ${MAX_PERIODS} days`);
  return { from, to };
}

/** The planned queries' JSON, made once each (part of every answer's cache key). */
const queryJson = new WeakMap<PlannedQuery, string>();

/** The cache key of a planned query's answer for a caller (tenant, access attributes) over a window, before the data state. */
function answerKey(planned: PlannedQuery, tenantId: string, attributes: Attributes | undefined, window: Window | undefined): string {
  let json = queryJson.get(planned);
  if (json === undefined) queryJson.set(planned, (json = JSON.stringify(planned.query)));
  return `${JSON.stringify([tenantId, accessKey(planned.plan, attributes), window ?? null])}\u0000${json}`;
}

/** A cache hit's answer as JSON in UTF-8, serialized and encoded on the first hit. */
function hitBytes(entry: CacheEntry<QueryResult>): Buffer {
  entry.hitBytes ??= Buffer.from(JSON.stringify({ data: entry.result }));
  return entry.hitBytes;
}

/** The query as it ran: the window and granularity filled in (order, limit and offset already are). */
function echo(planned: PlannedQuery, window: Window | undefined): SemanticQuery {
  const q = planned.query;
  if (!q.time || !window) return q;
  return {
    ...q,
    time: {
      dimension: q.time.dimension,
      ...(q.time.granularity ? { granularity: q.time.granularity } : {}),
      ...(window.from !== BEGINNING ? { date_from: window.from } : {}),
      date_to: window.to,
    },
  };
}

/** An arranged row keyed and rounded as the answer's columns say. */
function present(r: Row, columns: OutputColumn[], time: string | undefined): Row {
  const out: Row = {};
  for (const c of columns) {
    const source = c.name === time ? PERIOD : c.name.endsWith('.previous') ? previousOf(c.name.slice(0, -'.previous'.length)) : c.name;
    const v = r[source] ?? null;
    out[c.name] = typeof v === 'number' && (c.type === 'money' || c.type === 'percent') ? round2(v) : v;
  }
  return out;
}
