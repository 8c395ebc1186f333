// Compiles a planned query (plan.ts for POST /api/v1/query, resolve.ts for an insight: both end
// here) to {sql, params} for one dialect. Caller values (tenant, filters, dates, limits) are always
// bound parameters; every cube the query reads is restricted to the caller's tenant: the fact in
// WHERE, joined cubes in their ON, the reads of a derived cube inside its SQL and the derived rows
// again outside it.
//
// Measures aggregate on their own cube's rows: each cube whose measures a query uses is one "fact"
// query (joined only along many_to_one joins, which never multiply its rows); several facts are
// aggregated separately and combined on the period and the grouping dimensions.
//
// Three shapes of answer (shape.ts reads them back):
// - grouped by time: every group of the window, unordered (periods are zero-filled, ordered,
//   filtered on measures and cut after, since a missing period is a row too); with compare, the
//   groups of the window compared with follow, marked by __side = 1;
// - grouped by dimensions only: conditions on measures, order, offset and limit in SQL, the count
//   of rows before the limit in __total when asked;
// - one row: every measure, and with `previous` every measure over that window too, in one scan.
import type { Dialect, ParamType } from '../dialects/dialect.ts';
import { addDays, type Comparison, type Window } from '../periods.ts';
import { type JoinSplit, REAGGREGATE, splitJoins } from '../compile-split.ts';
import { combinedMeasure, rollupFor, rowCountFor, sharedFilters } from '../rollups.ts';
import { AppError } from '../../lib/errors.ts';
import type { FilterOperator } from './query.schema.ts';
import { rollingSelect, splitRolling } from './compile-rolling.ts';
import { cohortSelect } from './compile-cohort.ts';
import type { AccessFilter, Attributes, CubeSource, FactPlan, Granularity, LeafMeasure, QueryPlan, RollupDefinition } from '../types.ts';

/** A condition on a dimension's rows (WHERE). */
export interface DimensionFilter {
  /** The dimension as asked ("cube.dimension"): a key of every fact's `filters`. */
  member: string;
  operator: FilterOperator;
  /** Checked and normalized already (plan.ts): numbers for numbers, YYYY-MM-DD for time, text otherwise. */
  values: (string | number | boolean)[];
  type: 'string' | 'number' | 'boolean' | 'time';
  /** Where the values were given, for a refusal (default: the execute parameter, /query/<dimension>). */
  path?: string;
}

/** A condition on a measure's aggregated value (after grouping). */
export interface MeasureFilter {
  measure: string;
  operator: FilterOperator;
  values: number[];
}

export interface OrderTerm {
  /** A column of the answer: a measure or dimension as asked, or PERIOD. */
  column: string;
  desc: boolean;
}

/** The column of the period (its first day) in every answer grouped by time. */
export const PERIOD = '__period';
/** The count of rows before offset and limit. */
export const TOTAL = '__total';
/** Grouped by time with compare: 0 for the window's groups, 1 for those of the window compared with. */
export const SIDE = '__side';
/** A measure's figure over `previous` (one-row answers), or of the same keys over the compared window. */
export const previousOf = (measure: string) => `${measure}__previous`;

export interface ResolvedQuery {
  tenantId: string;
  /** Time grouping: each fact's time bucketed by it. */
  granularity: Granularity | null;
  /** The window of the time dimension; absent: all of the data. */
  window?: Window;
  filters: DimensionFilter[];
  /** Conditions on measures: applied in SQL when the answer is grouped by dimensions only (shape.ts otherwise). */
  having?: MeasureFilter[];
  /** One-row answers: every measure also over this window, side by side (a KPI's previous window). */
  previous?: Window;
  /** Grouped answers: the window compared with (and, by time, the periods paired). */
  compare?: Comparison;
  /** Grouped by dimensions only: the order (ties break on every key, ascending). */
  order?: OrderTerm[];
  limit?: number;
  offset?: number;
  /** Count the rows before offset and limit (TOTAL). */
  total?: boolean;
  /** Rollups built and current for this tenant: a fact is read from one when that is exact (rollups.ts). */
  rollups?: readonly RollupDefinition[];
  /**
   * The caller's attributes, for the model's access filters. Absent means none: a query reading a
   * cube with access filters is then refused, never answered with every row.
   */
  attributes?: Attributes;
}

export interface CompiledQuery {
  sql: string;
  params: unknown[];
}

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
  plan: QueryPlan;
}

/** Every access filter a plan applies: of its facts, their joined cubes and the cubes derived ones read. */
export function accessFiltersOf(plan: Pick<QueryPlan, 'facts'>): AccessFilter[] {
  const out: AccessFilter[] = [];
  const add = (s: CubeSource) => {
    for (const a of s.access ?? []) if (!out.includes(a)) out.push(a);
    for (const p of s.derived ?? []) if (typeof p !== 'string') for (const a of p.access ?? []) if (!out.includes(a)) out.push(a);
  };
  for (const f of plan.facts) {
    add(f.source);
    f.joins.forEach((j) => add(j.source));
  }
  return out;
}

/** The attributes of `attributes` a plan's access filters read: what its results depend on. */
export function accessKey(plan: Pick<QueryPlan, 'facts'>, attributes: Attributes | undefined): string {
  const names = [...new Set(accessFiltersOf(plan).map((a) => a.attribute))].sort();
  return names.length ? JSON.stringify(names.map((n) => [n, attributes?.[n] ? [...attributes[n]].sort() : null])) : '';
}

export function accessMissing(a: Pick<AccessFilter, 'attribute' | 'ref'>): AppError {
  return new AppError(
    'ACCESS_ATTRIBUTE_MISSING',
    `Your credentials carry no "${a.attribute}" attribute, which the model's access filter on ${a.ref} requires; ` +
      `without it you may see none of these rows.`,
  );
}

/** The bound predicates of access filters over `column` (the dimension's SQL, or a rollup's column). */
function accessConditions(
  filters: readonly AccessFilter[] | undefined,
  c: Pick<Ctx, 'q' | 'b'>,
  column: (a: AccessFilter) => string = (a) => a.sql,
): string[] {
  return (filters ?? []).map((a) => {
    const values = c.q.attributes?.[a.attribute];
    if (!values?.length) throw accessMissing(a);
    return values.length === 1 ? `${column(a)} = ${c.b.bind(values[0])}` : `${column(a)} IN (${values.map((v) => c.b.bind(v)).join(', ')})`;
  });
}

/** The access filters of a fact's cube and its joined cubes: the rows the caller may see (throws without the attributes). */
function callerSees(f: Pick<FactPlan, 'source' | 'joins'>, c: Pick<Ctx, 'q' | 'b'>): string[] {
  return [...accessConditions(f.source.access, c), ...f.joins.flatMap((j) => accessConditions(j.source.access, c))];
}

function sourceSql(s: CubeSource, c: Pick<Ctx, 'q' | 'b'>): string {
  if (s.table) return s.table === s.alias ? s.table : `${s.table} AS ${s.alias}`;
  const read = (p: Exclude<NonNullable<CubeSource['derived']>[number], string>) =>
    p.access
      ? `(SELECT * FROM ${p.table} AS ${p.alias} WHERE ` +
        `${[`${p.alias}.${p.tenantColumn} = ${c.b.bind(c.q.tenantId)}`, ...accessConditions(p.access, c)].join(' AND ')})`
      : `(SELECT * FROM ${p.table} WHERE ${p.tenantColumn} = ${c.b.bind(c.q.tenantId)})`;
  const inner = s.derived!.map((p) => (typeof p === 'string' ? p : read(p))).join('');
  return `(${inner.trim()}) AS ${s.alias}`;
}

function fromClause(f: Pick<FactPlan, 'source' | 'joins'>, c: Pick<Ctx, 'q' | 'b'>): string {
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

/** A bound value; a number as a double, so PostgreSQL never infers an integer for 2.5. */
function value(v: unknown, c: Ctx, type: ParamType): string {
  const p = c.b.bind(v, type);
  return type === 'number' ? c.d.toDouble(p) : p;
}

/** A list of bound values compared with `column`: `= v` for one, `IN (…)` for several. */
function anyOf(column: string, values: readonly unknown[], c: Ctx, type: ParamType): string {
  return values.length === 1
    ? `${column} = ${value(values[0], c, type)}`
    : `${column} IN (${values.map((v) => value(v, c, type)).join(', ')})`;
}

const COMPARISON: Partial<Record<FilterOperator, string>> = { gt: '>', gte: '>=', lt: '<', lte: '<=' };

/**
 * A condition on a dimension's column. Text operators compare case-insensitively; the negative
 * ones (not_equals, not_contains) keep rows without a value, which are none of the values. A time
 * dimension compares whole days: `lte 2026-03-31` is every instant of that day.
 */
function dimensionCondition(f: DimensionFilter, column: string, c: Ctx): string {
  const { d } = c;
  const orNull = (sql: string) => `(${sql} OR ${column} IS NULL)`;
  if (f.operator === 'set') return `${column} IS NOT NULL`;
  if (f.operator === 'not_set') return `${column} IS NULL`;
  if (f.type === 'time') {
    const day = (v: unknown, shift = 0) => d.typedParam(c.b.bind(addDays(String(v), shift), 'timestamp'), 'timestamp');
    const days = (v: unknown) => `${column} >= ${day(v)} AND ${column} < ${day(v, 1)}`;
    switch (f.operator) {
      case 'gt':
        return `${column} >= ${day(f.values[0], 1)}`;
      case 'gte':
        return `${column} >= ${day(f.values[0])}`;
      case 'lt':
        return `${column} < ${day(f.values[0])}`;
      case 'lte':
        return `${column} < ${day(f.values[0], 1)}`;
      case 'between':
        return `${column} >= ${day(f.values[0])} AND ${column} < ${day(f.values[1], 1)}`;
      case 'equals':
        return f.values.length === 1 ? days(f.values[0]) : `(${f.values.map((v) => `(${days(v)})`).join(' OR ')})`;
      default:
        return orNull(`NOT (${f.values.map((v) => `(${days(v)})`).join(' OR ')})`);
    }
  }
  const type: ParamType = f.type === 'number' ? 'number' : f.type === 'boolean' ? 'boolean' : 'text';
  if (COMPARISON[f.operator]) return `${column} ${COMPARISON[f.operator]} ${value(f.values[0], c, type)}`;
  switch (f.operator) {
    case 'between':
      return `${column} >= ${value(f.values[0], c, type)} AND ${column} <= ${value(f.values[1], c, type)}`;
    case 'equals':
      return anyOf(column, f.values, c, type);
    case 'not_equals':
      return orNull(`NOT (${anyOf(column, f.values, c, type)})`);
    default: {
      const text = f.type === 'string' ? column : `CAST(${column} AS ${d.types.text})`;
      const test = (v: unknown) => (f.operator === 'starts_with' ? d.startsWith : d.contains)(text, c.b.bind(String(v)));
      const any = f.values.length === 1 ? test(f.values[0]) : `(${f.values.map(test).join(' OR ')})`;
      return f.operator === 'not_contains' ? orNull(`NOT ${any}`) : any;
    }
  }
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
  time?: string;
  timeType: 'timestamp' | 'date';
  column(sql: string): string;
  aggregate(m: LeafMeasure, conditions: string[]): string;
}

function factRows(f: FactPlan, c: Ctx): FactRows {
  const { d, q, b } = c;
  const windows = [q.window, q.previous].filter((w): w is Window => Boolean(w));
  const rollup = q.rollups?.length
    ? rollupFor(f, { granularity: q.granularity, filtered: q.filters.map((x) => x.member), windows }, q.rollups)
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
      ...(f.time ? { time: f.time } : {}),
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
    // Per-window conditions (one-row answers) are on the bucket, and a bucket is inside or outside a window whole.
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

/** The dimension filters on a fact's rows; equality outside the caller's attributes is refused, not answered empty. */
function filterConditions(f: FactPlan, c: Ctx, rows: FactRows): string[] {
  const guarded = [f.source, ...f.joins.map((j) => j.source)].flatMap((s) => s.access ?? []);
  const out: string[] = [];
  for (const filter of c.q.filters) {
    const sql = f.filters[filter.member];
    if (!sql) continue;
    // Asking for rows the caller's attributes exclude is refused: the answer would say nothing, and
    // a caller should learn that the filter is fixed for them.
    if (filter.operator === 'equals') {
      for (const a of guarded) {
        if (a.ref !== f.refs.filters[filter.member]) continue;
        const allowed = c.q.attributes?.[a.attribute] ?? [];
        const outside = filter.values.find((v) => !allowed.includes(String(v)));
        const name = filter.member.split('.')[1];
        if (outside !== undefined)
          throw new AppError(
            'FORBIDDEN',
            `${name}=${outside} is outside the rows your credentials may see (their ${a.attribute} attribute).`,
            {
              errors: [{ path: filter.path ?? `/query/${name}`, message: `not one of the values your ${a.attribute} attribute allows` }],
            },
          );
      }
    }
    out.push(dimensionCondition(filter, rows.column(sql), c));
  }
  return out;
}

/**
 * One fact's aggregate query. Filters every measure shares go to WHERE (the engine then skips
 * those rows, and no group appears that only they would have made); the rest stay per measure.
 * `allMeasures`: the columns of every fact, when facts are stacked (NULL for another fact's).
 */
function factSelect(f: FactPlan, c: Ctx, allMeasures?: string[]): string {
  const { d, q } = c;
  if (f.measures.some((m) => m.rolling)) return rollingFact(f, c, allMeasures);
  const rows = factRows(f, c);
  const where = [...rows.where, ...filterConditions(f, c, rows)];
  const cols: string[] = [];
  if (q.previous) {
    // One row: each measure over the window and over the previous one, in one scan of both.
    const current = q.window ? range(rows.time!, q.window, c, rows.timeType) : [];
    const previous = range(rows.time!, q.previous, c, rows.timeType);
    for (const name of allMeasures ?? f.measures.map((m) => m.ref)) {
      const m = f.measures.find((x) => x.ref === name);
      cols.push(
        `${m ? rows.aggregate(m, [...m.filters, ...current]) : d.nullFigure} AS ${d.quote(name)}`,
        `${m ? rows.aggregate(m, [...m.filters, ...previous]) : d.nullFigure} AS ${d.quote(previousOf(name))}`,
      );
    }
    if (q.window) {
      const w = q.window;
      const p = q.previous;
      where.push(...range(rows.time!, { from: p.from < w.from ? p.from : w.from, to: w.to > p.to ? w.to : p.to }, c, rows.timeType));
    }
    return `SELECT ${cols.join(', ')} FROM ${rows.from} WHERE ${where.join(' AND ')}`;
  }
  if (q.window) where.push(...range(rows.time!, q.window, c, rows.timeType));
  if (q.granularity) cols.push(`${d.bucket(q.granularity, rows.time!)} AS ${d.quote(PERIOD)}`);
  else if (f.keys.length) {
    // Grouped by a joined dimension's columns: aggregate the fact by the join's key first where exact.
    const split = rows.raw ? splitJoins(f, where) : undefined;
    if (split) return aggregatedThenJoined(f, c, rows, where, split, allMeasures);
  }
  cols.push(...f.keys.map((k) => `${rows.column(k.sql)} AS ${d.quote(k.name)}`));
  // Combined with other facts by UNION ALL: every fact has every measure column, in one order.
  for (const name of allMeasures ?? f.measures.map((m) => m.ref)) {
    const m = f.measures.find((x) => x.ref === name);
    cols.push(`${m ? rows.aggregate(m, m.filters) : d.nullFigure} AS ${d.quote(name)}`);
  }
  const keyCount = (q.granularity ? 1 : 0) + f.keys.length;
  const groupBy = keyCount ? ` GROUP BY ${Array.from({ length: keyCount }, (_, i) => i + 1).join(', ')}` : '';
  return `SELECT ${cols.join(', ')} FROM ${rows.from} WHERE ${where.join(' AND ')}${groupBy}`;
}

/** A fact's own rows (tenant, access, segments, filters) for a query over periods that reaches beyond its window. */
function windowedRows(f: FactPlan, c: Ctx, rows: FactRows, granularity: Granularity, window: Window) {
  return {
    d: c.d,
    bindDate: (x: string) => c.b.bind(x, 'date'),
    granularity,
    window,
    from: rows.from,
    where: [...rows.where, ...filterConditions(f, c, rows)],
    time: rows.time!,
  };
}

/** A fact of rolling measures (compile-rolling.ts): from the cube's own rows, every window reaching back. */
function rollingFact(f: FactPlan, c: Ctx, allMeasures?: string[]): string {
  const { q } = c;
  if (!q.granularity || !q.window || q.previous) throw new Error('a rolling measure needs periods: a time grouping and a window');
  const raw = { ...c, q: { ...q, rollups: undefined } };
  const rows = factRows(f, raw);
  return rollingSelect(
    f,
    {
      ...windowedRows(f, raw, rows, q.granularity, q.window),
      keys: f.keys,
      aggregate: (m) => rows.aggregate(m, m.filters),
      ...(allMeasures ? { allMeasures } : {}),
    },
    PERIOD,
  );
}

/**
 * Grouped by a joined dimension's columns, aggregated first by the join's key on the fact's side
 * (with the tenant, the filters and the window applied), then joined to the dimension and grouped
 * again (compile-split.ts): the same rows as joining every fact row first.
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
  const measures = f.measures.map((m) => `${rows.aggregate(m, m.filters)} AS ${d.quote(m.ref)}`);
  const innerSql =
    `SELECT ${[...[...inner].map(([sql, col]) => `${sql} AS ${col}`), ...measures].join(', ')} ` +
    `FROM ${fromClause({ ...f, joins: split.inner }, c)} WHERE ${where.filter((x) => !split.outside(x)).join(' AND ')} ` +
    `GROUP BY ${Array.from({ length: inner.size }, (_, i) => i + 1).join(', ')}`;
  const again = (name: string) => {
    const m = f.measures.find((x) => x.ref === name);
    return `${m ? `${REAGGREGATE[m.agg]}(${a}.${d.quote(name)})` : d.nullFigure} AS ${d.quote(name)}`;
  };
  const outerWhere = where.filter(split.outside);
  return (
    `SELECT ${[...keys, ...(allMeasures ?? f.measures.map((m) => m.ref)).map(again)].join(', ')} FROM (${innerSql}) AS ${a}${on.join('')}` +
    (outerWhere.length ? ` WHERE ${outerWhere.join(' AND ')}` : '') +
    ` GROUP BY ${f.keys.map((_, i) => i + 1).join(', ')}`
  );
}

/** The names of the key columns of a grouped answer, in order. */
function keyNames(c: Ctx): string[] {
  return [...(c.q.granularity ? [PERIOD] : []), ...c.plan.facts[0].keys.map((k) => k.name)];
}

/** Every measure column the facts compute (leaves), then the number measures. */
export function measureColumns(plan: QueryPlan): string[] {
  return [...plan.facts.flatMap((f) => f.measures.map((m) => m.ref)), ...plan.numbers.map((n) => n.name)];
}

/** A number measure's expression over columns of the combined row, its parts as doubles. */
function numberSql(name: string, c: Ctx, column: (measure: string) => string): string {
  const n = c.plan.numbers.find((x) => x.name === name);
  if (!n) return c.d.toDouble(column(name));
  return n.tokens
    .map((t) => (typeof t === 'string' ? t : `(${numberSql(t.measure, c, column)})`))
    .join('')
    .trim();
}

/** The query's rows before order and limit: the facts aggregated and combined. */
function combined(c: Ctx): string {
  const { d: dialect, q, plan } = c;
  const { facts, numbers } = plan;
  // The lean case, and the one that matters most for speed: one fact, no number measure.
  if (facts.length === 1 && !numbers.length) return factSelect(facts[0], c);
  const alias = (i: number) => dialect.quote(`f${i + 1}`);
  const owner = new Map<string, number>();
  facts.forEach((f, i) => f.measures.forEach((m) => owner.set(m.ref, i)));
  const measures = [...owner.keys()];
  const qt = (x: string) => dialect.quote(x);
  const numberCols = (column: (m: string) => string) => numbers.map((n) => `${numberSql(n.name, c, column)} AS ${qt(n.name)}`);

  if (q.previous) {
    // One row per fact: side by side.
    const from = facts.map((f, i) => `(${factSelect(f, c)}) AS ${alias(i)}`).join(' CROSS JOIN ');
    const col = (m: string) => `${alias(owner.get(m)!)}.${qt(m)}`;
    const before = (m: string) => `${alias(owner.get(m)!)}.${qt(previousOf(m))}`;
    const cols = [
      ...measures.flatMap((m) => [`${col(m)} AS ${qt(m)}`, `${before(m)} AS ${qt(previousOf(m))}`]),
      ...numbers.flatMap((n) => [
        `${numberSql(n.name, c, col)} AS ${qt(n.name)}`,
        `${numberSql(n.name, c, before)} AS ${qt(previousOf(n.name))}`,
      ]),
    ];
    return `SELECT ${cols.join(', ')} FROM ${from}`;
  }
  const keys = keyNames(c);
  if (facts.length === 1) {
    const col = (m: string) => `${alias(0)}.${qt(m)}`;
    const cols = [...[...keys, ...measures].map((k) => `${col(k)} AS ${qt(k)}`), ...numberCols(col)];
    return `SELECT ${cols.join(', ')} FROM (${factSelect(facts[0], c)}) AS ${alias(0)}`;
  }
  // Several facts: each aggregated on its own rows, stacked with UNION ALL and grouped again on
  // the keys (each key has at most one row per fact; GROUP BY also matches NULL keys, which a join
  // on the keys would not). Hash-joinable on every engine, unlike a FULL JOIN on nullable keys.
  // Without keys, one row per fact, aggregated to one.
  const stacked = facts.map((f) => factSelect(f, c, measures)).join(' UNION ALL ');
  const max = (m: string) => `max(${qt('u')}.${qt(m)})`;
  const cols = [...keys.map((k) => `${qt('u')}.${qt(k)} AS ${qt(k)}`), ...measures.map((m) => `${max(m)} AS ${qt(m)}`), ...numberCols(max)];
  const groupBy = keys.length ? ` GROUP BY ${keys.map((_, i) => i + 1).join(', ')}` : '';
  return `SELECT ${cols.join(', ')} FROM (${stacked}) AS ${qt('u')}${groupBy}`;
}

const MEASURE_TEST: Partial<Record<FilterOperator, string>> = { gt: '>', gte: '>=', lt: '<', lte: '<=' };

/** A condition on a measure column of the combined rows (a measure with nothing to aggregate reads 0, as answers show it). */
function measureCondition(f: MeasureFilter, column: string, c: Ctx): string {
  const v = (i: number) => value(f.values[i], c, 'number');
  const x = `COALESCE(${c.d.toDouble(column)}, 0)`;
  if (f.operator === 'set') return `${column} IS NOT NULL`;
  if (f.operator === 'not_set') return `${column} IS NULL`;
  if (MEASURE_TEST[f.operator]) return `${x} ${MEASURE_TEST[f.operator]} ${v(0)}`;
  if (f.operator === 'between') return `${x} >= ${v(0)} AND ${x} <= ${v(1)}`;
  const eq = f.values.length === 1 ? `${x} = ${v(0)}` : `${x} IN (${f.values.map((_, i) => v(i)).join(', ')})`;
  return f.operator === 'equals' ? eq : `NOT (${eq})`;
}

/** ORDER BY the terms, then every key ascending, so every engine returns the same rows in the same order. */
function orderBy(c: Ctx, qualify = (x: string) => c.d.quote(x)): string {
  const terms = [...(c.q.order ?? [])];
  for (const k of keyNames(c)) if (!terms.some((t) => t.column === k)) terms.push({ column: k, desc: false });
  return terms.length ? ` ORDER BY ${terms.map((t) => `${qualify(t.column)} ${t.desc ? 'DESC NULLS LAST' : 'ASC'}`).join(', ')}` : '';
}

function limitOffset(c: Ctx): string {
  return (c.q.limit ? ` LIMIT ${c.b.bind(c.q.limit, 'int')}` : '') + (c.q.offset ? ` OFFSET ${c.b.bind(c.q.offset, 'int')}` : '');
}

/**
 * Grouped by dimensions only: conditions on measures, the order, offset and limit; the rows
 * compared with joined on the keys, for the rows kept only (their own order and limit).
 */
function keyed(c: Ctx): string {
  const { d, q } = c;
  const qt = (x: string) => d.quote(x);
  const having = q.having ?? [];
  let sql = combined(c);
  if (having.length || q.total) {
    const where = having.map((h) => measureCondition(h, qt(h.measure), c));
    sql =
      `SELECT *${q.total ? `, count(*) OVER () AS ${qt(TOTAL)}` : ''} FROM (${sql}) AS ${qt('q')}` +
      (where.length ? ` WHERE ${where.join(' AND ')}` : '');
  }
  sql += orderBy(c) + limitOffset(c);
  if (!q.compare) return sql;
  const prev: Ctx = {
    ...c,
    q: { ...q, window: q.compare.window, compare: undefined, having: [], order: [], limit: undefined, offset: undefined, total: false },
  };
  const keys = c.plan.facts[0].keys.map((k) => k.name);
  const measures = measureColumns(c.plan);
  const on = keys.map((k) => `${qt('c')}.${qt(k)} IS NOT DISTINCT FROM ${qt('p')}.${qt(k)}`).join(' AND ');
  // Every column is named: ClickHouse would name an unaliased "c"."x" c.x, the others x.
  const cols = [
    ...[...keys, ...measures, ...(q.total ? [TOTAL] : [])].map((k) => `${qt('c')}.${qt(k)} AS ${qt(k)}`),
    ...measures.map((m) => `${qt('p')}.${qt(m)} AS ${qt(previousOf(m))}`),
  ];
  return (
    `SELECT ${cols.join(', ')} FROM (${sql}) AS ${qt('c')} LEFT JOIN (${combined(prev)}) AS ${qt('p')} ON ` +
    `${on}${orderBy(c, (x) => `${qt('c')}.${qt(x)}`)}`
  );
}

/**
 * A member's column in the SQL: "cube:member". ClickHouse reads a quoted "cube.member" after
 * ORDER BY as the cube's column, not as the alias: the raw rows, not the aggregate.
 */
export const columnName = (name: string) => name.replace(/\./g, ':');

export function compileQuery(whole: QueryPlan, dialect: Dialect, q: ResolvedQuery): CompiledQuery {
  // A fact's rolling measures are aggregated apart from its others, one window each (compile-rolling.ts).
  const plan = splitRolling(whole);
  // Every identifier the compiler quotes itself is a member, a marker or a rollup column: only members have dots.
  const d: Dialect = { ...dialect, quote: (id) => dialect.quote(columnName(id)) };
  const c: Ctx = { d, q, b: new Binder(dialect), plan };
  if (q.granularity && !plan.facts.every((f) => f.time)) throw new Error('a time grouping needs the time dimension of every fact');
  if (q.granularity) {
    if (!q.compare) return { sql: combined(c), params: c.b.params };
    // The window's groups and those of the window compared with, each fact reading its own rollup.
    const prev: Ctx = { ...c, q: { ...q, window: q.compare.window, compare: undefined } };
    const qt = (x: string) => d.quote(x);
    const side = (ctx: Ctx, n: number) => `SELECT *, ${n} AS ${qt(SIDE)} FROM (${combined(ctx)}) AS ${qt(`s${n}`)}`;
    return { sql: `${side(c, 0)} UNION ALL ${side(prev, 1)}`, params: c.b.params };
  }
  if (plan.facts[0].keys.length) return { sql: keyed(c), params: c.b.params };
  return { sql: combined(c), params: c.b.params };
}

/**
 * A cohort insight's query (compile-cohort.ts): its one fact, keyed by the entity, read from its own
 * rows with the tenant, access filters, segments and filters applied.
 */
export function compileCohort(
  plan: QueryPlan,
  dialect: Dialect,
  q: ResolvedQuery & { window: Window; granularity: Granularity },
): CompiledQuery {
  const d: Dialect = { ...dialect, quote: (id) => dialect.quote(columnName(id)) };
  const c: Ctx = { d, q: { ...q, rollups: undefined }, b: new Binder(dialect), plan };
  const f = plan.facts[0];
  const sql = cohortSelect({ ...windowedRows(f, c, factRows(f, c), q.granularity, q.window), entity: f.keys[0].sql });
  return { sql, params: c.b.params };
}

/** A context for reads over all of a tenant's data as the caller sees it (no window, no filter). */
function wholeData(dialect: Dialect, tenantId: string, attributes: Attributes | undefined): Pick<Ctx, 'q' | 'b'> {
  return { q: { tenantId, attributes, granularity: null, filters: [] }, b: new Binder(dialect) };
}

/** Where a member of a cube is read from: the cube's rows, joined to the cubes its SQL reads. */
export interface MemberSource {
  source: CubeSource;
  joins: FactPlan['joins'];
  /** The member's qualified SQL. */
  sql: string;
}

/**
 * The first and last day of a time dimension in a tenant's data as the caller sees it (no window,
 * no filter), as YYYY-MM-DD text in columns `first` and `last`.
 */
export function compileSpan(member: MemberSource, dialect: Dialect, tenantId: string, attributes?: Attributes): CompiledQuery {
  const c = wholeData(dialect, tenantId, attributes);
  const day = (sql: string) => `CAST(CAST(${sql} AS ${dialect.types.date}) AS ${dialect.types.text})`;
  const where = [`${member.source.tenant} = ${c.b.bind(tenantId)}`, ...callerSees(member, c)].join(' AND ');
  return {
    sql:
      `SELECT ${day(`MIN(${member.sql})`)} AS ${dialect.quote('first')}, ${day(`MAX(${member.sql})`)} AS ` +
      `${dialect.quote('last')} FROM ${fromClause(member, c)} WHERE ${where}`,
    params: c.b.params,
  };
}

/**
 * The distinct values of a dimension in a tenant's data as the caller sees it, in order, at most
 * `max`; with `search`, only those containing it (any case).
 */
export function compileValues(
  member: MemberSource,
  dialect: Dialect,
  tenantId: string,
  max: number,
  attributes?: Attributes,
  search?: string,
): CompiledQuery {
  const c = wholeData(dialect, tenantId, attributes);
  const value = `CAST(${member.sql} AS ${dialect.types.text})`;
  const where = [`${member.source.tenant} = ${c.b.bind(tenantId)}`, ...callerSees(member, c), `${member.sql} IS NOT NULL`];
  if (search) where.push(dialect.contains(value, c.b.bind(search)));
  const v = dialect.quote('value');
  return {
    sql: `SELECT DISTINCT ${value} AS ${v} FROM ${fromClause(member, c)} WHERE ${where.join(' AND ')} ORDER BY 1 LIMIT ${Math.trunc(max)}`,
    params: c.b.params,
  };
}
