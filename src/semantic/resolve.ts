// Resolves each insight of the model against its cubes into a query plan: which cubes' measures
// it aggregates (one "fact" per cube, so a many_to_one join never multiplies rows), how each fact
// reaches the time dimension, the filters and the grouping dimensions, and the output columns.
import { humanize, leafMeasures, type CubeInfo, type DimensionInfo } from './cubes.ts';
import { issueAt, type ModelIssue, type ModelSource, type PathPart } from './issues.ts';
import { plainText, synonymsIn, type InsightDef, type ModelLanguage } from './model.schema.ts';
import { planFacts, type Err, type FactInputs, type References } from './resolve-facts.ts';
import { didYouMean } from './shape.ts';
import {
  GRANULARITIES,
  type ChartDefault,
  type ColumnType,
  type FilterRule,
  type Granularity,
  type InsightDefinition,
  type NumberToken,
  type OutputColumn,
  type RatioInfo,
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

/** What every step of resolving one insight shares: its definition, the model, the lookups and the report. */
interface Step extends FactInputs {
  def: InsightDef;
  find: ReturnType<typeof lookup>;
}

function resolveInsight(def: InsightDef, cubes: Map<string, CubeInfo>, err: Err): InsightDefinition | undefined {
  const find = lookup(cubes, err);
  const measureInfo = (ref: string) => find.member(ref).cube!.measures.get(find.member(ref).name)!;
  const step: Step = { def, cubes, err, find, measureInfo };

  // Each step reports its problems in the order they are listed, so the order of the calls is the order of the report.
  const measures = resolveMeasures(step);
  const timeDims = resolveTimeDimensions(step);
  const grouping = resolveKeys(step);
  const filterDims = resolveFilters(step);
  const segments = (def.segments ?? []).map((ref, i) => find.segment(ref, ['segments', i]));
  const refs: References = { ...measures, timeDims, ...grouping, filterDims, segments };
  const { facts, tables } = planFacts(step, refs);
  const numbers = numberPlan(step, refs.used);
  const { granularities, defaultGranularity } = granularityRule(step);
  const limit = limitRule(step);
  const output = outputColumns(step, refs);
  const headline = output.measures[0];
  if (!headline) return undefined;
  const outputNames = resultColumns(def.kind, output);
  const dup = outputNames.find((n, i) => outputNames.indexOf(n) !== i);
  if (dup) err(['measures'], `two columns of the result are named ${dup}; rename one measure or dimension`);
  const name = def.name ?? humanize(def.code);
  const chart = chartDefault(step, name, headline, output.dimensions, outputNames);

  return {
    code: def.code,
    name,
    description: def.description ?? '',
    kind: def.kind,
    granularities,
    ...(defaultGranularity ? { defaultGranularity } : {}),
    filters: refs.filterDims.filter((d): d is DimensionInfo => Boolean(d)).map((d) => d.def.name),
    filterRules: filterRules(refs.filterDims),
    ...(limit ? { limit } : {}),
    chart,
    measures: output.measures,
    dimensions: output.dimensions,
    ratios: ratios(step, refs.columns),
    synonyms: synonymsIn(def.synonyms),
    ...(def.synonyms && !Array.isArray(def.synonyms) ? { localizedSynonyms: def.synonyms } : {}),
    localizedTitles: output.localizedTitles,
    tables: [...tables.values()],
    plan: { facts, numbers, headline: headline.name },
  };
}

/** Measures: the insight's own, then the parts its number measures are computed from. */
function resolveMeasures({ def, cubes, find }: Step): Pick<References, 'used' | 'columns' | 'leaves'> {
  const named: string[] = [];
  def.measures.forEach((ref, i) => {
    if (find.measure(ref, ['measures', i])) named.push(ref);
  });
  // The other references are still checked when a measure is wrong: every problem at once.
  const used = def.kind === 'kpi' ? named.slice(0, 1) : named;
  const columns: string[] = [...used];
  const leaves: string[] = [];
  for (const ref of used) {
    const parts = leafMeasures(ref, cubes, new Set()) ?? [];
    for (const l of parts) {
      if (!columns.includes(l)) columns.push(l);
      if (!leaves.includes(l)) leaves.push(l);
    }
  }
  return { used, columns, leaves };
}

/** Time dimensions: one per fact cube, reachable from it, or of the same name on it. */
function resolveTimeDimensions({ def, err, find }: Step): DimensionInfo[] {
  const timeRefs = Array.isArray(def.time_dimension) ? def.time_dimension : [def.time_dimension];
  const timeDims: DimensionInfo[] = [];
  timeRefs.forEach((ref, i) => {
    const p = Array.isArray(def.time_dimension) ? ['time_dimension', i] : ['time_dimension'];
    const d = find.dimension(ref, p);
    if (d && d.def.type !== 'time') err(p, `${ref} is a ${d.def.type} dimension, not a time dimension`);
    else if (d) timeDims.push(d);
  });
  return timeDims;
}

/** The grouping dimensions, and whether the insight's kind takes any. */
function resolveKeys({ def, err, find }: Step): Pick<References, 'keys' | 'keyPath'> {
  const kind = def.kind;
  const keyRefs = def.dimensions ?? (def.dimension ? [def.dimension] : []);
  const keyPath = (i: number): PathPart[] => (def.dimensions ? ['dimensions', i] : ['dimension']);
  if (def.dimension && def.dimensions) err(['dimensions'], 'give dimension or dimensions, not both');
  if ((kind === 'breakdown' || kind === 'top') && !keyRefs.length) err(['dimension'], `a ${kind} insight needs a dimension`);
  if ((kind === 'timeseries' || kind === 'kpi') && keyRefs.length)
    err([def.dimension ? 'dimension' : 'dimensions'], `a ${kind} insight groups by time only`);
  return { keys: keyRefs.map((ref, i) => find.dimension(ref, keyPath(i))), keyPath };
}

/** The filter dimensions: each a parameter of its own name, never a time dimension. */
function resolveFilters({ def, err, find }: Step): (DimensionInfo | undefined)[] {
  const filterDims = (def.filters ?? []).map((ref, i) => find.dimension(ref, ['filters', i]));
  const filterNames = new Set<string>();
  filterDims.forEach((d, i) => {
    if (!d) return;
    if (d.def.type === 'time') err(['filters', i], 'a time dimension is filtered by date_from and date_to');
    if (filterNames.has(d.def.name)) err(['filters', i], `two filters are named ${d.def.name}`);
    if (['granularity', 'date_from', 'date_to', 'limit'].includes(d.def.name))
      err(['filters', i], `"${d.def.name}" is an execute parameter of its own`);
    filterNames.add(d.def.name);
  });
  return filterDims;
}

/** Number measures, parts before the measures computed from them. */
function numberPlan({ measureInfo }: Step, used: string[]): { name: string; tokens: NumberToken[] }[] {
  const numbers: { name: string; tokens: NumberToken[] }[] = [];
  const addNumber = (ref: string) => {
    const m = measureInfo(ref);
    if (!m.tokens || numbers.some((n) => n.name === m.def.name)) return;
    for (const t of m.tokens) if (typeof t !== 'string') addNumber(t.measure);
    numbers.push({ name: m.def.name, tokens: m.tokens.map((t) => (typeof t === 'string' ? t : { measure: t.measure.split('.')[1] })) });
  };
  used.forEach(addNumber);
  return numbers;
}

/** The granularities a timeseries or kpi offers; the other kinds cover the whole window and take none. */
function granularityRule({ def, err }: Step): { granularities: Granularity[]; defaultGranularity?: Granularity } {
  const kind = def.kind;
  if (kind === 'timeseries' || kind === 'kpi') {
    const granularities = def.granularities ?? [...GRANULARITIES];
    const defaultGranularity = def.default_granularity ?? granularities[0];
    if (!granularities.includes(defaultGranularity))
      err(['default_granularity'], `must be one of its granularities (${granularities.join(', ')})`);
    if (def.default_limit !== undefined || def.max_limit !== undefined)
      err([def.default_limit !== undefined ? 'default_limit' : 'max_limit'], `a ${kind} insight takes no limit`);
    return { granularities, defaultGranularity };
  }
  if (def.granularities) err(['granularities'], `a ${kind} insight covers the whole window and takes no granularity`);
  if (def.default_granularity) err(['default_granularity'], `a ${kind} insight takes no granularity`);
  return { granularities: [] };
}

/** The row limit of a top or breakdown insight. */
function limitRule({ def, err }: Step): InsightDefinition['limit'] {
  const kind = def.kind;
  if (kind === 'top' || def.default_limit !== undefined || (kind === 'breakdown' && def.max_limit !== undefined)) {
    if (kind === 'breakdown' && def.default_limit === undefined) err(['max_limit'], 'a breakdown with a limit needs default_limit');
    const dflt = def.default_limit ?? 10;
    const max = def.max_limit ?? Math.max(100, dflt);
    if (dflt > max) err(['default_limit'], `must not exceed max_limit (${max})`);
    if (kind === 'breakdown' || kind === 'top') return { default: dflt, max };
  }
  return undefined;
}

interface Output {
  measures: OutputColumn[];
  dimensions: OutputColumn[];
  /** Titles given per language, by member name: chat writes its replies with them. */
  localizedTitles: Record<string, Partial<Record<ModelLanguage, string>>>;
}

/** The result's measure and dimension columns with their labels and number formats. */
function outputColumns({ measureInfo }: Step, { columns, keys, filterDims }: References): Output {
  const localizedTitles: Output['localizedTitles'] = {};
  const measures: OutputColumn[] = columns.map((ref) => {
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
  const dimensions: OutputColumn[] = keys
    .filter((d): d is DimensionInfo => Boolean(d))
    .map((d) => ({ name: d.def.name, type: dimensionType(d.def), label: plainText(d.def.title) ?? humanize(d.def.name) }));
  return { measures, dimensions, localizedTitles };
}

/** The names of the result's columns, in order, as the kind shapes them. */
function resultColumns(kind: InsightDef['kind'], output: Output): string[] {
  return kind === 'timeseries'
    ? ['period', ...output.measures.map((c) => c.name)]
    : kind === 'kpi'
      ? ['period_from', 'period_to', 'value', 'previous_period_from', 'previous_period_to', 'previous_value', 'change', 'change_pct']
      : [...output.dimensions.map((c) => c.name), ...output.measures.map((c) => c.name)];
}

/** The chart drawn by default; every column it names must be one of the result's. */
function chartDefault(
  { def, err }: Step,
  name: string,
  headline: OutputColumn,
  dimensions: OutputColumn[],
  outputNames: string[],
): ChartDefault {
  const kind = def.kind;
  const chart: ChartDefault = {
    type: def.chart?.type ?? DEFAULT_CHART[kind],
    x_axis:
      def.chart?.x_axis ?? (kind === 'timeseries' ? 'period' : kind === 'kpi' ? 'period_from' : (dimensions[0]?.name ?? outputNames[0])),
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
  return chart;
}

/** What a filter's values must look like (case, allowed values, pattern), by parameter name. */
function filterRules(filterDims: (DimensionInfo | undefined)[]): Record<string, FilterRule> {
  const rules: Record<string, FilterRule> = {};
  for (const d of filterDims) {
    if (!d) continue;
    rules[d.def.name] = {
      name: d.def.name,
      label: plainText(d.def.title) ?? humanize(d.def.name),
      ...(d.def.case ? { case: d.def.case } : {}),
      ...(d.def.values ? { values: d.def.values } : {}),
      ...(d.def.pattern ? { pattern: new RegExp(d.def.pattern) } : {}),
    };
  }
  return rules;
}

/** The number measures that are one measure over another (`{a} / NULLIF({b}, 0)`), for chat's answers. */
function ratios({ measureInfo }: Step, columns: string[]): RatioInfo[] {
  const out: RatioInfo[] = [];
  for (const ref of columns) {
    const m = measureInfo(ref).def;
    const r = m.type === 'number' ? RATIO.exec(m.sql ?? '') : null;
    if (r) {
      const short = (x: string) => x.split('.').pop()!;
      out.push({ name: m.name, numerator: short(r[2]), denominator: short(r[3] ?? r[4]), ...(r[1] ? { scale: Number(r[1]) } : {}) });
    }
  }
  return out;
}
