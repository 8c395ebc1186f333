// The filter bar's state and its place in the URL (shareable, the back button steps through it):
// ?range=last_30_days | ?from=…&to=…, ?compare=previous_period, one parameter per filter dimension
// (?country=DE&country=FR: any of them). With none of these the bar starts from the dashboard's
// active preset; `?filters=none` is the bar cleared on purpose.
import type { FilterPreset, PresetFilters, Widget, Insight } from './types.ts';

export const RANGES = [
  ['last_7_days', 'Last 7 days'],
  ['last_30_days', 'Last 30 days'],
  ['this_month', 'This month'],
  ['last_month', 'Last month'],
  ['this_quarter', 'This quarter'],
  ['last_quarter', 'Last quarter'],
  ['year_to_date', 'Year to date'],
] as const;
export type Range = (typeof RANGES)[number][0];

export const COMPARES = [
  ['previous_period', 'Previous period'],
  ['previous_year', 'Same period last year'],
] as const;
export type Compare = (typeof COMPARES)[number][0];

export interface BarState {
  range?: Range;
  from?: string;
  to?: string;
  compare?: Compare;
  /** Filter dimension → the values picked (any of them). */
  values: Record<string, string[]>;
}

const RESERVED = new Set(['range', 'from', 'to', 'compare', 'filters']);
const isRange = (v: string | null): v is Range => RANGES.some(([r]) => r === v);
const isCompare = (v: string | null): v is Compare => COMPARES.some(([c]) => c === v);
const isDate = (v: string | null): v is string => !!v && /^\d{4}-\d{2}-\d{2}$/.test(v);

export const emptyState = (): BarState => ({ values: {} });

export function isEmpty(s: BarState): boolean {
  return !s.range && !s.from && !s.to && !s.compare && Object.values(s.values).every((v) => v.length === 0);
}

/** The bar's state in the URL, or undefined when the URL says nothing (the active preset applies). */
export function fromSearch(search: string): BarState | undefined {
  const q = new URLSearchParams(search);
  const s = emptyState();
  let said = q.get('filters') === 'none';
  const range = q.get('range');
  if (isRange(range)) [s.range, said] = [range, true];
  if (isDate(q.get('from'))) [s.from, said] = [q.get('from')!, true];
  if (isDate(q.get('to'))) [s.to, said] = [q.get('to')!, true];
  const compare = q.get('compare');
  if (isCompare(compare)) [s.compare, said] = [compare, true];
  for (const key of new Set(q.keys())) {
    if (RESERVED.has(key)) continue;
    const vs = q.getAll(key).filter(Boolean);
    if (vs.length) [s.values[key], said] = [vs, true];
  }
  return said ? s : undefined;
}

export function toSearch(s: BarState): string {
  const q = new URLSearchParams();
  if (s.range) q.set('range', s.range);
  else {
    if (s.from) q.set('from', s.from);
    if (s.to) q.set('to', s.to);
  }
  if (s.compare) q.set('compare', s.compare);
  for (const [k, vs] of Object.entries(s.values)) for (const v of vs) q.append(k, v);
  if ([...q.keys()].length === 0) q.set('filters', 'none');
  return `?${q.toString()}`;
}

const list = (v: unknown): string[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);

/** A saved preset as a bar state. */
export function fromPreset(p: FilterPreset): BarState {
  const { range, date_from, date_to, compare, granularity: _g, ...dims } = p.filters as PresetFilters & Record<string, unknown>;
  const s = emptyState();
  if (isRange(range ?? null)) s.range = range as Range;
  else {
    if (date_from) s.from = date_from;
    if (date_to) s.to = date_to;
  }
  if (isCompare(compare ?? null)) s.compare = compare as Compare;
  for (const [k, v] of Object.entries(dims)) if (list(v).length) s.values[k] = list(v);
  return s;
}

/** The bar state as preset filters (what PATCH global_filter_presets takes). */
export function toPresetFilters(s: BarState): PresetFilters {
  const f: Record<string, unknown> = {};
  if (s.range) f.range = s.range;
  else {
    if (s.from) f.date_from = s.from;
    if (s.to) f.date_to = s.to;
  }
  if (s.compare) f.compare = s.compare;
  for (const [k, vs] of Object.entries(s.values)) if (vs.length) f[k] = vs.length === 1 ? vs[0] : vs;
  return f as PresetFilters;
}

export function sameState(a: BarState, b: BarState): boolean {
  return toSearch(a) === toSearch(b);
}

/** Which of the bar's filters a widget takes: the insight must take it and the widget not opt out. */
export function appliesTo(
  w: Widget,
  insight: Insight | undefined,
  /** A query widget's: the filters whose dimension its measures reach. */
  queryFilters: string[] = [],
): { date: boolean; compare: boolean; dims: Set<string> } {
  const ignored = new Set(w.ignored_filters ?? []);
  if (w.data_source === 'live_insight' && w.query) {
    const timed = Boolean(w.query.time) && !ignored.has('date');
    return { date: timed, compare: timed && !ignored.has('compare'), dims: new Set(queryFilters.filter((f) => !ignored.has(f))) };
  }
  if (w.data_source !== 'live_insight' || !insight) return { date: false, compare: false, dims: new Set() };
  return {
    date: !ignored.has('date'),
    compare: !ignored.has('compare') && insight.parameters.includes('compare'),
    dims: new Set(insight.filters.filter((f) => !ignored.has(f))),
  };
}

/**
 * The refresh body of every live widget under the bar's state: the state replaces the active preset,
 * and the service skips what a widget's insight does not take or the widget ignores
 * (`dashboard_filters`), so widgets load without waiting for the catalog. Undefined state (the URL
 * says nothing): an empty body, the service applies the dashboard's active preset.
 */
export function refreshBody(s: BarState | undefined): Record<string, unknown> {
  if (!s) return {};
  const filters: Record<string, unknown> = {};
  if (s.range) filters.range = s.range;
  else {
    if (s.from) filters.date_from = s.from;
    if (s.to) filters.date_to = s.to;
  }
  if (s.compare) filters.compare = s.compare;
  for (const [k, vs] of Object.entries(s.values)) if (vs.length) filters[k] = vs;
  return { preset_id: null, dashboard_filters: true, filters };
}

export function rangeLabel(s: BarState): string {
  if (s.range) return RANGES.find(([r]) => r === s.range)![1];
  if (s.from || s.to) return `${s.from ?? '…'} – ${s.to ?? '…'}`;
  return "Each widget's own period";
}

const DAY = 86_400_000;
const iso = (d: Date) => d.toISOString().slice(0, 10);

/** The last day of the period that starts on `start` (a row's period of a time series). */
export function periodEnd(start: string, granularity: string | null | undefined): string {
  const d = new Date(`${start}T00:00:00Z`);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (granularity) {
    case 'week':
      return iso(new Date(d.getTime() + 6 * DAY));
    case 'month':
      return iso(new Date(Date.UTC(y, m + 1, 0)));
    case 'quarter':
      return iso(new Date(Date.UTC(y, m + 3, 0)));
    case 'year':
      return iso(new Date(Date.UTC(y, 12, 0)));
    default:
      return start;
  }
}

/**
 * The bar's state after a click on a value: a filter dimension narrows to that value; a period of
 * a time series becomes fixed dates. Undefined when the value is neither (a product name of a top list).
 */
export function pickState(
  s: BarState,
  pick: { column: string; value: string; series?: { column: string; value: string }; granularity?: string | null },
  dimensions: Set<string>,
): BarState | undefined {
  let next: BarState | undefined;
  if (dimensions.has(pick.column)) next = { ...s, values: { ...s.values, [pick.column]: [pick.value] } };
  else if (/^\d{4}-\d{2}-\d{2}$/.test(pick.value))
    next = { ...s, range: undefined, from: pick.value, to: periodEnd(pick.value, pick.granularity) };
  if (pick.series && dimensions.has(pick.series.column))
    next = { ...(next ?? s), values: { ...(next ?? s).values, [pick.series.column]: [pick.series.value] } };
  return next;
}

/** The PDF's query: the bar's state for the whole dashboard. */
export function pdfQuery(s: BarState): string {
  const q = new URLSearchParams();
  if (s.range) q.set('range', s.range);
  else {
    if (s.from) q.set('date_from', s.from);
    if (s.to) q.set('date_to', s.to);
  }
  if (s.compare) q.set('compare', s.compare);
  for (const [k, vs] of Object.entries(s.values)) for (const v of vs) q.append(k, v);
  const text = q.toString();
  return text ? `?${text}` : '';
}

/**
 * The query of a widget's read-only data (`GET …/widgets/{wid}/data`) under the bar's state: the same
 * state as the refresh body, with `preset_id=` (none) since the state replaces the active preset.
 * Undefined state (the URL says nothing): no query, the service applies the active preset.
 */
export function dataQuery(s: BarState | undefined): string {
  if (!s) return '';
  const q = pdfQuery(s);
  return q ? `${q}&preset_id=` : '?preset_id=';
}

/** The relative range whose window on `today` is exactly from–to (chat's "last month"), if any. */
export function rangeOf(from: string | null | undefined, to: string | null | undefined, today = iso(new Date())): Range | undefined {
  if (!from || !to) return undefined;
  const d = new Date(`${today}T00:00:00Z`);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const q = m - (m % 3);
  const windows: Record<Range, [string, string]> = {
    last_7_days: [iso(new Date(d.getTime() - 6 * DAY)), today],
    last_30_days: [iso(new Date(d.getTime() - 29 * DAY)), today],
    this_month: [iso(new Date(Date.UTC(y, m, 1))), today],
    last_month: [iso(new Date(Date.UTC(y, m - 1, 1))), iso(new Date(Date.UTC(y, m, 0)))],
    this_quarter: [iso(new Date(Date.UTC(y, q, 1))), today],
    last_quarter: [iso(new Date(Date.UTC(y, q - 3, 1))), iso(new Date(Date.UTC(y, q, 0)))],
    year_to_date: [iso(new Date(Date.UTC(y, 0, 1))), today],
  };
  return (Object.keys(windows) as Range[]).find((r) => windows[r][0] === from && windows[r][1] === to);
}
