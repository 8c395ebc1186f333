// Calendar arithmetic on 'YYYY-MM-DD' UTC dates: bucket starts (ISO weeks from Monday, calendar
// months, quarters and years), default windows and the zero-filled list of periods.
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
