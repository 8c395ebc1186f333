// The sentence or two that states an insight's result, with the engine's own figures: total,
// change, best and worst period for a series; the leader and its share for a breakdown; value and
// change for a KPI. Nothing here computes a figure the rows do not hold, except sums and ratios
// of their columns.
import type { ExecuteResult } from '../insights/insights.service.ts';
import { filterValues } from '../../semantic/query/insight-query.ts';
import { addDays, addPeriods } from '../../semantic/periods.ts';
import type { Granularity, InsightDefinition } from '../../semantic/types.ts';
import type { StructuredQuery } from './parser/index.ts';
import type { Refusal } from './parser/refusals.ts';
import type { Language } from './language/languages.ts';
import { phrases, type Phrases, type Unit } from './language/phrases.ts';

type Row = ExecuteResult['rows'][number];

export function describeFilters(filters: Record<string, string | string[]>, p: Phrases = phrases('en')): string {
  const parts: string[] = [];
  if (filters.country) parts.push(p.filters.country(p.and(filterValues(filters.country).map((c) => p.country(c)))));
  if (filters.channel) parts.push(p.filters.channel(p.and(filterValues(filters.channel)), filterValues(filters.channel).length > 1));
  if (filters.category) parts.push(p.filters.category(p.and(filterValues(filters.category)), filterValues(filters.category).length > 1));
  // A model's own filters read as "plan Enterprise".
  for (const [name, value] of Object.entries(filters))
    if (!['country', 'channel', 'category'].includes(name))
      parts.push(p.filters.other(name.replace(/_/g, ' '), p.and(filterValues(value))));
  return parts.length ? ` ${parts.join(', ')}` : '';
}

const pct = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * The insight's name in the reply's language: the headline measure's title there ("Umsatz nach Land" for a
 * breakdown), else the model's name.
 */
function insightName(def: InsightDefinition, p: Phrases, english = def.name.replace(/ KPI$/, '')): string {
  if (p.language === 'en') return english;
  // "Rückerstattungsquote (%)" names the column; in a sentence it is "Rückerstattungsquote".
  const measure = def.localizedTitles[def.plan.headline]?.[p.language]?.replace(/\s*\(%\)$/, '');
  if (!measure) return english;
  if (def.kind !== 'breakdown' && def.kind !== 'top') return measure;
  const dim = def.dimensions.find((x) => x.name === def.chart.x_axis) ?? def.dimensions[0];
  const dimTitle = dim && def.localizedTitles[dim.name]?.[p.language];
  return dimTitle ? p.byDimension(measure, dimTitle) : measure;
}

function nameIn(result: ExecuteResult, def: InsightDefinition | undefined, p: Phrases): string {
  // "Revenue KPI" reads as "Revenue" in a sentence.
  const english = result.insight_name.replace(/ KPI$/, '');
  return def ? insightName(def, p, english) : english;
}

/** A measure as the reply names it: its column name in English (as replies always did), its title elsewhere. */
function measureIn(measure: string, def: InsightDefinition | undefined, p: Phrases): string {
  if (p.language === 'en') return measure;
  return def?.localizedTitles[measure]?.[p.language] ?? def?.measures.find((m) => m.name === measure)?.label ?? measure;
}

export function composeReply(
  result: ExecuteResult,
  def: InsightDefinition | undefined,
  notes: string[],
  language: Language = 'en',
): string {
  const p = phrases(language);
  const name = nameIn(result, def, p);
  const filters = describeFilters(result.filters, p);
  const scope = p.scope(name, filters, p.date(result.period.from), p.date(result.period.to));
  // The column, not only its type: money reads in its currency (docs/model.md "currency").
  const typeOf = (col: string) => result.columns.find((c) => c.name === col);
  const measure = result.chart_hint.y_axis?.[0] ?? result.columns.find((c) => !['date', 'string'].includes(c.type))?.name ?? '';
  const fmt = (v: unknown, t: Unit | undefined) => p.number(Number(v ?? 0), t);
  let text: string;

  const measureCols = result.columns.filter(
    (c) =>
      !['date', 'string'].includes(c.type) &&
      !c.name.endsWith('_previous') &&
      !c.name.endsWith('_change_pct') &&
      !c.name.startsWith('previous_') &&
      c.name !== 'change' &&
      c.name !== 'change_pct',
  );
  const nothing = result.rows.every((r) => measureCols.every((c) => r[c.name] === null || Number(r[c.name]) === 0));
  if (result.rows.length === 0 || nothing) {
    // A filter value with no rows is an answer, with the filter kept: "no revenue in Japan".
    text = p.noData(name, filters, p.date(result.period.from), p.date(result.period.to));
  } else if (def?.kind === 'cohort') {
    text = `${scope}${p.colon}${cohortSentence(result, p)}.`;
  } else if (def?.kind === 'kpi') {
    const r = result.rows[0];
    const t = typeOf('value');
    const [from, to] = [String(r.previous_period_from), String(r.previous_period_to)];
    text = result.compare
      ? `${scope}${p.colon}${fmt(r.value, t)}, ` +
        `${p.change(pct(r.change_pct), p.against[result.compare], fmt(r.previous_value, t), p.span(from, to))}.`
      : `${scope}${p.colon}${fmt(r.value, t)}, ${p.kpiPrevious(pct(r.change_pct), p.date(from), p.date(to), fmt(r.previous_value, t))}.`;
  } else if (def?.kind === 'breakdown' || def?.kind === 'top') {
    const dim = result.chart_hint.x_axis;
    const t = typeOf(measure);
    const total = result.rows.reduce((s, r) => s + Number(r[measure] ?? 0), 0);
    const top = result.rows[0];
    const share = total > 0 ? p.share(p.percent((100 * Number(top[measure] ?? 0)) / total), fmt(total, t)) : undefined;
    const label = (r: Row) =>
      String(r[dim] ?? r[result.columns[0].name]) + (dim === 'product_name' && r.category ? ` (${r.category})` : '');
    const lastRow = result.rows.at(-1)!;
    const last = result.rows.length > 1 ? { label: label(lastRow), value: fmt(lastRow[measure], t), count: result.rows.length } : undefined;
    text = `${scope}${p.colon}${p.leader(label(top), fmt(top[measure], t), measureIn(measure, def, p), share, last)}.`;
    if (result.compare && result.previous_period) {
      const period = p.span(result.previous_period.from, result.previous_period.to);
      const change = p.change(pct(top[`${measure}_change_pct`]), p.against[result.compare], fmt(top[`${measure}_previous`], t), period);
      text += ` ${p.leaderChange(label(top), change)}`;
    }
  } else if (result.chart_hint.series) {
    text = seriesPerValue(result, def, measure, typeOf(measure), scope, p);
  } else {
    text = seriesSentence(result, def, measure, typeOf(measure), scope, p);
    if (result.compare) text += ` ${lastCompared(result, measure, typeOf(measure), p)}`;
  }
  if (notes.length) text += p.note(notes);
  return text;
}

/** A retention triangle: its cohorts, and the best and worst kept one period after their start (cells of the rows). */
function cohortSentence(result: ExecuteResult, p: Phrases): string {
  const t = result.columns.find((c) => c.name === 'retention');
  const starts = result.rows.filter((r) => r.period === 0);
  const next = result.rows.filter((r) => r.period === 1).sort((a, b) => Number(b.retention) - Number(a.retention));
  const d = (x: unknown) => p.date(String(x));
  const kept = (r: Row) => p.cohortKept(d(r.cohort), p.number(Number(r.retention), t), p.number(Number(r.size), undefined));
  return p.cohorts(
    d(starts[0].cohort),
    d(starts.at(-1)!.cohort),
    next.length ? kept(next[0]) : undefined,
    next.length > 1 ? kept(next.at(-1)!) : undefined,
  );
}

/** "total 1,234.00", or for a rate "overall 3.2 %": the ratio of the sums, never the average of the rates. */
function overallOf(rows: readonly Row[], def: InsightDefinition | undefined, measure: string, type: Unit | undefined, p: Phrases): string {
  const ref = def?.measures.find((m) => m.name === measure)?.ref;
  if (ref && def?.plan.facts.some((f) => f.measures.some((m) => m.ref === ref && m.rolling))) {
    const last = rows.at(-1)!;
    return p.latest(p.number(Number(last[measure] ?? 0), type), p.date(String(last.period)));
  }
  const ratio = def?.ratios.find((r) => r.name === measure);
  const sum = (col: string) => rows.reduce((s, r) => s + Number(r[col] ?? 0), 0);
  if (ratio) {
    const d = sum(ratio.denominator);
    return p.overall(p.number(d === 0 ? 0 : (sum(ratio.numerator) / d) * (ratio.scale ?? 1), type));
  }
  return p.total(p.number(sum(measure), type));
}

function seriesSentence(
  result: ExecuteResult,
  def: InsightDefinition | undefined,
  measure: string,
  type: Unit | undefined,
  scope: string,
  p: Phrases,
): string {
  const rows = result.rows;
  const overall = overallOf(rows, def, measure, type, p);
  const g = (result.granularity ?? 'day') as Granularity;
  const word = p.period[g] ?? g;
  if (rows.length === 1) return `${scope}${p.colon}${overall}.`;
  // A period cut by the window (the week the window starts in, the month still running) would
  // always look worst and distort the change, so both are read over complete periods when there are two.
  // A period is complete when the next one starts at most the day after the window ends.
  const after = addDays(result.period.to, 1);
  const complete = rows.filter((r) => String(r.period) >= result.period.from && addPeriods(String(r.period), g, 1) <= after);
  const basis = complete.length >= 2 ? complete : rows;
  const full = basis === complete && complete.length < rows.length ? p.full(word) : p.unit(word);
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
  const signed = (v: number) => `${v > 0 ? '+' : ''}${p.percent(v)}`;
  const d = (x: unknown) => p.date(String(x));
  const change =
    first === 0 ? undefined : p.seriesChange(signed(((last - first) / first) * 100), full, d(basis[0].period), d(basis.at(-1)!.period));
  return p.series(
    scope,
    word,
    overall,
    change,
    p.bestWorst(
      full,
      d(best.period),
      p.number(Number(best[measure] ?? 0), type),
      d(worst.period),
      p.number(Number(worst[measure] ?? 0), type),
    ),
  );
}

/** The last period of a compared series against its counterpart (a period with none says so). */
function lastCompared(result: ExecuteResult, measure: string, type: Unit | undefined, p: Phrases, rows = result.rows): string {
  const last = rows.at(-1)!;
  const word = p.period[result.granularity ?? 'day'] ?? 'period';
  if (last[`${measure}_previous`] === null) return p.lastNone(word, p.date(String(last.period)), result.compare === 'previous_year');
  const change = p.change(
    pct(last[`${measure}_change_pct`]),
    p.against[result.compare!],
    p.number(Number(last[`${measure}_previous`] ?? 0), type),
  );
  return p.last(word, p.date(String(last.period)), p.number(Number(last[measure] ?? 0), type), change);
}

/** A series per filter value ("Spain vs Italy by week"): each value's own total, and with compare its last period. */
function seriesPerValue(
  result: ExecuteResult,
  def: InsightDefinition | undefined,
  measure: string,
  type: Unit | undefined,
  scope: string,
  p: Phrases,
): string {
  const dim = result.chart_hint.series!;
  const values = [...new Set(result.rows.map((r) => String(r[dim])))];
  const parts = values.map((v) => {
    const rows = result.rows.filter((r) => String(r[dim]) === v);
    const label = dim === 'country' ? p.country(v) : v;
    const compared = result.compare ? `; ${lastCompared(result, measure, type, p, rows).replace(/^The /, 'the ').replace(/\.$/, '')}` : '';
    return `${label}: ${overallOf(rows, def, measure, type, p)}${compared}`;
  });
  const dimension =
    p.language === 'en' ? dim.replace(/_/g, ' ') : (def?.localizedTitles[dim]?.[p.language] ?? def?.filterRules[dim]?.label ?? dim);
  return p.perValue(scope, p.period[result.granularity ?? 'day'] ?? 'period', dimension, parts);
}

/**
 * The answer to a question the model cannot answer: what is missing, in the question's words, and
 * the closest things that can be asked, as sentences and as structured queries (no figures at all).
 */
export function refusalReply(
  refusal: Refusal,
  range: { from: string; to: string } | undefined,
  insights: readonly InsightDefinition[],
  today: string,
  language: Language = 'en',
  /** The model's own measure and dimension titles: what is listed where the insights name none. */
  model: { measures: string[]; dims: string[] } = { measures: [], dims: [] },
): { text: string; alternatives: StructuredQuery[] } {
  const p = phrases(language);
  const lower = (s: string) => (s === s.toUpperCase() ? s : s.charAt(0).toLowerCase() + s.slice(1));
  const series = insights.filter((d) => d.kind === 'timeseries');
  const named = [...new Set(series.map((d) => lower(insightName(d, p, d.name))))].slice(0, 6);
  // Never an empty list: a model without series (or breakdowns) lists its own members.
  const measures = named.length ? named : model.measures.map(lower);
  const grouping = (d: InsightDefinition) => d.dimensions.find((x) => x.name === d.chart.x_axis) ?? d.dimensions[0];
  const dimTitle = (d: InsightDefinition) => {
    const g = grouping(d)!;
    const title = language === 'en' ? g.label : (d.localizedTitles[g.name]?.[language] ?? g.label);
    // German nouns keep their capital.
    return language === 'de' ? title : title.toLowerCase();
  };
  const grouped = [...new Set(insights.flatMap((d) => ((d.kind === 'breakdown' || d.kind === 'top') && grouping(d) ? [dimTitle(d)] : [])))];
  const dims = grouped.length ? grouped : model.dims.map((d) => (language === 'de' ? d : d.toLowerCase()));
  const finestCode = ['day', 'week', 'month', 'quarter', 'year'].find((g) =>
    insights.some((d) => (d.granularities as string[]).includes(g)),
  );
  const finest = finestCode ? p.period[finestCode] : undefined;
  const top3 = (list: readonly InsightDefinition[]) => list.slice(0, 3).map((d): StructuredQuery => ({ insight_code: d.code }));
  switch (refusal.reason) {
    case 'measure':
      return { text: p.refusal.measure(refusal.term, p.or(measures)), alternatives: top3(series) };
    case 'dimension':
      return {
        text: dims.length
          ? p.refusal.dimension(refusal.term, p.or(dims), finest)
          : p.refusal.dimension(refusal.term, finest ?? p.period.month, undefined),
        alternatives: top3(insights.filter((d) => d.kind === 'breakdown' || d.kind === 'top')),
      };
    case 'granularity':
      return {
        text: p.refusal.granularity(refusal.term, finest ?? p.period.day),
        alternatives: top3(series).map((q) => ({ ...q, granularity: (finestCode ?? 'day') as StructuredQuery['granularity'] })),
      };
    case 'future':
      return { text: p.refusal.future(refusal.term, range ? p.date(range.from) : undefined, p.date(today)), alternatives: top3(series) };
  }
}

/** A question of each kind, in the model's words: what the parser reads back as that insight. */
export function examples(insights: readonly InsightDefinition[]): string[] {
  const first = (kind: InsightDefinition['kind']) => insights.find((d) => d.kind === kind);
  const out: string[] = [];
  const series = first('timeseries');
  if (series)
    out.push(
      `${series.name} by ${series.granularities.includes('week') ? 'week' : (series.granularities[0] ?? 'month')} in the last 3 months`,
    );
  const top = first('top');
  if (top) out.push(`${top.name.replace(/^top /i, 'Top 5 ')} last month`);
  const breakdown = first('breakdown');
  if (breakdown) out.push(`${breakdown.name} this year`);
  const kpi = first('kpi');
  const title = kpi ? (kpi.chart.title ?? kpi.name) : '';
  // "Total revenue", but "Total MRR".
  if (kpi) out.push(`Total ${title === title.toUpperCase() ? title : title.charAt(0).toLowerCase() + title.slice(1)} last month`);
  return out;
}

function granularities(insights: readonly InsightDefinition[]): string {
  const all = ['day', 'week', 'month', 'quarter', 'year'].filter((g) => insights.some((d) => (d.granularities as string[]).includes(g)));
  return all.length > 1 ? `${all.slice(0, -1).join(', ')} or ${all.at(-1)}` : (all[0] ?? 'period');
}

/** What can be asked: the model's insights, its filters with values from the tenant's data, periods. */
export function helpReply(
  insights: readonly InsightDefinition[],
  filters: readonly { name: string }[],
  values: Readonly<Record<string, readonly string[]>>,
  language: Language = 'en',
): string {
  const p = phrases(language);
  // A filter by its title in the language where the model gives one.
  const filterName = (name: string) =>
    language === 'en'
      ? name.replace(/_/g, ' ')
      : (insights.map((d) => d.localizedTitles[name]?.[language]).find(Boolean) ?? name.replace(/_/g, ' '));
  const filterText = filters
    .map(({ name }) => {
      const known = values[name] ?? [];
      const shown = known.slice(0, 5).join(', ');
      return `${filterName(name)}${shown ? ` (${shown}${known.length > 5 ? ', …' : ''})` : ''}`;
    })
    .join(', ');
  const gs = ['day', 'week', 'month', 'quarter', 'year'].filter((g) => insights.some((d) => (d.granularities as string[]).includes(g)));
  const units = language === 'en' ? granularities(insights) : p.or(gs.map((g) => p.period[g]));
  // The examples stay English: the parser reads them in any language's question, and they name the model's insights.
  const names = language === 'en' ? insights.map((d) => d.name) : [...new Set(insights.map((d) => insightName(d, p)))];
  return p.help(
    names.join(', '),
    filterText,
    units,
    examples(insights)
      .map((e) => `"${e}"`)
      .join(', '),
  );
}
