// A semantic query (query.schema.ts) checked against the model and planned: each member found,
// each dimension reached from every measure's cube through many_to_one joins (resolve-facts.ts, as
// for insights, but strict: no dimension of the same name stands in), each filter's operator and
// values checked against its member's type. Every problem is reported at once, each at its path
// (`/body/filters/1/values/0`). What comes out is what compile.ts compiles and what presenting
// needs (columns, labels, formats); the window is resolved against a day later (window.ts).
import { AppError } from '../../lib/errors.ts';
import { humanize, leafMeasures, reachable, type CubeInfo, type DimensionInfo, type MeasureInfo, type SegmentInfo } from '../cubes.ts';
import type { PathPart } from '../issues.ts';
import { plainText } from '../model.schema.ts';
import { isValidDate } from '../periods.ts';
import { dimensionType, measureType, numberPlan } from '../resolve.ts';
import { planFacts, refOf, type References } from '../resolve-facts.ts';
import { didYouMean } from '../shape.ts';
import type { Granularity, OutputColumn, QueryPlan, TableUse } from '../types.ts';
import { type DimensionFilter, type MeasureFilter, type MemberSource, type OrderTerm, PERIOD } from './compile.ts';
import type { FilterOperator, SemanticQuery } from './query.schema.ts';

export const DEFAULT_QUERY_LIMIT = 1000;

/** A query checked and planned: everything about it that does not depend on the day or the caller. */
export interface PlannedQuery {
  /** The query as asked, with the defaults of order, limit and offset filled in. */
  query: SemanticQuery;
  plan: QueryPlan;
  /** The measures asked for ("cube.measure"), in order. */
  measures: string[];
  /** The grouping dimensions, in order. */
  dimensions: string[];
  time?: { member: string; granularity?: Granularity; date_from?: string; date_to?: string };
  filters: DimensionFilter[];
  having: MeasureFilter[];
  order: OrderTerm[];
  limit: number;
  offset: number;
  compare?: 'previous_period' | 'previous_year';
  /** The answer's columns by member: time (when grouped), dimensions, measures. */
  columns: OutputColumn[];
  tables: TableUse[];
}

type FieldError = { path: string; message: string };

const TEXT_OPS: FilterOperator[] = ['equals', 'not_equals', 'contains', 'not_contains', 'starts_with', 'set', 'not_set'];
const ORDERED_OPS: FilterOperator[] = ['equals', 'not_equals', 'gt', 'gte', 'lt', 'lte', 'between', 'set', 'not_set'];
const OPERATORS: Record<DimensionFilter['type'] | 'measure', FilterOperator[]> = {
  string: TEXT_OPS,
  number: ORDERED_OPS,
  time: ORDERED_OPS,
  measure: ORDERED_OPS,
  boolean: ['equals', 'not_equals', 'set', 'not_set'],
};

/** How many values an operator takes: [at least, at most]. */
function arity(op: FilterOperator): [number, number] {
  if (op === 'set' || op === 'not_set') return [0, 0];
  if (op === 'between') return [2, 2];
  if (op === 'gt' || op === 'gte' || op === 'lt' || op === 'lte') return [1, 1];
  return [1, Number.POSITIVE_INFINITY];
}

const GRANULARITY_LABEL: Record<Granularity, string> = { day: 'Day', week: 'Week', month: 'Month', quarter: 'Quarter', year: 'Year' };

/** Finds the members a query names, reporting each that the model lacks at its path. */
function finder(cubes: Map<string, CubeInfo>, fail: (p: PathPart[], message: string) => void) {
  const find = <K extends 'measures' | 'dimensions' | 'segments'>(ref: string, p: PathPart[], kind: K) => {
    const [c, name] = ref.split('.');
    const cube = cubes.get(c);
    if (!cube) return void fail(p, `"${c}" is not a cube of the model${didYouMean(c, [...cubes.keys()])}`);
    const found = cube[kind].get(name) as
      | (K extends 'measures' ? MeasureInfo : K extends 'dimensions' ? DimensionInfo : SegmentInfo)
      | undefined;
    if (found) return found;
    const other = (['measures', 'dimensions', 'segments'] as const).find((k) => k !== kind && cube[k].has(name));
    const what = { measures: 'measure', dimensions: 'dimension', segments: 'segment' };
    fail(
      p,
      other
        ? `${ref} is a ${what[other]}, not a ${what[kind]}`
        : `"${name}" is not a ${what[kind]} of cube ${c}${didYouMean(name, [...cube[kind].keys()])}`,
    );
    return undefined;
  };
  return find;
}

/** The values of a filter as its member's type reads them, each problem at its path. */
function filterValues(
  values: readonly (string | number | boolean)[],
  type: DimensionFilter['type'] | 'measure',
  dim: DimensionInfo | undefined,
  exact: boolean,
  fail: (i: number, message: string) => void,
): (string | number | boolean)[] {
  return values.map((v, i) => {
    if (type === 'number' || type === 'measure') {
      const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
      if (!Number.isFinite(n)) fail(i, 'must be a number');
      return n;
    }
    if (type === 'boolean') {
      if (typeof v === 'boolean') return v;
      if (v === 'true' || v === 'false') return v === 'true';
      fail(i, 'must be true or false');
      return false;
    }
    if (type === 'time') {
      if (typeof v !== 'string' || !isValidDate(v)) fail(i, 'must be a date YYYY-MM-DD');
      return String(v);
    }
    if (typeof v === 'boolean') fail(i, 'must be text');
    let s = String(v).trim();
    if (!s) fail(i, 'must not be empty');
    // The dimension's own rules hold for values compared whole (as in execute).
    if (exact && dim) {
      if (dim.def.case === 'upper') s = s.toUpperCase();
      if (dim.def.case === 'lower') s = s.toLowerCase();
      if (dim.def.values && !dim.def.values.includes(s)) fail(i, `must be one of: ${dim.def.values.join(', ')}`);
      else if (dim.def.pattern && !new RegExp(dim.def.pattern).test(s)) fail(i, `is not a value of ${refOf(dim)}`);
    }
    return s;
  });
}

function label(def: { title?: Parameters<typeof plainText>[0]; name: string }): string {
  return plainText(def.title) ?? humanize(def.name);
}

export function measureColumn(m: MeasureInfo): OutputColumn {
  const type = measureType(m.def);
  return {
    name: refOf(m),
    ref: refOf(m),
    type,
    label: label(m.def),
    ...(m.def.currency && type === 'money' ? { currency: m.def.currency } : {}),
    ...(m.def.decimals !== undefined ? { decimals: m.def.decimals } : {}),
  };
}

export function dimensionColumn(d: DimensionInfo): OutputColumn {
  return { name: refOf(d), ref: refOf(d), type: dimensionType(d.def), label: label(d.def) };
}

/** Plans a semantic query; throws a VALIDATION_FAILED AppError naming every problem (paths under `/${where}`). */
export function planQuery(cubes: Map<string, CubeInfo>, query: SemanticQuery, where = 'body'): PlannedQuery {
  const errors: FieldError[] = [];
  const pathOf = (p: PathPart[]) => `/${where}/${p.join('/')}`;
  const fail = (p: PathPart[], message: string) => {
    if (!errors.some((e) => e.path === pathOf(p))) errors.push({ path: pathOf(p), message });
  };
  const find = finder(cubes, fail);
  const twice = (list: readonly string[], key: string) =>
    list.forEach((ref, i) => {
      if (list.indexOf(ref) !== i) fail([key, i], `${ref} is named twice`);
    });

  const measures = query.measures.map((ref, i) => find(ref, ['measures', i], 'measures'));
  twice(query.measures, 'measures');
  const dims = (query.dimensions ?? []).map((ref, i) => {
    const d = find(ref, ['dimensions', i], 'dimensions');
    if (d?.def.type === 'time')
      fail(['dimensions', i], `${ref} is a time dimension: group by it with "time": {"dimension": "${ref}", "granularity": …}`);
    return d;
  });
  twice(query.dimensions ?? [], 'dimensions');

  let time: DimensionInfo | undefined;
  if (query.time) {
    time = find(query.time.dimension, ['time', 'dimension'], 'dimensions');
    if (time && time.def.type !== 'time')
      fail(['time', 'dimension'], `${query.time.dimension} is a ${time.def.type} dimension, not a time dimension`);
    const { date_from: from, date_to: to } = query.time;
    if (from && to && from > to) fail(['time', 'date_from'], 'must not be after date_to');
  }

  // Filters: on a dimension (rows), or on a measure (aggregated figures, computed even when not asked for).
  const filters: DimensionFilter[] = [];
  const having: MeasureFilter[] = [];
  const filterDims: DimensionInfo[] = [];
  const filterAt: number[] = [];
  const hidden: string[] = [];
  (query.filters ?? []).forEach((f, i) => {
    const [c, name] = f.member.split('.');
    const cube = cubes.get(c);
    const isMeasure = cube?.measures.has(name);
    const member = isMeasure ? cube!.measures.get(name)! : find(f.member, ['filters', i, 'member'], 'dimensions');
    if (!member) return;
    const dim = isMeasure ? undefined : (member as DimensionInfo);
    const type: DimensionFilter['type'] | 'measure' = dim ? dim.def.type : 'measure';
    if (!OPERATORS[type].includes(f.operator)) {
      const kind = dim ? `a ${dim.def.type} dimension` : 'a measure';
      return fail(
        ['filters', i, 'operator'],
        `${f.operator} does not apply to ${f.member}, ${kind} (it takes: ${OPERATORS[type].join(', ')})`,
      );
    }
    const given = f.values ?? [];
    const [least, most] = arity(f.operator);
    if (given.length < least || given.length > most) {
      const n = least === most ? (least === 0 ? 'no values' : `${least} value${least === 1 ? '' : 's'}`) : 'at least one value';
      return fail(['filters', i, 'values'], `${f.operator} takes ${n}`);
    }
    const exact = f.operator === 'equals' || f.operator === 'not_equals';
    const values = filterValues(given, type, dim, exact, (j, message) => fail(['filters', i, 'values', j], message));
    if (f.operator === 'between' && values[0] > values[1]) fail(['filters', i, 'values'], 'between takes the lower bound first');
    if (dim) {
      filters.push({ member: f.member, operator: f.operator, values, type: dim.def.type, path: pathOf(['filters', i, 'values']) });
      filterDims.push(dim);
      filterAt.push(i);
    } else {
      having.push({ measure: f.member, operator: f.operator, values: values as number[] });
      if (!query.measures.includes(f.member) && !hidden.includes(f.member)) hidden.push(f.member);
    }
  });
  const segments = (query.segments ?? []).map((ref, i) => find(ref, ['segments', i], 'segments'));

  // The order: members of the query only.
  const granularity = query.time?.granularity;
  const order: OrderTerm[] = [];
  (query.order ?? []).forEach((o, i) => {
    const known = query.measures.includes(o.member) || (query.dimensions ?? []).includes(o.member);
    const isTime = granularity !== undefined && o.member === query.time?.dimension;
    if (!known && !isTime)
      return fail(['order', i, 'member'], `${o.member} is not a measure, dimension or (grouped) time dimension of this query`);
    order.push({ column: isTime ? PERIOD : o.member, desc: o.direction === 'desc' });
  });
  if (!order.length && query.measures[0]) {
    if (granularity) order.push({ column: PERIOD, desc: false });
    else if (dims.length) order.push({ column: query.measures[0], desc: true });
  }

  if (query.compare && !(granularity || query.time?.date_from || query.time?.date_to))
    fail(['compare'], 'compares a window with another: give "time" a granularity or dates');
  if (errors.length) throw validation(errors);

  // Facts, joins and reachability, as an insight plans them (strictly: a query names its members).
  const refs = [...query.measures, ...hidden];
  const leaves: string[] = [];
  for (const ref of refs) for (const l of leafMeasures(ref, cubes, new Set()) ?? []) if (!leaves.includes(l)) leaves.push(l);
  // A rolling measure's figure belongs to a period: it needs a time grouping (compile-rolling.ts).
  if (!granularity) {
    const rolling = (ref: string) =>
      (leafMeasures(ref, cubes, new Set()) ?? []).find((l) => cubes.get(l.split('.')[0])?.measures.get(l.split('.')[1])?.rolling);
    const why = (ref: string, leaf: string) =>
      `${ref === leaf ? ref : `${ref} combines ${leaf}, which`} is a rolling measure (rolling_window): group "time" by a granularity`;
    query.measures.forEach((ref, i) => {
      const leaf = rolling(ref);
      if (leaf) fail(['measures', i], why(ref, leaf));
    });
    (query.filters ?? []).forEach((f, i) => {
      const leaf = query.measures.includes(f.member) ? undefined : rolling(f.member);
      if (leaf) fail(['filters', i, 'member'], why(f.member, leaf));
    });
    if (errors.length) throw validation(errors);
  }
  const references: References = {
    used: refs,
    columns: refs,
    leaves,
    timeDims: time ? [time] : [],
    keys: dims,
    keyPath: (i) => ['dimensions', i],
    filterDims,
    segments,
    paths: {
      time: ['time', 'dimension'],
      filter: (i) => ['filters', filterAt[i], 'member'],
      segment: (i) => ['segments', i],
    },
  };
  const measureInfo = (ref: string) => cubes.get(ref.split('.')[0])!.measures.get(ref.split('.')[1])!;
  const { facts, tables } = planFacts({ cubes, err: (p, message) => fail(p, message), measureInfo, strict: true }, references);
  if (errors.length) throw validation(errors);

  const columns: OutputColumn[] = [
    ...(time && granularity ? [{ name: refOf(time), ref: refOf(time), type: 'date' as const, label: GRANULARITY_LABEL[granularity] }] : []),
    ...dims.map((d) => dimensionColumn(d!)),
    ...measures.map((m) => measureColumn(m!)),
  ];
  const limit = query.limit ?? DEFAULT_QUERY_LIMIT;
  const offset = query.offset ?? 0;
  return {
    query: {
      ...query,
      order: order.map((o) => ({ member: o.column === PERIOD ? query.time!.dimension : o.column, direction: o.desc ? 'desc' : 'asc' })),
      limit,
      offset,
    },
    plan: { facts, numbers: numberPlan({ measureInfo }, refs), headline: query.measures[0].split('.')[1] },
    measures: [...query.measures],
    dimensions: [...(query.dimensions ?? [])],
    ...(time && query.time
      ? {
          time: {
            member: refOf(time),
            ...(granularity ? { granularity } : {}),
            ...(query.time.date_from ? { date_from: query.time.date_from } : {}),
            ...(query.time.date_to ? { date_to: query.time.date_to } : {}),
          },
        }
      : {}),
    filters,
    having,
    order,
    limit,
    offset,
    ...(query.compare ? { compare: query.compare } : {}),
    columns,
    tables: [...tables.values()],
  };
}

function validation(errors: FieldError[]): AppError {
  return new AppError('VALIDATION_FAILED', errors.map((e) => `${e.path.replace(/^\/\w+\//, '')}: ${e.message}`).join('; '), { errors });
}

/** Where a dimension is read from on its own (its values, a time dimension's span): its cube, joined to what its SQL reads. */
export function memberSource(cubes: Map<string, CubeInfo>, ref: string): MemberSource | undefined {
  const [c, name] = ref.split('.');
  const cube = cubes.get(c);
  const d = cube?.dimensions.get(name);
  if (!cube || !d) return undefined;
  const reach = reachable(c, cubes);
  const needed = new Set<string>(d.refs);
  for (const x of [...needed]) for (let p = reach.get(x); p; p = reach.get(p)) needed.add(p);
  const joins = [...reach.keys()]
    .filter((x) => x !== c && needed.has(x))
    .map((x) => ({ source: cubes.get(x)!.source, on: cubes.get(reach.get(x)!)!.joins.get(x)! }));
  return { source: cube.source, joins, sql: d.sql };
}
