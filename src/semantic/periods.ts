// Calendar arithmetic on 'YYYY-MM-DD' UTC dates: bucket starts (ISO weeks from Monday, calendar
// months, quarters and years), default windows and the zero-filled list of periods.
import type { CompareKind, RelativeRange } from '../lib/chart.schemas.ts';
import type { Granularity, InsightKind } from './types.ts';

const DAY_MS = 86_400_000;

export function toDate(s: string): Date {
  return new Date(`${s}T00:00:00.000Z`);
}

export function fmt(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function isValidDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = toDate(s);
  return !Number.isNaN(d.getTime()) && fmt(d) === s;
}

export function addDays(s: string, n: number): string {
  return fmt(new Date(toDate(s).getTime() + n * DAY_MS));
}

export function daysBetween(from: string, to: string): number {
  return Math.round((toDate(to).getTime() - toDate(from).getTime()) / DAY_MS);
}

/** Adds months, keeping the day when it exists and clamping to the month's last day otherwise. */
export function addMonths(s: string, n: number): string {
  const d = toDate(s);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + n;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return fmt(new Date(Date.UTC(y, m, Math.min(d.getUTCDate(), last))));
}

export function bucketStart(s: string, g: Granularity): string {
  const d = toDate(s);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (g) {
    case 'day':
      return s;
    case 'week':
      return addDays(s, -((d.getUTCDay() + 6) % 7));
    case 'month':
      return fmt(new Date(Date.UTC(y, m, 1)));
    case 'quarter':
      return fmt(new Date(Date.UTC(y, m - (m % 3), 1)));
    case 'year':
      return fmt(new Date(Date.UTC(y, 0, 1)));
  }
}

export function addPeriods(s: string, g: Granularity, n: number): string {
  switch (g) {
    case 'day':
      return addDays(s, n);
    case 'week':
      return addDays(s, 7 * n);
    case 'month':
      return addMonths(s, n);
    case 'quarter':
      return addMonths(s, 3 * n);
    case 'year':
      return addMonths(s, 12 * n);
  }
}

/** Bucket starts covering [from, to], in order. */
export function periodStarts(from: string, to: string, g: Granularity): string[] {
  const out: string[] = [];
  for (let p = bucketStart(from, g); p <= to; p = addPeriods(p, g, 1)) out.push(p);
  return out;
}

/** How many periods a time series shows by default, ending with the current one. */
export const DEFAULT_PERIODS: Record<Granularity, number> = { day: 30, week: 12, month: 12, quarter: 8, year: 3 };
/** Breakdowns without dates cover the last 30 days. */
export const DEFAULT_BREAKDOWN_DAYS = 30;

export interface Window {
  from: string;
  to: string;
}

/**
 * The window when the caller gave no date_from: ending on `end` (date_to, else today).
 * timeseries: the last N whole periods (the current one partial); breakdown: the last 30 days;
 * kpi: the current period of the granularity up to `end` (month to date by default).
 */
export function defaultFrom(kind: InsightKind, g: Granularity | null, end: string): string {
  if (kind === 'breakdown' || !g) return addDays(end, -(DEFAULT_BREAKDOWN_DAYS - 1));
  if (kind === 'kpi') return bucketStart(end, g);
  return addPeriods(bucketStart(end, g), g, -(DEFAULT_PERIODS[g] - 1));
}

/**
 * The window a KPI compares with. For a period-to-date window (from = start of its period) the
 * same stretch of the previous period (1–21 Oct for 1–21 Nov), clamped to that period; otherwise the
 * window of equal length just before.
 */
export function previousWindow(w: Window, g: Granularity | null): Window {
  if (g && g !== 'day' && w.from === bucketStart(w.from, g) && w.to < addPeriods(w.from, g, 1)) {
    const from = addPeriods(w.from, g, -1);
    const lastOfPrev = addDays(w.from, -1);
    const shifted = addPeriods(w.to, g, -1);
    return { from, to: shifted < lastOfPrev ? shifted : lastOfPrev };
  }
  const len = daysBetween(w.from, w.to) + 1;
  return { from: addDays(w.from, -len), to: addDays(w.from, -1) };
}

// ---- Comparisons (compare=previous_period|previous_year, docs/insights.md "Comparisons") ----

/** The last day of the month of `s`. */
export function monthEnd(s: string): string {
  return addDays(addMonths(bucketStart(s, 'month'), 1), -1);
}

/** The Monday of ISO week 1 of ISO year `y` (the week holding 4 January). */
function isoWeekOne(y: number): string {
  return bucketStart(`${String(y).padStart(4, '0')}-01-04`, 'week');
}

/** ISO year and week of a date. */
export function isoWeek(s: string): { year: number; week: number } {
  // The Thursday of the date's week decides its ISO year.
  const thursday = addDays(bucketStart(s, 'week'), 3);
  const year = toDate(thursday).getUTCFullYear();
  return { year, week: daysBetween(isoWeekOne(year), bucketStart(s, 'week')) / 7 + 1 };
}

/** 52 or 53: the ISO weeks of ISO year `y` (28 December is always in its last week). */
export function isoWeeksIn(y: number): number {
  return isoWeek(`${String(y).padStart(4, '0')}-12-28`).week;
}

/**
 * The same date a year before: same month and day; 29 February becomes 28 February; the last day of
 * a month stays the last day of its month (28 Feb 2025 → 29 Feb 2024), so whole months stay whole.
 */
export function yearAgo(s: string): string {
  const back = addMonths(s, -12);
  return s === monthEnd(s) ? monthEnd(back) : back;
}

/**
 * The bucket a year before that lines up with bucket `start`: week n of the ISO year before (none
 * for week 53 when that year had 52), the same calendar day (none for 29 February), the same month,
 * quarter or year.
 */
export function yearAgoBucket(start: string, g: Granularity): string | null {
  if (g === 'week') {
    const { year, week } = isoWeek(start);
    return week > isoWeeksIn(year - 1) ? null : addDays(isoWeekOne(year - 1), 7 * (week - 1));
  }
  if (g === 'day') {
    const back = addMonths(start, -12);
    return back.slice(5) === start.slice(5) ? back : null;
  }
  return addMonths(start, -12);
}

export interface Comparison {
  kind: CompareKind;
  /** The window compared with: as long as the current one, with the same filters. */
  window: Window;
  /** Time series: each period of the window and the period it is compared with (null: none lines up). */
  periods?: { period: string; previous: string | null }[];
}

/** Whether a window is whole calendar months (1 Jan … 31 Mar). */
function wholeMonths(w: Window): boolean {
  return w.from === bucketStart(w.from, 'month') && w.to === monthEnd(w.to);
}

/**
 * What a window is compared with. A time series (granularity given) compares period by period:
 * previous_period shifts by as many periods as the window spans, previous_year by a year, aligned
 * as yearAgoBucket says; a partial first or last period is compared with the same stretch of its
 * counterpart. Without a time axis: previous_period is the window of equal length just before
 * (whole months: as many months before; a week, month, quarter or year so far: the same days of
 * the one before),
 * previous_year the same dates a year before.
 */
export function comparison(kind: CompareKind, w: Window, g: Granularity | null, series: boolean): Comparison {
  if (series && g) {
    const starts = periodStarts(w.from, w.to, g);
    const n = starts.length;
    const previousOf = (p: string) => (kind === 'previous_period' ? addPeriods(p, g, -n) : yearAgoBucket(p, g));
    // A date inside bucket b maps to the same offset inside b's counterpart, within that bucket.
    const shift = (d: string) => {
      const b = bucketStart(d, g);
      const pb = previousOf(b) ?? (g === 'week' ? addDays(b, -364) : yearAgo(b));
      const end = addDays(addPeriods(pb, g, 1), -1);
      const at = addDays(pb, daysBetween(b, d));
      return at < end ? at : end;
    };
    return {
      kind,
      window: { from: shift(w.from), to: shift(w.to) },
      periods: starts.map((period) => ({ period, previous: previousOf(period) })),
    };
  }
  if (kind === 'previous_year') return { kind, window: { from: yearAgo(w.from), to: yearAgo(w.to) } };
  if (wholeMonths(w)) {
    const months =
      (toDate(w.to).getUTCFullYear() - toDate(w.from).getUTCFullYear()) * 12 +
      toDate(w.to).getUTCMonth() -
      toDate(w.from).getUTCMonth() +
      1;
    return { kind, window: { from: addMonths(w.from, -months), to: addDays(w.from, -1) } };
  }
  // A period so far (this week, month, quarter or year to date): the same stretch of the one before.
  for (const p of ['year', 'quarter', 'month', 'week'] as const) {
    if (w.from === bucketStart(w.from, p) && w.to < addPeriods(w.from, p, 1)) return { kind, window: previousWindow(w, p) };
  }
  return { kind, window: previousWindow(w, null) };
}

/**
 * The one meaning of "the previous period" (docs/insights.md "Previous period"), for KPIs, chat,
 * widgets, reports and compare=previous_period alike: a whole calendar period compares with the
 * calendar period before it (October with September, Q3 with Q2, a whole ISO week with the week
 * before); a partial one (this month so far, year to date) with the same stretch of the one
 * before; any other window with the window of equal length just before. With a granularity, a
 * partial period of that granularity is read as such (this week so far, even when it starts on
 * the 1st of a month).
 */
export function previousPeriod(w: Window, g: Granularity | null = null): Window {
  if (g && g !== 'day' && w.from === bucketStart(w.from, g) && w.to < addPeriods(w.from, g, 1)) return previousWindow(w, g);
  return comparison('previous_period', w, null, false).window;
}

/**
 * The window of a relative range on `today`: the last 7/30 days end today; this month, this quarter
 * and year to date run from the period's first day to today (a partial period); last month and last
 * quarter are the whole calendar period before the current one.
 */
export function relativeWindow(range: RelativeRange, today: string): Window {
  switch (range) {
    case 'last_7_days':
      return { from: addDays(today, -6), to: today };
    case 'last_30_days':
      return { from: addDays(today, -29), to: today };
    case 'this_month':
      return { from: bucketStart(today, 'month'), to: today };
    case 'this_quarter':
      return { from: bucketStart(today, 'quarter'), to: today };
    case 'year_to_date':
      return { from: bucketStart(today, 'year'), to: today };
    case 'last_month': {
      const from = addMonths(bucketStart(today, 'month'), -1);
      return { from, to: addDays(bucketStart(today, 'month'), -1) };
    }
    case 'last_quarter': {
      const from = addMonths(bucketStart(today, 'quarter'), -3);
      return { from, to: addDays(bucketStart(today, 'quarter'), -1) };
    }
  }
}
