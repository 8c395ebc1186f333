// Resolves each insight of the model against its cubes into a query plan: which cubes' measures
// it aggregates (one "fact" per cube, so a many_to_one join never multiplies rows), how each fact
// reaches the time dimension, the filters and the grouping dimensions, and the output columns.
import { humanize, leafMeasures, type CubeInfo, type DimensionInfo } from './cubes.ts';
import { issueAt, type ModelIssue, type ModelSource, type PathPart } from './issues.ts';
import { plainText, synonymsIn, type InsightDef, type ModelLanguage } from './model.schema.ts';
import { planFacts, refOf, type Err, type FactInputs, type References } from './resolve-facts.ts';
import { resolveCohort } from './resolve-cohort.ts';
import { filterRules, lookup, resolveFilters, resolveTimeDimensions } from './resolve-members.ts';
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

const DEFAULT_CHART: Record<InsightDef['kind'], ChartDefault['type']> = {
  timeseries: 'line',
  breakdown: 'bar',
  top: 'table',
  kpi: 'kpi',
  cohort: 'table',
};

export function measureType(m: { type: string; format?: string }): ColumnType {
  if (m.format) return m.format as ColumnType;
  return m.type === 'count' || m.type === 'count_distinct' ? 'integer' : 'number';
}

export function dimensionType(d: DimensionInfo['def']): ColumnType {
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

const measureInfoOf = (cubes: Map<string, CubeInfo>, ref: string) => cubes.get(ref.split('.')[0])?.measures.get(ref.split('.')[1]);

/** The references of an insight whose shape is wrong, for the keys that are right. */
function checkReferences(def: InsightDef, cubes: Map<string, CubeInfo>, broken: Set<string>, err: Err): void {
  const find = lookup(cubes, err);
  const list = (
    key: 'measures' | 'dimensions' | 'filters' | 'segments' | 'time_dimension' | 'dimension' | 'entity',
    check: (ref: string, p: PathPart[]) => unknown,
  ) => {
    const v = def[key];
    if (broken.has(key) || v === undefined) return;
    if (Array.isArray(v)) v.forEach((ref, i) => check(ref, [key, i]));
    else check(v, [key]);
  };
  list('measures', find.measure);
  list('entity', find.dimension);
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
  if (def.kind === 'cohort') return resolveCohort(def, cubes, err, lookup(cubes, err));
  if (!def.measures) return void err(['measures'], `a ${def.kind} insight needs measures`);
  if (def.entity !== undefined) err(['entity'], 'only a cohort insight follows an entity');
  if (def.granularity !== undefined) err(['granularity'], 'is for cohort insights (did you mean granularities?)');
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
    filterRefs: Object.fromEntries(refs.filterDims.filter((d): d is DimensionInfo => Boolean(d)).map((d) => [d.def.name, refOf(d)])),
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
function resolveMeasures({ def, cubes, find, err }: Step): Pick<References, 'used' | 'columns' | 'leaves'> {
  const named: string[] = [];
  def.measures!.forEach((ref, i) => {
    if (find.measure(ref, ['measures', i])) named.push(ref);
  });
  // The other references are still checked when a measure is wrong: every problem at once.
  const used = def.kind === 'kpi' ? named.slice(0, 1) : named;
  // A moving window needs periods: only a time series groups by them.
  if (def.kind !== 'timeseries') {
    def.measures!.forEach((ref, i) => {
      const rolling = (leafMeasures(ref, cubes, new Set()) ?? []).find((l) => measureInfoOf(cubes, l)?.rolling);
      if (rolling)
        err(
          ['measures', i],
          `${rolling} is a rolling measure (rolling_window): it needs periods, and a ${def.kind} insight has none; ` +
            `use a timeseries insight`,
        );
    });
  }
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

/** Number measures ("cube.measure"), parts before the measures computed from them. */
export function numberPlan({ measureInfo }: Pick<Step, 'measureInfo'>, used: string[]): { name: string; tokens: NumberToken[] }[] {
  const numbers: { name: string; tokens: NumberToken[] }[] = [];
  const addNumber = (ref: string) => {
    const m = measureInfo(ref);
    if (!m.tokens || numbers.some((n) => n.name === ref)) return;
    for (const t of m.tokens) if (typeof t !== 'string') addNumber(t.measure);
    numbers.push({ name: ref, tokens: m.tokens });
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
      ref,
      type: measureType(m),
      label: plainText(m.title) ?? humanize(m.name),
      ...(m.currency && measureType(m) === 'money' ? { currency: m.currency } : {}),
      ...(m.decimals !== undefined ? { decimals: m.decimals } : {}),
    };
  });
  for (const d of [...keys, ...filterDims]) if (d?.def.title && typeof d.def.title === 'object') localizedTitles[d.def.name] = d.def.title;
  const dimensions: OutputColumn[] = keys
    .filter((d): d is DimensionInfo => Boolean(d))
    .map((d) => ({ name: d.def.name, ref: refOf(d), type: dimensionType(d.def), label: plainText(d.def.title) ?? humanize(d.def.name) }));
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
