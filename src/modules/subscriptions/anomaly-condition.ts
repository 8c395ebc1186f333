// Anomaly alerts (docs/notifications.md "Anomaly alerts"): the last complete period of a time
// series — of each series when it is split by a filter's values, of each value's daily history
// for a breakdown — judged against its own history by the detector (modules/anomalies), and the
// verdict said in words. No threshold is written by hand.
import { explain, judge, type Sensitivity } from '../anomalies/detector.ts';
import {
  type AlertCheck,
  type AlertResult,
  type AlertRowCheck,
  type AlertShape,
  type AnomalyCondition,
  completeRows,
  describeCondition,
  formatOf,
  keyColumns,
  num,
  rowKey,
} from './alert-condition.ts';

const DAY_MS = 86_400_000;

/** How much history an anomaly alert reads: 8 weeks of weekdays before the day judged, or 12 periods. */
const HISTORY_DAYS: Record<string, number> = { day: 8 * 7 + 8, week: 14 * 7, month: 14 * 31, quarter: 14 * 92, year: 14 * 366 };

/** The first day an anomaly alert's run reads, for a window ending on `end` (YYYY-MM-DD). */
export function historyFrom(end: string, granularity: string | null): string {
  const days = HISTORY_DAYS[granularity ?? 'day'] ?? HISTORY_DAYS.day;
  return new Date(Date.parse(`${end}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Judges the last complete period of every series in `r` (rows with `period`, grouped by their
 * key columns). single names the one value a history run was filtered to (it then has no key
 * column). The measure's label reads in the sentence ("Revenue in FR on Tuesday …").
 */
export function evaluateAnomaly(c: AnomalyCondition, shape: AlertShape, r: AlertResult, single?: string): AlertCheck {
  const measure = c.measure ?? shape.defaultMeasure ?? shape.measures[0];
  const sensitivity: Sensitivity = c.sensitivity ?? 'medium';
  const label = r.columns?.find((col) => col.name === measure)?.label ?? measure;
  const fmt = formatOf(r, measure);
  const keys = keyColumns(r, shape.measures);
  const groups = new Map<string, { period: string; value: number | null }[]>();
  for (const row of completeRows(r)) {
    const key = keys.length ? rowKey(row, keys) : (single ?? '');
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push({ period: String(row.period), value: num(row[measure]) });
  }
  const daily = r.granularity === 'day';
  const rows: AlertRowCheck[] = [];
  let period: string | undefined;
  for (const [key, points] of groups) {
    points.sort((a, b) => (a.period < b.period ? -1 : a.period > b.period ? 1 : 0));
    const last = points.length - 1;
    period = points[last]?.period ?? period;
    const f = judge(points, last, daily, sensitivity);
    rows.push(
      f
        ? {
            key,
            met: f.unusual,
            value: f.value,
            expected: f.expected,
            spread: f.spread,
            text: explain(f, label, key, (n) => fmt(n), sensitivity),
          }
        : {
            key,
            met: false,
            value: points[last]?.value ?? null,
            text: `${label}${key ? ` in ${key}` : ''}: too little history to tell what is usual (needs 4 comparable periods).`,
          },
    );
  }
  const met = rows.filter((x) => x.met);
  const many = keys.length > 0 || shape.kind !== 'timeseries';
  const head = describeCondition(c, measure);
  const named = met.slice(0, 5).map((x) => x.text);
  const more = met.length > 5 ? ` And ${met.length - 5} more.` : '';
  const text = met.length
    ? `Alert: ${head}${many ? ` in ${met.length} of ${rows.length}` : ''} — ${named.join(' ')}${more}`
    : rows.length
      ? `Nothing unusual (${head})${many ? ` in any of ${rows.length}` : ''}: ${rows[0].text}`
      : `Nothing unusual (${head}): no complete period to judge.`;
  const one = !many ? rows[0] : undefined;
  return {
    met: met.length > 0,
    measure,
    observed: one?.value ?? null,
    value: one?.value ?? null,
    change_pct: null,
    period,
    text,
    ...(many ? { rows } : {}),
    keys: many ? met.map((x) => x.key) : met.length ? ['*'] : [],
  };
}
