// Resolves each insight of the model against its cubes into a query plan: which cubes' measures
// it aggregates (one "fact" per cube, so a many_to_one join never multiplies rows), how each fact
// reaches the time dimension, the filters and the grouping dimensions, and the output columns.
import { humanize, leafMeasures, reachable, type CubeInfo, type DimensionInfo } from './cubes.ts';
import { issueAt, type ModelIssue, type ModelSource, type PathPart } from './issues.ts';
import { plainText, synonymsIn, type InsightDef, type ModelLanguage } from './model.schema.ts';
import { didYouMean } from './shape.ts';
import {
  GRANULARITIES,
  type ChartDefault,
  type ColumnType,
  type FactPlan,
  type FilterRule,
  type Granularity,
  type InsightDefinition,
  type JoinStep,
  type NumberToken,
  type OutputColumn,
  type RatioInfo,
  type TableUse,
} from './types.ts';

const DEFAULT_CHART: Record<InsightDef['kind'], ChartDefault['type']> = { timeseries: 'line', breakdown: 'bar', top: 'table', kpi: 'kpi' };

function measureType(m: { type: string; format?: string }): ColumnType {
  if (m.format) return m.format as ColumnType;
  return m.type === 'count' || m.type === 'count_distinct' ? 'integer' : 'number';
}

function dimensionType(d: DimensionInfo['def']): ColumnType {
  if (d.format) return d.format as ColumnType;
  return d.type === 'number' ? 'number' : d.type === 'boolean' ? 'boolean' : 'string';
}

const RATIO = /^\s*(?:(\d+(?:\.\d+)?)\s*\*\s*)?\{([\w.]+)\}\s*\/\s*(?:NULLIF\s*\(\s*\{([\w.]+)\}\s*,\s*0\s*\)|\{([\w.]+)\})\s*$/i;

export function resolveInsights(sources: ModelSource[], cubes: Map<string, CubeInfo>, issues: ModelIssue[]): InsightDefinition[] {
  const out: InsightDefinition[] = [];
  const codes = new Set<string>();
  for (const src of sources) {
    (src.data.insights ?? []).forEach((def, i) => {
      const path: PathPart[] = ['insights', i];
      const before = issues.length;
      const err: Err = (p, message, ref) => issues.push(issueAt(src, [...path, ...p], message, 'error', ref));
      const broken = src.damage?.insights.get(i);
      if (broken?.has('*')) return;
      if (!broken?.has('code')) {
        if (codes.has(def.code)) err(['code'], `insight "${def.code}" is declared twice`);
        codes.add(def.code);
      }
      // An insight of the wrong shape cannot be planned, but what it names is still checked.
      if (broken) return checkReferences(def, cubes, broken, err);
      const insight = resolveInsight(def, cubes, err);
      if (insight && issues.length === before) out.push(insight);
    });
  }
  return out;
}

type Err = (p: PathPart[], message: string, ref?: string) => void;

/** Finds what an insight names, reporting each reference to something the model lacks. */
function lookup(cubes: Map<string, CubeInfo>, err: Err) {
  const member = (ref: string) => {
    const [c, name] = ref.split('.');
    return { cube: cubes.get(c), c, name };
  };
  const find = <T>(
    ref: string,
    p: PathPart[],
    kind: 'measure' | 'dimension' | 'segment',
    get: (cube: CubeInfo, name: string) => T | undefined,
  ): T | undefined => {
    const { cube, c, name } = member(ref);
    if (!cube) return void err(p, `"${c}" is not a cube${didYouMean(c, [...cubes.keys()])}`, c);
    const found = get(cube, name);
    if (!found) err(p, `"${name}" is not a ${kind} of cube ${c}${didYouMeanMember(name, cube, kind)}`, ref);
    return found;
  };
  return {
    member,
    measure: (ref: string, p: PathPart[]) => find(ref, p, 'measure', (cube, name) => cube.measures.get(name)),
    dimension: (ref: string, p: PathPart[]) => find(ref, p, 'dimension', (cube, name) => cube.dimensions.get(name)),
    segment: (ref: string, p: PathPart[]) => find(ref, p, 'segment', (cube, name) => cube.segments.get(name)),
  };
}

function didYouMeanMember(name: string, cube: CubeInfo, kind: 'measure' | 'dimension' | 'segment'): string {
  const own = [...(kind === 'measure' ? cube.measures : kind === 'dimension' ? cube.dimensions : cube.segments).keys()];
  const hint = didYouMean(name, own);
  if (hint) return hint;
  // Named as the other kind: a measure where a dimension belongs, or the other way round.
  if (kind !== 'segment' && (kind === 'measure' ? cube.dimensions : cube.measures).has(name))
    return ` (${name} is a ${kind === 'measure' ? 'dimension' : 'measure'})`;
  return '';
}

/** The references of an insight whose shape is wrong, for the keys that are right. */
function checkReferences(def: InsightDef, cubes: Map<string, CubeInfo>, broken: Set<string>, err: Err): void {
  const find = lookup(cubes, err);
  const list = (
    key: 'measures' | 'dimensions' | 'filters' | 'segments' | 'time_dimension' | 'dimension',
    check: (ref: string, p: PathPart[]) => unknown,
  ) => {
    const v = def[key];
    if (broken.has(key) || v === undefined) return;
    if (Array.isArray(v)) v.forEach((ref, i) => check(ref, [key, i]));
    else check(v, [key]);
  };
  list('measures', find.measure);
  list('time_dimension', find.dimension);
  list('dimension', find.dimension);
  list('dimensions', find.dimension);
  list('filters', find.dimension);
  list('segments', find.segment);
}

function resolveInsight(def: InsightDef, cubes: Map<string, CubeInfo>, err: Err): InsightDefinition | undefined {
  const kind = def.kind;
  const find = lookup(cubes, err);
  const member = find.member;

  // Measures: the insight's own, then the parts its number measures are computed from.
  const named: string[] = [];
  def.measures.forEach((ref, i) => {
    if (find.measure(ref, ['measures', i])) named.push(ref);
  });
  // The other references are still checked when a measure is wrong: every problem at once.
  const used = kind === 'kpi' ? named.slice(0, 1) : named;
  const columns: string[] = [...used];
  const leaves: string[] = [];
  for (const ref of used) {
    const parts = leafMeasures(ref, cubes, new Set()) ?? [];
    for (const l of parts) {
      if (!columns.includes(l)) columns.push(l);
      if (!leaves.includes(l)) leaves.push(l);
    }
  }
  const measureInfo = (ref: string) => member(ref).cube!.measures.get(member(ref).name)!;

  // Time dimensions: one per fact cube, reachable from it, or of the same name on it.
  const timeRefs = Array.isArray(def.time_dimension) ? def.time_dimension : [def.time_dimension];
  const timeDims: DimensionInfo[] = [];
  timeRefs.forEach((ref, i) => {
    const p = Array.isArray(def.time_dimension) ? ['time_dimension', i] : ['time_dimension'];
    const d = find.dimension(ref, p);
    if (d && d.def.type !== 'time') err(p, `${ref} is a ${d.def.type} dimension, not a time dimension`);
    else if (d) timeDims.push(d);
  });
  const dimension = find.dimension;
  const keyRefs = def.dimensions ?? (def.dimension ? [def.dimension] : []);
  const keyPath = (i: number): PathPart[] => (def.dimensions ? ['dimensions', i] : ['dimension']);
  if (def.dimension && def.dimensions) err(['dimensions'], 'give dimension or dimensions, not both');
  if ((kind === 'breakdown' || kind === 'top') && !keyRefs.length) err(['dimension'], `a ${kind} insight needs a dimension`);
  if ((kind === 'timeseries' || kind === 'kpi') && keyRefs.length)
    err([def.dimension ? 'dimension' : 'dimensions'], `a ${kind} insight groups by time only`);
  const keys = keyRefs.map((ref, i) => dimension(ref, keyPath(i)));
  const filterDims = (def.filters ?? []).map((ref, i) => dimension(ref, ['filters', i]));
  const filterNames = new Set<string>();
  filterDims.forEach((d, i) => {
    if (!d) return;
    if (d.def.type === 'time') err(['filters', i], 'a time dimension is filtered by date_from and date_to');
    if (filterNames.has(d.def.name)) err(['filters', i], `two filters are named ${d.def.name}`);
    if (['granularity', 'date_from', 'date_to', 'limit'].includes(d.def.name))
      err(['filters', i], `"${d.def.name}" is an execute parameter of its own`);
    filterNames.add(d.def.name);
  });
  const segments = (def.segments ?? []).map((ref, i) => find.segment(ref, ['segments', i]));

  // One fact per cube owning leaf measures, in order of first use.
  const factCubes: string[] = [];
  for (const l of leaves) if (!factCubes.includes(l.split('.')[0])) factCubes.push(l.split('.')[0]);
  const facts: FactPlan[] = [];
  const tables = new Map<string, TableUse>();
  for (const f of factCubes) {
    const fact = cubes.get(f)!;
    const reach = reachable(f, cubes);
    const needed = new Set<string>([f]);
    const chosenRefs = new Map<string, string>();
    const place = (d: DimensionInfo | undefined, p: PathPart[], what: string): string | undefined => {
      if (!d) return undefined;
      let chosen: DimensionInfo | undefined = reach.has(d.cube) ? d : fact.dimensions.get(d.def.name);
      if (chosen && chosen.def.type !== d.def.type) chosen = undefined;
      if (!chosen) {
        err(
          p,
          `cube ${f} (measures of this insight) cannot reach ${d.cube}.${d.def.name} through many_to_one joins and has no ${what} dimension named ${d.def.name}`,
          'joins',
        );
        return undefined;
      }
      needed.add(chosen.cube);
      chosen.refs.forEach((r) => needed.add(r));
      chosenRefs.set(chosen.sql, `${chosen.cube}.${chosen.def.name}`);
      return chosen.sql;
    };
    let time: string | undefined;
    const direct = timeDims.find((d) => reach.has(d.cube));
    if (direct) time = place(direct, ['time_dimension'], 'time');
    else if (timeDims[0]) time = place(timeDims[0], ['time_dimension'], 'time');
    const filters: Record<string, string> = {};
    filterDims.forEach((d, i) => {
      const sql = place(d, ['filters', i], 'such');
      if (d && sql) filters[d.def.name] = sql;
    });
    const factKeys = keys.map((d, i) => ({ name: d?.def.name ?? '', sql: place(d, keyPath(i), 'such') ?? '' }));
    const segs: string[] = [];
    segments.forEach((s, i) => {
      if (!s) return;
      if (!reach.has(s.cube))
        return err(['segments', i], `cube ${f} (measures of this insight) cannot reach cube ${s.cube} through many_to_one joins`, 'joins');
      needed.add(s.cube);
      s.refs.forEach((r) => needed.add(r));
      segs.push(s.sql);
    });
    const measures = leaves
      .filter((l) => l.startsWith(`${f}.`))
      .map((l) => {
        const m = measureInfo(l);
        m.refs.forEach((r) => needed.add(r));
        return { name: m.def.name, agg: m.def.type as FactPlan['measures'][number]['agg'], sql: m.sql, filters: m.filters };
      });
    // Every cube on the way to a needed one is joined too, parents first (BFS order).
    for (const c of [...needed]) for (let p = reach.get(c); p; p = reach.get(p)) needed.add(p);
    const joins: JoinStep[] = [];
    for (const c of reach.keys()) {
      if (c === f || !needed.has(c)) continue;
      const parent = cubes.get(reach.get(c)!)!;
      joins.push({ source: cubes.get(c)!.source, on: parent.joins.get(c)! });
    }
    for (const c of needed) {
      const info = cubes.get(c);
      if (info?.source.table)
        tables.set(info.def.sql_table!, { table: info.def.sql_table!, cube: info.name, tenantColumn: info.def.tenant_column });
      for (const part of info?.source.derived ?? []) {
        const read = typeof part === 'string' ? undefined : [...cubes.values()].find((x) => x.source.table === part.table);
        if (read) tables.set(read.def.sql_table!, { table: read.def.sql_table!, cube: read.name, tenantColumn: read.def.tenant_column });
      }
    }
    const refs = {
      time: chosenRefs.get(time ?? '') ?? '',
      filters: Object.fromEntries(Object.entries(filters).map(([name, sql]) => [name, chosenRefs.get(sql) ?? ''])),
      keys: factKeys.map((k) => chosenRefs.get(k.sql) ?? ''),
    };
    if (time) facts.push({ cube: f, source: fact.source, joins, time, filters, keys: factKeys, segments: segs, measures, refs });
  }

  // Number measures, parts before the measures computed from them.
  const numbers: { name: string; tokens: NumberToken[] }[] = [];
  const addNumber = (ref: string) => {
    const m = measureInfo(ref);
    if (!m.tokens || numbers.some((n) => n.name === m.def.name)) return;
    for (const t of m.tokens) if (typeof t !== 'string') addNumber(t.measure);
    numbers.push({ name: m.def.name, tokens: m.tokens.map((t) => (typeof t === 'string' ? t : { measure: t.measure.split('.')[1] })) });
  };
  used.forEach(addNumber);

  // Granularities and limits.
  let granularities: Granularity[] = [];
  let defaultGranularity: Granularity | undefined;
  if (kind === 'timeseries' || kind === 'kpi') {
    granularities = def.granularities ?? [...GRANULARITIES];
    defaultGranularity = def.default_granularity ?? granularities[0];
    if (!granularities.includes(defaultGranularity))
      err(['default_granularity'], `must be one of its granularities (${granularities.join(', ')})`);
    if (def.default_limit !== undefined || def.max_limit !== undefined)
      err([def.default_limit !== undefined ? 'default_limit' : 'max_limit'], `a ${kind} insight takes no limit`);
  } else {
    if (def.granularities) err(['granularities'], `a ${kind} insight covers the whole window and takes no granularity`);
    if (def.default_granularity) err(['default_granularity'], `a ${kind} insight takes no granularity`);
  }
  let limit: InsightDefinition['limit'];
  if (kind === 'top' || def.default_limit !== undefined || (kind === 'breakdown' && def.max_limit !== undefined)) {
    if (kind === 'breakdown' && def.default_limit === undefined) err(['max_limit'], 'a breakdown with a limit needs default_limit');
    const dflt = def.default_limit ?? 10;
    const max = def.max_limit ?? Math.max(100, dflt);
    if (dflt > max) err(['default_limit'], `must not exceed max_limit (${max})`);
    if (kind === 'breakdown' || kind === 'top') limit = { default: dflt, max };
  }

  // Output columns.
  // Titles given per language, by member name: chat writes its replies with them.
  const localizedTitles: Record<string, Partial<Record<ModelLanguage, string>>> = {};
  const measureColumns: OutputColumn[] = columns.map((ref) => {
    const m = measureInfo(ref).def;
    if (m.title && typeof m.title === 'object') localizedTitles[m.name] = m.title;
    return {
      name: m.name,
      type: measureType(m),
      label: plainText(m.title) ?? humanize(m.name),
      ...(m.currency && measureType(m) === 'money' ? { currency: m.currency } : {}),
      ...(m.decimals !== undefined ? { decimals: m.decimals } : {}),
    };
  });
  for (const d of [...keys, ...filterDims]) if (d?.def.title && typeof d.def.title === 'object') localizedTitles[d.def.name] = d.def.title;
  const dimensionColumns: OutputColumn[] = keys
    .filter((d): d is DimensionInfo => Boolean(d))
    .map((d) => ({ name: d.def.name, type: dimensionType(d.def), label: plainText(d.def.title) ?? humanize(d.def.name) }));
  const headline = measureColumns[0];
  if (!headline) return undefined;
  const outputNames =
    kind === 'timeseries'
      ? ['period', ...measureColumns.map((c) => c.name)]
      : kind === 'kpi'
        ? ['period_from', 'period_to', 'value', 'previous_period_from', 'previous_period_to', 'previous_value', 'change', 'change_pct']
        : [...dimensionColumns.map((c) => c.name), ...measureColumns.map((c) => c.name)];
  const dup = outputNames.find((n, i) => outputNames.indexOf(n) !== i);
  if (dup) err(['measures'], `two columns of the result are named ${dup}; rename one measure or dimension`);

  const name = def.name ?? humanize(def.code);
  const chart: ChartDefault = {
    type: def.chart?.type ?? DEFAULT_CHART[kind],
    x_axis:
      def.chart?.x_axis ??
      (kind === 'timeseries' ? 'period' : kind === 'kpi' ? 'period_from' : (dimensionColumns[0]?.name ?? outputNames[0])),
    y_axis: def.chart?.y_axis ?? [kind === 'kpi' ? 'value' : headline.name],
    ...(def.chart?.series ? { series: def.chart.series } : {}),
    title: def.chart?.title ?? name,
  };
  for (const [key, cols] of [
    ['x_axis', [chart.x_axis]],
    ['y_axis', chart.y_axis ?? []],
    ['series', chart.series ? [chart.series] : []],
  ] as const) {
    for (const c of cols)
      if (!outputNames.includes(c)) err(['chart', key], `"${c}" is not a column of the result (${outputNames.join(', ')})`);
  }

  const filterRules: Record<string, FilterRule> = {};
  for (const d of filterDims) {
    if (!d) continue;
    filterRules[d.def.name] = {
      name: d.def.name,
      label: plainText(d.def.title) ?? humanize(d.def.name),
      ...(d.def.case ? { case: d.def.case } : {}),
      ...(d.def.values ? { values: d.def.values } : {}),
      ...(d.def.pattern ? { pattern: new RegExp(d.def.pattern) } : {}),
    };
  }
  const ratios: RatioInfo[] = [];
  for (const ref of columns) {
    const m = measureInfo(ref).def;
    const r = m.type === 'number' ? RATIO.exec(m.sql ?? '') : null;
    if (r) {
      const short = (x: string) => x.split('.').pop()!;
      ratios.push({ name: m.name, numerator: short(r[2]), denominator: short(r[3] ?? r[4]), ...(r[1] ? { scale: Number(r[1]) } : {}) });
    }
  }

  return {
    code: def.code,
    name,
    description: def.description ?? '',
    kind,
    granularities,
    ...(defaultGranularity ? { defaultGranularity } : {}),
    filters: filterDims.filter((d): d is DimensionInfo => Boolean(d)).map((d) => d.def.name),
    filterRules,
    ...(limit ? { limit } : {}),
    chart,
    measures: measureColumns,
    dimensions: dimensionColumns,
    ratios,
    synonyms: synonymsIn(def.synonyms),
    ...(def.synonyms && !Array.isArray(def.synonyms) ? { localizedSynonyms: def.synonyms } : {}),
    localizedTitles,
    tables: [...tables.values()],
    plan: { facts, numbers, headline: headline.name },
  };
}
