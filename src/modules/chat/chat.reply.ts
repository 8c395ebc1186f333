// The sentence or two that states an insight's result, with the engine's own figures: total,
// change, best and worst period for a series; the leader and its share for a breakdown; value and
// change for a KPI. Nothing here computes a figure the rows do not hold, except sums and ratios
// of their columns.
import type { ExecuteResult } from '../insights/insights.service.ts';
import { addDays, addPeriods } from '../../semantic/periods.ts';
import type { Granularity, InsightDefinition } from '../../semantic/types.ts';
import type { StructuredQuery } from './parser/index.ts';
import type { Refusal } from './parser/refusals.ts';

type Row = ExecuteResult['rows'][number];

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const intFmt = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const moneyFmt = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const pctFmt = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

function format(value: unknown, type: string | undefined): string {
  const n = Number(value ?? 0);
  if (type === 'money') return moneyFmt.format(n);
  if (type === 'percent') return `${pctFmt.format(n)} %`;
  if (type === 'integer') return intFmt.format(n);
  return pctFmt.format(n);
}

const signed = (pct: number) => `${pct > 0 ? '+' : ''}${pctFmt.format(pct)} %`;

/** "A and B", "A, B and C". */
const and = (xs: string[]) => (xs.length > 1 ? `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}` : xs[0] ?? '');
const list = (v: string | string[]) => (typeof v === 'string' ? [v] : v);

function countryName(code: string): string {
  try {
    const name = regionNames.of(code) ?? code;
    return name !== code ? `${name} (${code})` : code;
  } catch {
    // an unknown code reads as itself
    return code;
  }
}

export function describeFilters(filters: Record<string, string | string[]>): string {
  const parts: string[] = [];
  if (filters.country) parts.push(`in ${and(list(filters.country).map(countryName))}`);
  if (filters.channel) parts.push(`on the ${and(list(filters.channel))} channel${list(filters.channel).length > 1 ? 's' : ''}`);
  if (filters.category) parts.push(`in the ${and(list(filters.category))} categor${list(filters.category).length > 1 ? 'ies' : 'y'}`);
  // A model's own filters read as "plan Enterprise".
  for (const [name, value] of Object.entries(filters)) if (!['country', 'channel', 'category'].includes(name)) parts.push(`for ${name.replace(/_/g, ' ')} ${and(list(value))}`);
  return parts.length ? ` ${parts.join(', ')}` : '';
}

/** "up 12.4 % on last year (2025-01-01 to 2025-04-15: 1,234.00)", or why there is no change. */
function changeWords(pct: unknown, against: string, previous: string, period?: string): string {
  const figure = period ? `${period}: ${previous}` : previous;
  if (pct === null || pct === undefined) return `against ${previous} ${against}${period ? ` (${period})` : ''}, so there is no percentage change`;
  const n = Number(pct);
  const how = n > 0 ? `up ${pctFmt.format(n)} %` : n < 0 ? `down ${pctFmt.format(-n)} %` : 'unchanged';
  return `${how} on ${against} (${figure})`;
}

const AGAINST: Record<string, string> = { previous_year: 'last year', previous_period: 'the previous period' };

const PERIOD_WORD: Record<string, string> = { day: 'day', week: 'week', month: 'month', quarter: 'quarter', year: 'year' };

export function composeReply(result: ExecuteResult, def: InsightDefinition | undefined, notes: string[]): string {
  // "Revenue KPI" reads as "Revenue" in a sentence.
  const scope = `${result.insight_name.replace(/ KPI$/, '')}${describeFilters(result.filters)} from ${result.period.from} to ${result.period.to}`;
  const typeOf = (name: string) => result.columns.find((c) => c.name === name)?.type;
  const measure = result.chart_hint.y_axis?.[0] ?? result.columns.find((c) => !['date', 'string'].includes(c.type))?.name ?? '';
  let text: string;

  const measureCols = result.columns.filter((c) => !['date', 'string'].includes(c.type) && !c.name.endsWith('_previous') && !c.name.endsWith('_change_pct') && !c.name.startsWith('previous_') && c.name !== 'change' && c.name !== 'change_pct');
  const nothing = result.rows.every((r) => measureCols.every((c) => r[c.name] === null || Number(r[c.name]) === 0));
  if (result.rows.length === 0 || nothing) {
    // A filter value with no rows is an answer, with the filter kept: "no revenue in Japan".
    text = `No ${result.insight_name.replace(/ KPI$/, '').toLowerCase()}${describeFilters(result.filters)} from ${result.period.from} to ${result.period.to}: the data has none for this selection.`;
  } else if (def?.kind === 'kpi') {
    const r = result.rows[0];
    const t = typeOf('value');
    if (result.compare) {
      text = `${scope}: ${format(r.value, t)}, ${changeWords(r.change_pct, AGAINST[result.compare], format(r.previous_value, t), `${r.previous_period_from} to ${r.previous_period_to}`)}.`;
    } else {
      const change = r.change_pct === null || r.change_pct === undefined
        ? `the previous period (${r.previous_period_from} to ${r.previous_period_to}) had ${format(r.previous_value, t)}, so there is no percentage change`
        : `${signed(Number(r.change_pct))} on the previous period (${r.previous_period_from} to ${r.previous_period_to}: ${format(r.previous_value, t)})`;
      text = `${scope}: ${format(r.value, t)}, ${change}.`;
    }
  } else if (def?.kind === 'breakdown' || def?.kind === 'top') {
    const dim = result.chart_hint.x_axis;
    const t = typeOf(measure);
    const total = result.rows.reduce((s, r) => s + Number(r[measure] ?? 0), 0);
    const top = result.rows[0];
    const share = total > 0 ? ` (${pctFmt.format((100 * Number(top[measure] ?? 0)) / total)} % of the ${format(total, t)} shown)` : '';
    const label = (r: Row) => String(r[dim] ?? r[result.columns[0].name]) + (dim === 'product_name' && r.category ? ` (${r.category})` : '');
    const rest = result.rows.length > 1 ? `; last of the ${result.rows.length} listed is ${label(result.rows.at(-1)!)} with ${format(result.rows.at(-1)![measure], t)}` : '';
    text = `${scope}: ${label(top)} leads with ${format(top[measure], t)} ${measure}${share}${rest}.`;
    if (result.compare && result.previous_period) {
      const period = `${result.previous_period.from} to ${result.previous_period.to}`;
      text += ` ${label(top)} is ${changeWords(top[`${measure}_change_pct`], AGAINST[result.compare], format(top[`${measure}_previous`], t), period)}.`;
    }
  } else if (result.chart_hint.series) {
    text = seriesPerValue(result, def, measure, typeOf(measure), scope);
  } else {
    text = seriesSentence(result, def, measure, typeOf(measure), scope);
    if (result.compare) text += ` ${lastCompared(result, measure, typeOf(measure))}`;
  }
  if (notes.length) text += ` Note: ${notes.join('; ')}.`;
  return text;
}

/** "total 1,234.00", or for a rate "overall 3.2 %": the ratio of the sums, never the average of the rates. */
function overallOf(rows: readonly Row[], def: InsightDefinition | undefined, measure: string, type: string | undefined): string {
  const ratio = def?.ratios.find((r) => r.name === measure);
  const sum = (col: string) => rows.reduce((s, r) => s + Number(r[col] ?? 0), 0);
  if (ratio) {
    const d = sum(ratio.denominator);
    return `overall ${format(d === 0 ? 0 : (sum(ratio.numerator) / d) * (ratio.scale ?? 1), type)}`;
  }
  return `total ${format(sum(measure), type)}`;
}

function seriesSentence(result: ExecuteResult, def: InsightDefinition | undefined, measure: string, type: string | undefined, scope: string): string {
  const rows = result.rows;
  const overall = overallOf(rows, def, measure, type);
  const g = (result.granularity ?? 'day') as Granularity;
  const word = PERIOD_WORD[g] ?? 'period';
  if (rows.length === 1) return `${scope}: ${overall}.`;
  // A period cut by the window (the week the window starts in, the month still running) would
  // always look worst and distort the change, so both are read over complete periods when there are two.
  const complete = rows.filter((r) => String(r.period) >= result.period.from && addDays(addPeriods(String(r.period), g, 1), -1) <= result.period.to);
  const basis = complete.length >= 2 ? complete : rows;
  const full = basis === complete && complete.length < rows.length ? `full ${word}` : word;
  // For a refund rate, lower is better.
  const better = (a: number, b: number) => (def?.code === 'refund_rate' ? a < b : a > b);
  let best = basis[0];
  let worst = basis[0];
  for (const r of basis) {
    if (better(Number(r[measure]), Number(best[measure]))) best = r;
    if (better(Number(worst[measure]), Number(r[measure]))) worst = r;
  }
  const first = Number(basis[0][measure] ?? 0);
  const last = Number(basis.at(-1)![measure] ?? 0);
  const change = first === 0 ? '' : `, ${signed(((last - first) / first) * 100)} from the first ${full} (${basis[0].period}) to the last (${basis.at(-1)!.period})`;
  return `${scope} by ${word}: ${overall}${change}. Best ${full}: ${best.period} (${format(best[measure], type)}); worst: ${worst.period} (${format(worst[measure], type)}).`;
}

/** The last period of a compared series against its counterpart (a period with none says so). */
function lastCompared(result: ExecuteResult, measure: string, type: string | undefined, rows = result.rows): string {
  const last = rows.at(-1)!;
  const against = AGAINST[result.compare!];
  const word = PERIOD_WORD[result.granularity ?? 'day'] ?? 'period';
  if (last[`${measure}_previous`] === null) return `The last ${word} (${last.period}) has no counterpart ${against === 'last year' ? 'a year before' : 'before it'}.`;
  return `The last ${word} (${last.period}): ${format(last[measure], type)}, ${changeWords(last[`${measure}_change_pct`], against, format(last[`${measure}_previous`], type))}.`;
}

/** A series per filter value ("Spain vs Italy by week"): each value's own total, and with compare its last period. */
function seriesPerValue(result: ExecuteResult, def: InsightDefinition | undefined, measure: string, type: string | undefined, scope: string): string {
  const dim = result.chart_hint.series!;
  const values = [...new Set(result.rows.map((r) => String(r[dim])))];
  const parts = values.map((v) => {
    const rows = result.rows.filter((r) => String(r[dim]) === v);
    const label = dim === 'country' ? countryName(v) : v;
    const compared = result.compare ? `; ${lastCompared(result, measure, type, rows).replace(/^The /, 'the ').replace(/\.$/, '')}` : '';
    return `${label}: ${overallOf(rows, def, measure, type)}${compared}`;
  });
  return `${scope} by ${PERIOD_WORD[result.granularity ?? 'day'] ?? 'period'}, per ${dim.replace(/_/g, ' ')}. ${parts.join('. ')}.`;
}

/** "a, b, c or d". */
const or = (xs: string[]) => (xs.length > 1 ? `${xs.slice(0, -1).join(', ')} or ${xs.at(-1)}` : xs[0] ?? '');

/**
 * The answer to a question the model cannot answer: what is missing, in the question's words, and
 * the closest things that can be asked, as sentences and as structured queries (no figures at all).
 */
export function refusalReply(
  refusal: Refusal,
  range: { from: string; to: string } | undefined,
  insights: readonly InsightDefinition[],
  today: string,
): { text: string; alternatives: StructuredQuery[] } {
  const lower = (s: string) => (s === s.toUpperCase() ? s : s.charAt(0).toLowerCase() + s.slice(1));
  const series = insights.filter((d) => d.kind === 'timeseries');
  const measures = [...new Set(series.map((d) => lower(d.name)))].slice(0, 6);
  const grouping = (d: InsightDefinition) => d.dimensions.find((x) => x.name === d.chart.x_axis) ?? d.dimensions[0];
  const dims = [...new Set(insights.flatMap((d) => (d.kind === 'breakdown' || d.kind === 'top') && grouping(d) ? [grouping(d)!.label.toLowerCase()] : []))];
  const finest = ['day', 'week', 'month', 'quarter', 'year'].find((g) => insights.some((d) => (d.granularities as string[]).includes(g)));
  const top3 = (list: readonly InsightDefinition[]) => list.slice(0, 3).map((d): StructuredQuery => ({ insight_code: d.code }));
  switch (refusal.reason) {
    case 'measure':
      return { text: `I have no ${refusal.term} in this data model, so I cannot answer that. I can show ${or(measures)}.`, alternatives: top3(series) };
    case 'dimension':
      return {
        text: `I cannot break this down by ${refusal.term}: the data model has no ${refusal.term.replace(/s$/, '')}. I can break it down by ${or(dims)}${finest ? `, or show it by ${finest} or longer periods` : ''}.`,
        alternatives: top3(insights.filter((d) => d.kind === 'breakdown' || d.kind === 'top')),
      };
    case 'granularity':
      return {
        text: `I cannot show it by ${refusal.term.replace(/ly$/, '')}: the finest period I have is a ${finest ?? 'day'}.`,
        alternatives: top3(series).map((q) => ({ ...q, granularity: (finest ?? 'day') as StructuredQuery['granularity'] })),
      };
    case 'future': {
      const when = range ? ` (from ${range.from})` : '';
      return { text: `"${refusal.term}"${when} has not happened yet: I report what the data holds, up to today (${today}), and make no forecasts.`, alternatives: top3(series) };
    }
  }
}

/** A question of each kind, in the model's words: what the parser reads back as that insight. */
export function examples(insights: readonly InsightDefinition[]): string[] {
  const first = (kind: InsightDefinition['kind']) => insights.find((d) => d.kind === kind);
  const out: string[] = [];
  const series = first('timeseries');
  if (series) out.push(`${series.name} by ${series.granularities.includes('week') ? 'week' : series.granularities[0] ?? 'month'} in the last 3 months`);
  const top = first('top');
  if (top) out.push(`${top.name.replace(/^top /i, 'Top 5 ')} last month`);
  const breakdown = first('breakdown');
  if (breakdown) out.push(`${breakdown.name} this year`);
  const kpi = first('kpi');
  const title = kpi ? kpi.chart.title ?? kpi.name : '';
  // "Total revenue", but "Total MRR".
  if (kpi) out.push(`Total ${title === title.toUpperCase() ? title : title.charAt(0).toLowerCase() + title.slice(1)} last month`);
  return out;
}

function granularities(insights: readonly InsightDefinition[]): string {
  const all = ['day', 'week', 'month', 'quarter', 'year'].filter((g) => insights.some((d) => (d.granularities as string[]).includes(g)));
  return all.length > 1 ? `${all.slice(0, -1).join(', ')} or ${all.at(-1)}` : all[0] ?? 'period';
}

/** What can be asked: the model's insights, its filters with values from the tenant's data, periods. */
export function helpReply(insights: readonly InsightDefinition[], filters: readonly { name: string }[], values: Readonly<Record<string, readonly string[]>>): string {
  const filterText = filters
    .map(({ name }) => {
      const known = values[name] ?? [];
      const shown = known.slice(0, 5).join(', ');
      return `${name.replace(/_/g, ' ')}${shown ? ` (${shown}${known.length > 5 ? ', …' : ''})` : ''}`;
    })
    .join(', ');
  return (
    'I could not match that question to the data I can query. ' +
    `I can answer questions about: ${insights.map((d) => d.name).join(', ')}${filterText ? ` — filtered by ${filterText}` : ''}, ` +
    `for a period such as "last 7 days", "last quarter", "in 2025" or "since March", by ${granularities(insights)}. ` +
    `For example: ${examples(insights).map((e) => `"${e}"`).join(', ')}.`
  );
}
