// Compiles a resolved insight and a resolved query to {sql, params} for one dialect. Caller values
// (tenant, filters, dates, limit) are always bound parameters; every cube the query reads is
// restricted to the caller's tenant: the fact in WHERE, joined cubes in their ON, the reads of a
// derived cube inside its SQL and the derived rows again outside it.
//
// Measures aggregate on their own cube's rows: each cube whose measures an insight uses is one
// "fact" query (joined only along many_to_one joins, which never multiply its rows); several facts
// are aggregated separately and combined on the period or the grouping dimensions.
import type { Dialect, ParamType } from './dialects/dialect.ts';
import { addDays, type Comparison, type Window } from './periods.ts';
import { type JoinSplit, REAGGREGATE, splitJoins } from './compile-split.ts';
import { combinedMeasure, rollupFor, rowCountFor, sharedFilters } from './rollups.ts';
import { AppError } from '../lib/errors.ts';
import type {
  AccessFilter,
  Attributes,
  ColumnType,
  CubeSource,
  FactPlan,
  Granularity,
  InsightDefinition,
  LeafMeasure,
  OutputColumn,
  RollupDefinition,
} from './types.ts';

export interface ResolvedQuery {
  tenantId: string;
  granularity: Granularity | null;
  /** Filter name (a dimension of the insight's filters) → the caller's value, or values (any of them). */
  filters: Record<string, string | string[]>;
  /**
   * Time series: the filter given several values, whose dimension becomes a column (a row per
   * period per value) and the chart's series.
   */
  series?: string;
  /** compare=previous_period|previous_year: the window (and, for a time series, the periods) compared with. */
  compare?: Comparison;
  window: Window;
  /** KPIs: the window compared with. */
  previous?: Window;
  /** top and breakdowns with a limit: rows to return. */
  limit?: number;
  /** Rollups built and current for this tenant: a fact is read from one when that is exact (rollups.ts). */
  rollups?: readonly RollupDefinition[];
  /**
   * The caller's attributes, for the model's access filters. Absent means none: a query reading a
   * cube with access filters is then refused, never answered with every row.
   */
  attributes?: Attributes;
}

/** A filter's value or values, as a list. */
export const filterValues = (v: string | string[]): string[] => (typeof v === 'string' ? [v] : v);

export interface CompiledQuery {
  sql: string;
  params: unknown[];
}

export type { OutputColumn } from './types.ts';

class Binder {
  readonly params: unknown[] = [];
  // PostgreSQL infers one type per parameter, so a value is shared only between uses of one type.
  private readonly seen = new Map<string, string>();
  constructor(private readonly dialect: Dialect) {}
  bind(value: unknown, type: ParamType = 'text'): string {
    const key = `${type}\u0000${typeof value}\u0000${String(value)}`;
    const known = this.seen.get(key);
    if (known) return known;
    this.params.push(value);
    const p = this.dialect.placeholder(this.params.length, type);
    this.seen.set(key, p);
    return p;
  }
}

/** An operator's condition, parenthesized when AND-ing it to others could change its meaning. */
const cond = (sql: string) => (/\bOR\b/i.test(sql) ? `(${sql})` : sql);

interface Ctx {
  d: Dialect;
  q: ResolvedQuery;
  b: Binder;
  def: InsightDefinition;
}

/** Every access filter the insight's query applies: of its facts, their joined cubes and the cubes derived ones read. */
export function accessFiltersOf(def: InsightDefinition): AccessFilter[] {
  const out: AccessFilter[] = [];
  const add = (s: CubeSource) => {
    for (const a of s.access ?? []) if (!out.includes(a)) out.push(a);
    for (const p of s.derived ?? []) if (typeof p !== 'string') for (const a of p.access ?? []) if (!out.includes(a)) out.push(a);
  };
  for (const f of def.plan.facts) {
    add(f.source);
    f.joins.forEach((j) => add(j.source));
  }
  return out;
}

/** The attributes of `attributes` an insight's access filters read: what its results depend on. */
export function accessKey(def: InsightDefinition, attributes: Attributes | undefined): string {
  const names = [...new Set(accessFiltersOf(def).map((a) => a.attribute))].sort();
  return names.length ? JSON.stringify(names.map((n) => [n, attributes?.[n] ? [...attributes[n]].sort() : null])) : '';
}

export function accessMissing(a: Pick<AccessFilter, 'attribute' | 'ref'>): AppError {
  return new AppError(
    'ACCESS_ATTRIBUTE_MISSING',
    `Your credentials carry no "${a.attribute}" attribute, which the model's access filter on ${a.ref} requires; without it you may see none of these rows.`,
  );
}

/** The bound predicates of access filters over `column` (the dimension's SQL, or a rollup's column). */
function accessConditions(
  filters: readonly AccessFilter[] | undefined,
  c: Ctx,
  column: (a: AccessFilter) => string = (a) => a.sql,
): string[] {
  return (filters ?? []).map((a) => {
    const values = c.q.attributes?.[a.attribute];
    if (!values?.length) throw accessMissing(a);
    return values.length === 1 ? `${column(a)} = ${c.b.bind(values[0])}` : `${column(a)} IN (${values.map((v) => c.b.bind(v)).join(', ')})`;
  });
}

/** The access filters of a fact's cube and its joined cubes: the rows the caller may see (throws without the attributes). */
function callerSees(f: FactPlan, c: Ctx): string[] {
  return [...accessConditions(f.source.access, c), ...f.joins.flatMap((j) => accessConditions(j.source.access, c))];
}

function sourceSql(s: CubeSource, c: Ctx): string {
  if (s.table) return s.table === s.alias ? s.table : `${s.table} AS ${s.alias}`;
  const read = (p: Exclude<NonNullable<CubeSource['derived']>[number], string>) =>
    p.access
      ? `(SELECT * FROM ${p.table} AS ${p.alias} WHERE ${[`${p.alias}.${p.tenantColumn} = ${c.b.bind(c.q.tenantId)}`, ...accessConditions(p.access, c)].join(' AND ')})`
      : `(SELECT * FROM ${p.table} WHERE ${p.tenantColumn} = ${c.b.bind(c.q.tenantId)})`;
  const inner = s.derived!.map((p) => (typeof p === 'string' ? p : read(p))).join('');
  return `(${inner.trim()}) AS ${s.alias}`;
}

function fromClause(f: FactPlan, c: Ctx): string {
  let sql = sourceSql(f.source, c);
  for (const j of f.joins)
    sql += ` LEFT JOIN ${sourceSql(j.source, c)} ON ${cond(j.on)} AND ${j.source.tenant} = ${c.b.bind(c.q.tenantId)}`;
  return sql;
}

/** Half-open on the next midnight: the whole last day, for DATE and TIMESTAMP columns alike. */
function range(column: string, w: Window, c: Ctx, type: 'timestamp' | 'date' = 'timestamp'): string[] {
  return [
    `${column} >= ${c.d.typedParam(c.b.bind(w.from, type), type)}`,
    `${column} < ${c.d.typedParam(c.b.bind(addDays(w.to, 1), type), type)}`,
  ];
}

/**
 * Where one fact's rows come from: its cube's rows (joined as needed), or a rollup's pre-aggregated
 * rows when one answers exactly. Everything else of the query is the same either way.
 */
interface FactRows {
  /** Read from the cube's own rows (not a rollup): the joins are the plan's. */
  raw: boolean;
  from: string;
  where: string[];
  /** The time column: a raw timestamp, or the rollup's day bucket. */
  time: string;
  timeType: 'timestamp' | 'date';
  column(sql: string, ref: string): string;
  aggregate(m: LeafMeasure, conditions: string[]): string;
}

function factRows(f: FactPlan, c: Ctx): FactRows {
  const { d, q, b, def } = c;
  const windows = q.previous ? [q.window, q.previous] : [q.window];
  const rollup = q.rollups?.length
    ? rollupFor(f, def.kind, { granularity: q.granularity, filters: q.filters, windows }, q.rollups)
    : undefined;
  const shared = sharedFilters(f);
  if (!rollup) {
    return {
      raw: true,
      from: fromClause(f, c),
      where: [
        `${f.source.tenant} = ${b.bind(q.tenantId)}`,
        // A joined cube's rows that the caller may not see drop the fact rows joined to them too.
        ...callerSees(f, c),
        ...f.segments.map(cond),
        ...shared.map(cond),
      ],
      time: f.time,
      timeType: 'timestamp',
      column: (sql) => sql,
      aggregate: (m, conditions) =>
        aggregate(
          m,
          conditions.filter((x) => !shared.includes(x)),
        ),
    };
  }
  const r = d.quote('r');
  const col = (name: string) => `${r}.${d.quote(name)}`;
  const byRef = new Map(rollup.dimensions.map((x) => [x.ref, x.column]));
  const refOf = new Map<string, string>([
    ...Object.entries(f.filters).map(([name, sql]) => [sql, f.refs.filters[name]] as const),
    ...f.keys.map((k, i) => [k.sql, f.refs.keys[i]] as const),
  ]);
  const rows = rowCountFor(rollup, shared)!;
  return {
    raw: false,
    from: `${rollup.table} AS ${r}`,
    // A group exists in the raw answer only if a row passed the shared filters: the same groups here.
    // rollupFor chose a rollup holding every access filter's dimension: the same rows pass here.
    where: [
      `${col('__tenant')} = ${b.bind(q.tenantId)}`,
      ...[f.source, ...f.joins.map((j) => j.source)].flatMap((s) => accessConditions(s.access, c, (a) => col(byRef.get(a.ref)!))),
      `${col(rows)} > 0`,
    ],
    time: col('__bucket'),
    timeType: 'date',
    column: (sql) => col(byRef.get(refOf.get(sql)!)!),
    // Per-window conditions (KPI) are on the bucket, and a bucket is inside or outside a window whole.
    aggregate: (m, conditions) => {
      const own = conditions.filter((x) => !m.filters.includes(x));
      return combinedMeasure(rollup, m.name, d, r, own.length ? ` FILTER (WHERE ${own.map(cond).join(' AND ')})` : '');
    },
  };
}

function aggregate(m: LeafMeasure, conditions: string[]): string {
  const base =
    m.agg === 'count'
      ? m.sql
        ? `count(${m.sql})`
        : 'count(*)'
      : m.agg === 'count_distinct'
        ? `count(DISTINCT ${m.sql})`
        : `${m.agg}(${m.sql})`;
  return conditions.length ? `${base} FILTER (WHERE ${conditions.map(cond).join(' AND ')})` : base;
}

/**
 * One fact's aggregate query. Filters every measure shares go to WHERE (the engine then skips
 * those rows, and no group appears that only they would have made); the rest stay per measure.
 */
function factSelect(f: FactPlan, c: Ctx, forOuter: boolean, allMeasures?: string[]): string {
  const { d, q, b, def } = c;
  const rows = factRows(f, c);
  const where = [...rows.where];
  const guarded = [f.source, ...f.joins.map((j) => j.source)].flatMap((s) => s.access ?? []);
  for (const name of def.filters) {
    const value = q.filters[name];
    if (value === undefined || !f.filters[name]) continue;
    const column = rows.column(f.filters[name], name);
    const values = filterValues(value);
    // Asking for rows the caller's attributes exclude is refused, not answered with empty rows:
    // the answer would say nothing, and a caller should learn that the filter is fixed for them.
    for (const a of guarded) {
      if (a.ref !== f.refs.filters[name]) continue;
      const allowed = q.attributes?.[a.attribute] ?? [];
      const outside = values.find((v) => !allowed.includes(v));
      if (outside !== undefined)
        throw new AppError(
          'FORBIDDEN',
          `${name}=${outside} is outside the rows your credentials may see (their ${a.attribute} attribute).`,
          { errors: [{ path: `/query/${name}`, message: `not one of the values your ${a.attribute} attribute allows` }] },
        );
    }
    where.push(values.length === 1 ? `${column} = ${b.bind(values[0])}` : `${column} IN (${values.map((v) => b.bind(v)).join(', ')})`);
  }
  const cols: string[] = [];
  let groupBy = '';
  if (def.kind === 'kpi') {
    const prev = q.previous!;
    const current = range(rows.time, q.window, c, rows.timeType);
    const previous = range(rows.time, prev, c, rows.timeType);
    const value = forOuter ? (m: LeafMeasure) => d.quote(m.name) : () => d.quote('value');
    const before = forOuter ? (m: LeafMeasure) => d.quote(`${m.name}__previous`) : () => d.quote('previous_value');
    for (const m of f.measures) {
      cols.push(
        `${rows.aggregate(m, [...m.filters, ...current])} AS ${value(m)}`,
        `${rows.aggregate(m, [...m.filters, ...previous])} AS ${before(m)}`,
      );
    }
    const span: Window = { from: prev.from < q.window.from ? prev.from : q.window.from, to: q.window.to > prev.to ? q.window.to : prev.to };
    where.push(...range(rows.time, span, c, rows.timeType));
  } else {
    where.push(...range(rows.time, q.window, c, rows.timeType));
    if (def.kind === 'timeseries') {
      cols.push(`${d.bucket(q.granularity!, rows.time)} AS ${d.quote('period')}`);
      if (q.series) cols.push(`${rows.column(f.filters[q.series], q.series)} AS ${d.quote(q.series)}`);
    } else {
      // Grouped by a joined dimension's columns: aggregate the fact by the join's key first where exact.
      const split = rows.raw ? splitJoins(f, where) : undefined;
      if (split) return aggregatedThenJoined(f, c, rows, where, split, allMeasures);
      cols.push(...f.keys.map((k) => `${rows.column(k.sql, k.name)} AS ${d.quote(k.name)}`));
    }
    // Combined with other facts by UNION ALL: every fact has every measure column, in one order.
    for (const name of allMeasures ?? f.measures.map((m) => m.name)) {
      const m = f.measures.find((x) => x.name === name);
      cols.push(`${m ? rows.aggregate(m, m.filters) : 'NULL'} AS ${d.quote(name)}`);
    }
    const keyCount = def.kind === 'timeseries' ? (q.series ? 2 : 1) : f.keys.length;
    groupBy = ` GROUP BY ${Array.from({ length: keyCount }, (_, i) => i + 1).join(', ')}`;
  }
  return `SELECT ${cols.join(', ')} FROM ${rows.from} WHERE ${where.join(' AND ')}${groupBy}`;
}

/**
 * A breakdown or top list by a joined dimension's columns, aggregated first by the join's key on
 * the fact's side (with the tenant, the filters and the window applied), then joined to the
 * dimension and grouped again (compile-split.ts): the same rows as joining every fact row first.
 */
function aggregatedThenJoined(f: FactPlan, c: Ctx, rows: FactRows, where: string[], split: JoinSplit, allMeasures?: string[]): string {
  const { d, b, q } = c;
  const a = d.quote('__fact');
  const inner = new Map<string, string>();
  const innerColumn = (sql: string) => {
    if (!inner.has(sql)) inner.set(sql, d.quote(`__k${inner.size + 1}`));
    return `${a}.${inner.get(sql)}`;
  };
  const on = split.outer.map(({ join, keys }) => {
    const eq = keys.map(([fact, dim]) => `${innerColumn(fact)} = ${dim}`).join(' AND ');
    return ` LEFT JOIN ${sourceSql(join.source, c)} ON ${eq} AND ${join.source.tenant} = ${b.bind(q.tenantId)}`;
  });
  const keys = f.keys.map((k) => `${split.outside(k.sql) ? k.sql : innerColumn(k.sql)} AS ${d.quote(k.name)}`);
  const measures = f.measures.map((m) => `${rows.aggregate(m, m.filters)} AS ${d.quote(m.name)}`);
  const innerSql =
    `SELECT ${[...[...inner].map(([sql, col]) => `${sql} AS ${col}`), ...measures].join(', ')} ` +
    `FROM ${fromClause({ ...f, joins: split.inner }, c)} WHERE ${where.filter((x) => !split.outside(x)).join(' AND ')} ` +
    `GROUP BY ${Array.from({ length: inner.size }, (_, i) => i + 1).join(', ')}`;
  const again = (name: string) => {
    const m = f.measures.find((x) => x.name === name);
    return `${m ? `${REAGGREGATE[m.agg]}(${a}.${d.quote(name)})` : 'NULL'} AS ${d.quote(name)}`;
  };
  const outerWhere = where.filter(split.outside);
  return (
    `SELECT ${[...keys, ...(allMeasures ?? f.measures.map((m) => m.name)).map(again)].join(', ')} FROM (${innerSql}) AS ${a}${on.join('')}` +
    (outerWhere.length ? ` WHERE ${outerWhere.join(' AND ')}` : '') +
    ` GROUP BY ${f.keys.map((_, i) => i + 1).join(', ')}`
  );
}

function orderAndLimit(c: Ctx, keyed: boolean, limited = true): string {
  const { d, q, def } = c;
  if (def.kind === 'timeseries') return q.series ? ' ORDER BY 1, 2' : ' ORDER BY 1';
  if (!keyed) return '';
  // Ties break on the first dimension, so both engines return the same rows in the same order.
  const limit = limited ? (q.limit ?? def.limit?.default) : undefined;
  return ` ORDER BY ${d.quote(def.plan.headline)} DESC NULLS LAST, 1 ASC` + (limit ? ` LIMIT ${c.b.bind(limit, 'int')}` : '');
}

/** A number measure's expression over columns of the combined row, its parts as doubles. */
function numberSql(name: string, c: Ctx, column: (measure: string) => string): string {
  const n = c.def.plan.numbers.find((x) => x.name === name);
  if (!n) return c.d.toDouble(column(name));
  return n.tokens
    .map((t) => (typeof t === 'string' ? t : `(${numberSql(t.measure, c, column)})`))
    .join('')
    .trim();
}

export function compile(def: InsightDefinition, dialect: Dialect, q: ResolvedQuery): CompiledQuery {
  const c: Ctx = { d: dialect, q, b: new Binder(dialect), def };
  // A KPI always has its previous window (q.previous); compare only chooses which.
  if (!q.compare || def.kind === 'kpi') return { sql: query(c), params: c.b.params };
  return { sql: compared(c, q.compare), params: c.b.params };
}

/** A context for reads over all of a tenant's data as the caller sees it (no window, no filter). */
function wholeDataCtx(def: InsightDefinition, dialect: Dialect, tenantId: string, attributes: Attributes | undefined): Ctx {
  return {
    d: dialect,
    q: { tenantId, attributes, granularity: null, filters: {}, window: { from: '1900-01-01', to: '1900-01-01' } },
    b: new Binder(dialect),
    def,
  };
}

/**
 * The first and last day of an insight's data for a tenant (its facts' time, its segments, no
 * window and no filter), as YYYY-MM-DD text in columns `first` and `last`: chat answers a question
 * that names no period over the data's own span when the default window before today is empty.
 */
export function compileSpan(def: InsightDefinition, dialect: Dialect, tenantId: string, attributes?: Attributes): CompiledQuery {
  const c = wholeDataCtx(def, dialect, tenantId, attributes);
  const day = (sql: string) => `CAST(CAST(${sql} AS ${dialect.types.date}) AS ${dialect.types.text})`;
  const parts = def.plan.facts.map((f) => {
    const where = [`${f.source.tenant} = ${c.b.bind(tenantId)}`, ...callerSees(f, c), ...f.segments.map(cond)].join(' AND ');
    return `SELECT MIN(${f.time}) AS ${dialect.quote('lo')}, MAX(${f.time}) AS ${dialect.quote('hi')} FROM ${fromClause(f, c)} WHERE ${where}`;
  });
  const lo = dialect.quote('lo');
  const hi = dialect.quote('hi');
  return {
    sql: `SELECT ${day(`MIN(${lo})`)} AS ${dialect.quote('first')}, ${day(`MAX(${hi})`)} AS ${dialect.quote('last')} FROM (${parts.join(' UNION ALL ')}) AS ${dialect.quote('spans')}`,
    params: c.b.params,
  };
}

/**
 * The distinct values of one of an insight's filters in a tenant's data, all of its data (no
 * window), at most `max` of them: chat learns the words of the tenant's values from them.
 */
export function compileDistinct(
  def: InsightDefinition,
  dialect: Dialect,
  tenantId: string,
  filter: string,
  max: number,
  attributes?: Attributes,
): CompiledQuery | undefined {
  const f = def.plan.facts.find((x) => x.filters[filter]);
  if (!f) return undefined;
  const c = wholeDataCtx(def, dialect, tenantId, attributes);
  const value = `CAST(${f.filters[filter]} AS ${dialect.types.text})`;
  const where = [`${f.source.tenant} = ${c.b.bind(tenantId)}`, ...callerSees(f, c), `${f.filters[filter]} IS NOT NULL`].join(' AND ');
  const v = dialect.quote('value');
  return {
    sql: `SELECT DISTINCT ${value} AS ${v} FROM ${fromClause(f, c)} WHERE ${where} ORDER BY 1 LIMIT ${Math.trunc(max)}`,
    params: c.b.params,
  };
}

/**
 * compare: the insight's query over its window and again over the window compared with, joined
 * on the keys. A time series joins each period to its counterpart through a list of (period,
 * previous) pairs, so every period appears once whatever the data, and alignment (ISO week n with
 * week n, no counterpart for 29 February) is decided by periods.ts, not by date arithmetic in SQL.
 * A breakdown or top list keeps its own rows (and limit) and takes the previous figures of the
 * same keys. Each fact picks a rollup for its own window.
 */
function compared(c: Ctx, cmp: Comparison): string {
  const { d, q, b, def } = c;
  const qt = (x: string) => d.quote(x);
  const prev: Ctx = { ...c, q: { ...q, window: cmp.window, compare: undefined, limit: undefined } };
  const previous = def.measures.map((m) => `${qt('p')}.${qt(m.name)} AS ${qt(`${m.name}__previous`)}`);
  // Every column is named: ClickHouse would name an unaliased "c"."x" c.x, the others x.
  const current = def.measures.map((m) => `${qt('c')}.${qt(m.name)} AS ${qt(m.name)}`);
  if (def.kind === 'timeseries') {
    const date = (v: string | null) => (v === null ? `CAST(NULL AS ${d.types.date})` : d.typedParam(b.bind(v, 'date'), 'date'));
    const seriesValues = q.series ? filterValues(q.filters[q.series]!) : [undefined];
    const pairs = cmp.periods!.flatMap((p) =>
      seriesValues.map((v) => `(${date(p.period)}, ${date(p.previous)}${v === undefined ? '' : `, ${b.bind(v)}`})`),
    );
    const keyCols = [qt('period'), qt('previous'), ...(q.series ? [qt(q.series)] : [])];
    const on = (alias: string, period: string) =>
      `${qt(alias)}.${qt('period')} = ${qt('k')}.${qt(period)}` +
      (q.series ? ` AND ${qt(alias)}.${qt(q.series)} = ${qt('k')}.${qt(q.series)}` : '');
    const keys = [`${qt('k')}.${qt('period')} AS ${qt('period')}`, ...(q.series ? [`${qt('k')}.${qt(q.series)} AS ${qt(q.series)}`] : [])];
    return (
      `SELECT ${[...keys, ...current, ...previous].join(', ')} FROM (VALUES ${pairs.join(', ')}) AS ${qt('k')}(${keyCols.join(', ')}) ` +
      `LEFT JOIN (${query(c, false)}) AS ${qt('c')} ON ${on('c', 'period')} LEFT JOIN (${query(prev, false)}) AS ${qt('p')} ON ${on('p', 'previous')}` +
      orderAndLimit(c, false)
    );
  }
  const keys = def.plan.facts[0].keys.map((k) => k.name);
  const on = keys.map((k) => `${qt('c')}.${qt(k)} IS NOT DISTINCT FROM ${qt('p')}.${qt(k)}`).join(' AND ');
  return (
    `SELECT ${[...keys.map((k) => `${qt('c')}.${qt(k)} AS ${qt(k)}`), ...current, ...previous].join(', ')} FROM (${query(c)}) AS ${qt('c')} ` +
    `LEFT JOIN (${query(prev, false)}) AS ${qt('p')} ON ${on}` +
    orderAndLimit(c, true, false)
  );
}

/** The insight's query; `ordered` false leaves out ORDER BY and LIMIT (an inner query of compare). */
function query(c: Ctx, ordered = true): string {
  const { d: dialect, q, def } = c;
  const { facts, numbers } = def.plan;
  const keyed = def.kind === 'breakdown' || def.kind === 'top';
  const tail = () => (ordered ? orderAndLimit(c, keyed) : '');
  // The lean case, and the one that matters most for speed: one fact, no number measure.
  if (facts.length === 1 && !numbers.length) {
    return factSelect(facts[0], c, false) + tail();
  }
  const alias = (i: number) => dialect.quote(`f${i + 1}`);
  const owner = new Map<string, number>();
  facts.forEach((f, i) => f.measures.forEach((m) => owner.set(m.name, i)));
  const measures = [...owner.keys()];
  const q_ = (x: string) => dialect.quote(x);
  const numberCols = (column: (m: string) => string) => numbers.map((n) => `${numberSql(n.name, c, column)} AS ${q_(n.name)}`);

  if (def.kind === 'kpi') {
    // One row per fact: side by side.
    const from = facts.map((f, i) => `(${factSelect(f, c, true)}) AS ${alias(i)}`).join(' CROSS JOIN ');
    const col = (suffix: string) => (m: string) => `${alias(owner.get(m)!)}.${q_(m + suffix)}`;
    return `SELECT ${numberSql(def.plan.headline, c, col(''))} AS ${q_('value')}, ${numberSql(def.plan.headline, c, col('__previous'))} AS ${q_('previous_value')} FROM ${from}`;
  }
  const keyNames = def.kind === 'timeseries' ? ['period', ...(q.series ? [q.series] : [])] : facts[0].keys.map((k) => k.name);
  const keyCols = keyNames.map((k) => q_(k));
  if (facts.length === 1) {
    const col = (m: string) => `${alias(0)}.${q_(m)}`;
    const cols = [...[...keyNames, ...measures].map((k) => `${col(k)} AS ${q_(k)}`), ...numberCols(col)];
    return `SELECT ${cols.join(', ')} FROM (${factSelect(facts[0], c, true)}) AS ${alias(0)}` + tail();
  }
  // Several facts: each aggregated on its own rows, stacked with UNION ALL and grouped again on
  // the keys (each key has at most one row per fact; GROUP BY also matches NULL keys, which a join
  // on the keys would not). Hash-joinable on every engine, unlike a FULL JOIN on nullable keys.
  const stacked = facts.map((f) => factSelect(f, c, true, measures)).join(' UNION ALL ');
  const combined = (m: string) => `max(${q_('u')}.${q_(m)})`;
  const cols = [
    ...keyCols.map((k) => `${q_('u')}.${k} AS ${k}`),
    ...measures.map((m) => `${combined(m)} AS ${q_(m)}`),
    ...numberCols(combined),
  ];
  const groupBy = keyNames.map((_, i) => i + 1).join(', ');
  return `SELECT ${cols.join(', ')} FROM (${stacked}) AS ${q_('u')} GROUP BY ${groupBy}` + tail();
}

/** The columns of an insight's rows, in order, as the service returns them (for a query's shape: series, compare). */
export function outputColumns(def: InsightDefinition, q?: Pick<ResolvedQuery, 'series' | 'compare'>): OutputColumn[] {
  if (def.kind === 'timeseries' || def.kind === 'breakdown' || def.kind === 'top') {
    const keys: OutputColumn[] =
      def.kind === 'timeseries'
        ? [
            { name: 'period', type: 'date', label: 'Period' },
            ...(q?.series ? [{ name: q.series, type: 'string' as ColumnType, label: def.filterRules[q.series].label }] : []),
          ]
        : def.dimensions;
    const compared: OutputColumn[] = [];
    if (q?.compare) {
      const what = q.compare.kind === 'previous_year' ? 'previous year' : 'previous period';
      for (const m of def.measures) {
        compared.push(
          { ...m, name: `${m.name}_previous`, label: `${m.label}, ${what}` },
          { name: `${m.name}_change_pct`, type: 'percent', label: `${m.label}, change (%)` },
        );
      }
    }
    return [...keys, ...def.measures, ...compared];
  }
  const m = def.measures[0];
  const type: ColumnType = m.type;
  // The value, the previous value and the change are in the measure's unit.
  const unit = { ...(m.currency ? { currency: m.currency } : {}), ...(m.decimals !== undefined ? { decimals: m.decimals } : {}) };
  return [
    { name: 'period_from', type: 'date', label: 'From' },
    { name: 'period_to', type: 'date', label: 'To' },
    { name: 'value', type, label: m.label, ...unit },
    { name: 'previous_period_from', type: 'date', label: 'Previous from' },
    { name: 'previous_period_to', type: 'date', label: 'Previous to' },
    { name: 'previous_value', type, label: `${m.label}, previous window`, ...unit },
    { name: 'change', type, label: 'Change', ...unit },
    { name: 'change_pct', type: 'percent', label: 'Change (%)' },
  ];
}
