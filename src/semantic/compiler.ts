// Compiles an insight definition and a resolved query to {sql, params} for one dialect. Values
// are always bound parameters; the tenant predicate is always part of the FROM/WHERE.
import type { Dialect } from './dialects/dialect.ts';
import { addDays, type Window } from './periods.ts';
import { SOURCES } from './sources.ts';
import type { ColumnType, Condition, FilterName, Granularity, InsightDefinition, MeasureDef, SourceDef } from './types.ts';

export interface ResolvedQuery {
  tenantId: string;
  granularity: Granularity | null;
  filters: Partial<Record<FilterName, string>>;
  window: Window;
  /** KPIs: the window compared with. */
  previous?: Window;
  /** Breakdowns: rows to return. */
  limit?: number;
}

export interface CompiledQuery {
  sql: string;
  params: unknown[];
}

export interface OutputColumn {
  name: string;
  type: ColumnType;
  label: string;
}

class Binder {
  readonly params: unknown[] = [];
  // PostgreSQL infers one type per parameter, so a value is shared only between uses of one type.
  private readonly seen = new Map<string, string>();
  constructor(private readonly dialect: Dialect) {}
  bind(value: unknown, type = 'text'): string {
    const key = `${type}\u0000${typeof value}\u0000${String(value)}`;
    const known = this.seen.get(key);
    if (known) return known;
    this.params.push(value);
    const p = this.dialect.placeholder(this.params.length);
    this.seen.set(key, p);
    return p;
  }
}

function condition(src: SourceDef, c: Condition, b: Binder): string {
  const col = src.columns[c.column];
  if (c.in.length === 1) return `${col} = ${b.bind(c.in[0])}`;
  return `${col} IN (${c.in.map((v) => b.bind(v)).join(', ')})`;
}

function fromClause(src: SourceDef, tenantId: string, b: Binder): string {
  return src.from.replace(/(?<![:\w]):([a-z_]+)\b/g, (_m, name: string) =>
    b.bind(name === 'tenant' ? tenantId : src.binds![name]),
  );
}

function timeRange(src: SourceDef, d: Dialect, w: Window, b: Binder): string[] {
  const { column, type } = src.time;
  if (type === 'date') {
    return [`${column} >= ${d.typedParam(b.bind(w.from, 'date'), 'date')}`, `${column} <= ${d.typedParam(b.bind(w.to, 'date'), 'date')}`];
  }
  // Half-open on the next midnight: the whole last day, and the column compared as it is stored.
  return [
    `${column} >= ${d.typedParam(b.bind(w.from, 'timestamp'), 'timestamp')}`,
    `${column} < ${d.typedParam(b.bind(addDays(w.to, 1), 'timestamp'), 'timestamp')}`,
  ];
}

function measureSql(src: SourceDef, m: MeasureDef, b: Binder, extra?: string): string {
  const base =
    m.agg === 'count'
      ? 'count(*)'
      : m.product
        ? `sum(${src.columns[m.product[0]]} * ${src.columns[m.product[1]]})`
        : `sum(${src.columns[m.column!]})`;
  const conds = [m.where ? condition(src, m.where, b) : undefined, extra].filter(Boolean);
  return conds.length ? `${base} FILTER (WHERE ${conds.join(' AND ')})` : base;
}

/** The WHERE of one source: tenant, fixed rows, the insight's rows, the caller's filters, dates. */
function whereClause(def: InsightDefinition, src: SourceDef, d: Dialect, q: ResolvedQuery, w: Window, b: Binder, insightWhere: boolean): string {
  const parts: string[] = src.tenantScope.map((col) => `${col} = ${b.bind(q.tenantId)}`);
  if (src.fixedWhere) parts.push(src.fixedWhere);
  if (insightWhere) for (const c of def.where ?? []) parts.push(condition(src, c, b));
  for (const f of def.filters) {
    const value = q.filters[f];
    if (value !== undefined && src.filters[f]) parts.push(`${src.filters[f]} = ${b.bind(value)}`);
  }
  parts.push(...timeRange(src, d, w, b));
  return parts.join(' AND ');
}

function timeseries(def: InsightDefinition, d: Dialect, q: ResolvedQuery, b: Binder): string {
  const g = q.granularity!;
  const one = (src: SourceDef, measures: MeasureDef[], insightWhere: boolean) => {
    const cols = [`${d.bucket(g, src.time.column, src.time.type)} AS ${d.quote('period')}`];
    for (const m of measures) cols.push(`${measureSql(src, m, b)} AS ${d.quote(m.name)}`);
    const from = fromClause(src, q.tenantId, b);
    return `SELECT ${cols.join(', ')} FROM ${from} WHERE ${whereClause(def, src, d, q, q.window, b, insightWhere)} GROUP BY 1`;
  };
  const main = one(SOURCES[def.source], def.measures, true);
  if (!def.secondary) return `${main} ORDER BY 1`;
  const second = one(SOURCES[def.secondary.source], def.secondary.measures, false);
  const p = d.quote('period');
  const cols = [
    `COALESCE(a.${p}, b.${p}) AS ${p}`,
    ...def.measures.map((m) => `a.${d.quote(m.name)}`),
    ...def.secondary.measures.map((m) => `b.${d.quote(m.name)}`),
  ];
  return `WITH a AS (${main}), b AS (${second}) SELECT ${cols.join(', ')} FROM a FULL JOIN b ON a.${p} = b.${p} ORDER BY 1`;
}

function breakdown(def: InsightDefinition, d: Dialect, q: ResolvedQuery, b: Binder): string {
  const src = SOURCES[def.source];
  const dims = def.dimensions ?? [];
  const cols = dims.map((dim) => `${src.dimensions[dim.source]} AS ${d.quote(dim.name)}`);
  for (const m of def.measures) cols.push(`${measureSql(src, m, b)} AS ${d.quote(m.name)}`);
  const from = fromClause(src, q.tenantId, b);
  const where = whereClause(def, src, d, q, q.window, b, true);
  const groupBy = dims.map((_, i) => String(i + 1)).join(', ');
  const order = def.orderBy ?? { column: def.measures[0].name, direction: 'desc' };
  // Ties break on the first dimension, so both engines return the same rows in the same order.
  const orderBy = `${d.quote(order.column)} ${order.direction.toUpperCase()}, 1 ASC`;
  const limit = q.limit ?? def.limit?.default;
  return `SELECT ${cols.join(', ')} FROM ${from} WHERE ${where} GROUP BY ${groupBy} ORDER BY ${orderBy}` + (limit ? ` LIMIT ${b.bind(limit, 'int')}` : '');
}

function kpi(def: InsightDefinition, d: Dialect, q: ResolvedQuery, b: Binder): string {
  const src = SOURCES[def.source];
  const m = def.measures.find((x) => x.name === def.kpiMeasure)!;
  const prev = q.previous!;
  const span: Window = { from: prev.from < q.window.from ? prev.from : q.window.from, to: q.window.to > prev.to ? q.window.to : prev.to };
  const current = timeRange(src, d, q.window, b).join(' AND ');
  const previous = timeRange(src, d, prev, b).join(' AND ');
  const from = fromClause(src, q.tenantId, b);
  const where = whereClause(def, src, d, q, span, b, true);
  return (
    `SELECT ${measureSql(src, m, b, current)} AS ${d.quote('value')}, ${measureSql(src, m, b, previous)} AS ${d.quote('previous_value')} ` +
    `FROM ${from} WHERE ${where}`
  );
}

export function compile(def: InsightDefinition, dialect: Dialect, q: ResolvedQuery): CompiledQuery {
  const b = new Binder(dialect);
  const sql = def.kind === 'timeseries' ? timeseries(def, dialect, q, b) : def.kind === 'breakdown' ? breakdown(def, dialect, q, b) : kpi(def, dialect, q, b);
  return { sql, params: b.params };
}

/** The columns of an insight's rows, in order, as the service returns them. */
export function outputColumns(def: InsightDefinition): OutputColumn[] {
  const measures = [...def.measures, ...(def.secondary?.measures ?? [])].map((m) => ({ name: m.name, type: m.type, label: m.label }));
  const ratios = (def.ratios ?? []).map((r) => ({ name: r.name, type: r.type as ColumnType, label: r.label }));
  if (def.kind === 'timeseries') return [{ name: 'period', type: 'date', label: 'Period' }, ...ratios, ...measures];
  if (def.kind === 'breakdown') {
    return [...(def.dimensions ?? []).map((x) => ({ name: x.name, type: x.type ?? ('string' as ColumnType), label: x.label })), ...measures, ...ratios];
  }
  const m = def.measures.find((x) => x.name === def.kpiMeasure)!;
  return [
    { name: 'period_from', type: 'date', label: 'From' },
    { name: 'period_to', type: 'date', label: 'To' },
    { name: 'value', type: m.type, label: m.label },
    { name: 'previous_period_from', type: 'date', label: 'Previous from' },
    { name: 'previous_period_to', type: 'date', label: 'Previous to' },
    { name: 'previous_value', type: m.type, label: `${m.label}, previous window` },
    { name: 'change', type: m.type, label: 'Change' },
    { name: 'change_pct', type: 'percent', label: 'Change (%)' },
  ];
}
