// Finds what is unusual in a measure's own history (docs/notifications.md "Anomaly alerts"). Pure:
// numbers in, findings out — no HTTP, no SQL — so alerts, chat and the backtest bench
// (bench/anomalies.ts) call the same code.
//
// The method is robust on purpose: a period is compared with the median of comparable periods
// before it, and its distance measured in MADs (median absolute deviation, scaled by 1.4826 to
// read as a standard deviation for normal noise), so past spikes and drops do not widen the band
// the way a mean and standard deviation would. Comparable means the same weekday for a daily
// series (the last 8 Mondays for a Monday: shops sell differently on Sundays), and the last 12
// periods otherwise. The spread has a floor of a few percent of the median, so a very regular
// series does not cry wolf over a 2 % move.

export type Sensitivity = 'low' | 'medium' | 'high';

/** How many robust standard deviations away a value must lie to be unusual, per sensitivity. */
export const THRESHOLDS: Record<Sensitivity, number> = { low: 5, medium: 4, high: 3 };

/** The same weekday's last 8 values for a daily series; the last 12 periods otherwise. */
export const WEEKDAY_HISTORY = 8;
export const PLAIN_HISTORY = 12;
/** The fewest comparable values a verdict needs. */
export const MIN_HISTORY = 4;
/** The spread's floor, as a share of the median. */
export const SPREAD_FLOOR = 0.04;
const MAD_SCALE = 1.4826;

export interface SeriesPoint {
  /** The period's start, YYYY-MM-DD. */
  period: string;
  value: number | null;
}

export interface Finding {
  period: string;
  value: number;
  /** The median of the comparable periods. */
  expected: number;
  /** The robust standard deviation around it (scaled MAD, floored). */
  spread: number;
  /** (value − expected) / spread. */
  score: number;
  direction: 'above' | 'below';
  /** Whether the value lies outside the band at the given sensitivity. */
  unusual: boolean;
  /** The weekday compared with (daily series), e.g. "Tuesday". */
  weekday?: string;
  /** How many comparable periods the baseline has. */
  history: number;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

const weekdayOf = (period: string) => new Date(`${period}T00:00:00Z`).getUTCDay();

/**
 * The verdict on points[index] against the periods before it, or undefined when there are too
 * few of them (or no value). daily: compare with the same weekday.
 */
export function judge(points: SeriesPoint[], index: number, daily: boolean, sensitivity: Sensitivity = 'medium'): Finding | undefined {
  const point = points[index];
  if (!point || point.value === null || !Number.isFinite(point.value)) return undefined;
  // The window: the last 8 weeks before the point for a daily series, the last 12 periods otherwise.
  const window: { value: number; group: number }[] = [];
  const span = daily ? WEEKDAY_HISTORY * 7 : PLAIN_HISTORY;
  for (let i = index - 1; i >= 0 && i >= index - span; i--) {
    const p = points[i];
    if (p.value === null || !Number.isFinite(p.value)) continue;
    window.push({ value: p.value, group: daily ? weekdayOf(p.period) : 0 });
  }
  const group = daily ? weekdayOf(point.period) : 0;
  const history = window.filter((w) => w.group === group).map((w) => w.value);
  if (history.length < MIN_HISTORY) return undefined;
  const expected = median(history);
  // The spread is pooled over the whole window: each value's distance from its own weekday's
  // median. Eight values of one weekday estimate a MAD too loosely; 56 do not.
  const medians = new Map<number, number>();
  for (const g of new Set(window.map((w) => w.group))) medians.set(g, median(window.filter((w) => w.group === g).map((w) => w.value)));
  const mad = median(window.map((w) => Math.abs(w.value - medians.get(w.group)!))) * MAD_SCALE;
  const spread = Math.max(mad, Math.abs(expected) * SPREAD_FLOOR, Number.EPSILON);
  const score = (point.value - expected) / spread;
  return {
    period: point.period,
    value: point.value,
    expected,
    spread,
    score,
    direction: score >= 0 ? 'above' : 'below',
    unusual: Math.abs(score) >= THRESHOLDS[sensitivity],
    ...(daily ? { weekday: WEEKDAYS[group] } : {}),
    history: history.length,
  };
}

/** The verdicts on every period of points from `from` on (YYYY-MM-DD), in order; unusual or not. */
export function scan(points: SeriesPoint[], daily: boolean, sensitivity: Sensitivity = 'medium', from = ''): Finding[] {
  const out: Finding[] = [];
  for (let i = 0; i < points.length; i++) {
    if (points[i].period < from) continue;
    const f = judge(points, i, daily, sensitivity);
    if (f) out.push(f);
  }
  return out;
}

/**
 * The finding in words: "Revenue in FR on Tuesday 2026-11-24 was €12,410, far below the usual
 * €20,100 ± 2,300 for a Tuesday." format renders a figure in the measure's unit; where names the
 * value ("in FR"), or is empty for the whole series.
 */
export function explain(f: Finding, label: string, where: string, format: (n: number) => string, sensitivity: Sensitivity): string {
  const far = Math.abs(f.score) >= THRESHOLDS[sensitivity] * 1.5 ? 'far ' : '';
  const when = f.weekday ? `on ${f.weekday} ${f.period}` : `in the period starting ${f.period}`;
  const usual = `the usual ${format(f.expected)} ± ${format(f.spread)}${f.weekday ? ` for a ${f.weekday}` : ''}`;
  const verdict = f.unusual ? `${far}${f.direction} ${usual}` : `within ${usual}`;
  return `${label}${where ? ` in ${where}` : ''} ${when} was ${format(f.value)}, ${verdict}.`;
}
