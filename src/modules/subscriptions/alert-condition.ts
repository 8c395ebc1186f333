// Alert conditions of insight subscriptions (docs/notifications.md "Alerts"): at each slot the
// insight runs and the report is sent only when the condition holds. A threshold reads the
// headline value — a KPI's current value, or a time series' last complete period — or, on a
// breakdown or top insight, each row ("any country whose revenue fell more than 20 %"); change_*
// compare with the previous window, in percent. An anomaly condition (anomaly-condition.ts) asks
// the measure's own history instead of a threshold.
import { formatChange, formatNumber } from '../../adapters/charts/kpi.ts';
import type { Static } from 'typebox';
import { invalidField } from '../../lib/errors.ts';
import type { AnomalyConditionSchema, ConditionSchema, ThresholdConditionSchema } from './subscriptions.schemas.ts';

export type AlertCondition = Static<typeof ConditionSchema>;
export type ThresholdCondition = Static<typeof ThresholdConditionSchema>;
export type AnomalyCondition = Static<typeof AnomalyConditionSchema>;

export const isAnomaly = (c: AlertCondition): c is AnomalyCondition => 'kind' in c && c.kind === 'anomaly';

/** What the catalog says about an insight, enough to check a condition against it. */
export interface AlertShape {
  kind: 'timeseries' | 'breakdown' | 'top' | 'kpi' | 'cohort';
  measures: string[];
  /** The chart's first measure: what a condition without `measure` reads. */
  defaultMeasure?: string;
  /** The granularities a time series takes (a daily one is judged against its weekdays). */
  granularities?: readonly string[];
  /**
   * Per measure of a breakdown: a daily time series of the same measure that takes the
   * breakdown's dimension as a filter, whose history per value an anomaly condition reads.
   */
  history?: Record<string, { code: string; filter: string }>;
}

export interface ResultColumn {
  name: string;
  type: string;
  label?: string;
  currency?: string;
  decimals?: number;
}

/** The rows of an execution a condition reads. */
export interface AlertResult {
  granularity: string | null;
  period: { from: string; to: string };
  rows: Record<string, unknown>[];
  columns?: ResultColumn[];
}

/** One row's verdict in a per-value alert. */
export interface AlertRowCheck {
  /** The row's dimension values ("FR"), or its series value. */
  key: string;
  met: boolean;
  value: number | null;
  change_pct?: number | null;
  /** Anomaly: the usual value and its spread. */
  expected?: number;
  spread?: number;
  /** The row's verdict in words. */
  text: string;
}

export interface AlertCheck {
  met: boolean;
  measure: string;
  /** The value the condition compared: the headline value, or its change in percent (null per value). */
  observed: number | null;
  /** The headline value (null per value). */
  value: number | null;
  change_pct: number | null;
  /** The period the value is about (a time series' last complete period). */
  period?: string;
  /** One sentence (or a few, per value) for people: which condition, and the values. */
  text: string;
  /** Per-value alerts: every row's verdict. */
  rows?: AlertRowCheck[];
  /** What met the condition, for on_change: the rows' keys, or ['*'] for a headline value. */
  keys: string[];
}

/** Throws a 400 naming the field when the condition cannot be read on this insight. */
export function checkCondition(c: AlertCondition, shape: AlertShape): void {
  // A cohort's rows are a triangle (cohort × periods since): no headline value, no value per row
  // that a threshold or a history could read. Refused rather than accepted and never met.
  if (shape.kind === 'cohort') {
    throw invalidField(
      '/body/condition',
      'a cohort insight has no headline value or value per row to compare: subscribe to it without a condition',
    );
  }
  if (isAnomaly(c)) {
    if (shape.kind === 'kpi') {
      throw invalidField('/body/condition/kind', 'anomaly alerts need a time series or a breakdown; a KPI has one value per window');
    }
  }
  if (c.measure === undefined) {
    if (isAnomaly(c) && shape.kind !== 'timeseries') requireHistory(shape, shape.defaultMeasure ?? shape.measures[0]);
    return;
  }
  const allowed = shape.kind === 'kpi' ? ['value'] : shape.measures;
  if (!allowed.includes(c.measure)) throw invalidField('/body/condition/measure', `must be one of: ${allowed.join(', ')}`);
  if (isAnomaly(c) && shape.kind !== 'timeseries') requireHistory(shape, c.measure);
}

function requireHistory(shape: AlertShape, measure: string): void {
  if (!shape.history?.[measure]) {
    throw invalidField(
      '/body/condition/measure',
      `an anomaly alert on this ${shape.kind} needs a daily time series of ${measure} that filters by its dimension, ` +
        `and the model has none`,
    );
  }
}

export const num = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : v === null || v === undefined || v === '' || Number.isNaN(Number(v)) ? null : Number(v);

/** The start of the period after `start` (YYYY-MM-DD) at a granularity. */
export function nextPeriod(start: string, granularity: string | null): string {
  const d = new Date(`${start}T00:00:00Z`);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const day = d.getUTCDate();
  const next =
    granularity === 'week'
      ? Date.UTC(y, m, day + 7)
      : granularity === 'month'
        ? Date.UTC(y, m + 1, day)
        : granularity === 'quarter'
          ? Date.UTC(y, m + 3, day)
          : granularity === 'year'
            ? Date.UTC(y + 1, m, day)
            : Date.UTC(y, m, day + 1);
  return new Date(next).toISOString().slice(0, 10);
}

/** The rows of periods that ended by the window's end (today's period is still running). */
export function completeRows(r: AlertResult): Record<string, unknown>[] {
  return r.rows.filter((row) => typeof row.period === 'string' && nextPeriod(row.period, r.granularity) <= r.period.to);
}

/** A measure's unit, so a figure reads as the report shows it (€12,410). */
export function formatOf(r: AlertResult, measure: string): (n: number | null) => string {
  const col = r.columns?.find((c) => c.name === measure);
  const format = col ? { type: col.type, currency: col.currency, decimals: col.decimals } : undefined;
  return (n) => formatNumber(n, format);
}

const NUMERIC = new Set(['money', 'integer', 'number', 'percent']);

/** The columns that name a row: what is neither a figure nor the period. */
export function keyColumns(r: AlertResult, measures: string[]): string[] {
  if (r.columns)
    return r.columns.filter((c) => !NUMERIC.has(c.type) && c.name !== 'period' && !measures.includes(c.name)).map((c) => c.name);
  const isMeasure = (n: string) => measures.includes(n) || measures.some((m) => n === `${m}_previous` || n === `${m}_change_pct`);
  return Object.keys(r.rows[0] ?? {}).filter((n) => !isMeasure(n) && n !== 'period');
}

export const rowKey = (row: Record<string, unknown>, keys: string[]) => keys.map((k) => String(row[k] ?? '—')).join(' · ');

const OP_WORDS: Record<ThresholdCondition['op'], string> = {
  above: 'is above',
  below: 'is below',
  change_above: 'changed by more than',
  change_below: 'changed by less than',
};

/** The condition as people read it: "revenue is above 10,000", "unusual revenue (medium sensitivity)". */
export function describeCondition(c: AlertCondition, measure: string): string {
  if (isAnomaly(c)) return `unusual ${measure} (${c.sensitivity ?? 'medium'} sensitivity)`;
  const threshold = c.op.startsWith('change_') ? formatChange(c.value) : formatNumber(c.value);
  return `${measure} ${OP_WORDS[c.op]} ${threshold}`;
}

const holds = (c: ThresholdCondition, observed: number | null) =>
  observed !== null && (c.op === 'above' || c.op === 'change_above' ? observed > c.value : observed < c.value);

/** Whether a threshold on this insight reads each row (a breakdown or top insight). */
export const perValue = (shape: AlertShape) => shape.kind === 'breakdown' || shape.kind === 'top';

/**
 * A threshold on each row of a breakdown or top insight. change_* read the row's
 * `<measure>_change_pct` (the subscription runs with compare previous_period for them).
 */
function evaluateRows(c: ThresholdCondition, shape: AlertShape, r: AlertResult): AlertCheck {
  const measure = c.measure ?? shape.defaultMeasure ?? shape.measures[0];
  const keys = keyColumns(r, shape.measures);
  const fmt = formatOf(r, measure);
  const change = c.op.startsWith('change_');
  const rows: AlertRowCheck[] = r.rows.map((row) => {
    const value = num(row[measure]);
    const previous = num(row[`${measure}_previous`]);
    let pct = num(row[`${measure}_change_pct`]);
    if (pct === null && value !== null && previous !== null && previous !== 0) pct = ((value - previous) / Math.abs(previous)) * 100;
    const met = holds(c, change ? pct : value);
    const key = rowKey(row, keys);
    const text = change ? `${key} ${formatChange(pct)} (${fmt(value)} against ${fmt(previous)})` : `${key} ${fmt(value)}`;
    return { key, met, value, change_pct: pct, text };
  });
  const met = rows.filter((x) => x.met);
  const where = `${r.period.from} – ${r.period.to}`;
  const named = met.slice(0, 10).map((x) => x.text);
  const more = met.length > 10 ? `, and ${met.length - 10} more` : '';
  const text = met.length
    ? `Alert: ${describeCondition(c, measure)} for ${met.length} of ${rows.length} (${where}): ${named.join('; ')}${more}.`
    : `Condition ${describeCondition(c, measure)} holds for none of ${rows.length} (${where}).`;
  return {
    met: met.length > 0,
    measure,
    observed: null,
    value: null,
    change_pct: null,
    period: where,
    text,
    rows,
    keys: met.map((x) => x.key),
  };
}

export function evaluateCondition(c: ThresholdCondition, shape: AlertShape, r: AlertResult): AlertCheck {
  if (perValue(shape)) return evaluateRows(c, shape, r);
  let measure: string;
  let value: number | null = null;
  let previous: number | null = null;
  let change: number | null = null;
  let period: string | undefined;
  if (shape.kind === 'kpi') {
    measure = 'value';
    const row = r.rows[0] ?? {};
    value = num(row.value);
    previous = num(row.previous_value);
    change = num(row.change_pct);
    period = `${r.period.from} – ${r.period.to}`;
  } else {
    measure = c.measure ?? shape.defaultMeasure ?? shape.measures[0];
    // The window ends today, whose period is still running: the last complete period is the last
    // one that ended before the window's end date.
    const complete = completeRows(r);
    const last = complete.at(-1);
    const before = complete.at(-2);
    value = last ? num(last[measure]) : null;
    previous = before ? num(before[measure]) : null;
    period = last ? String(last.period) : undefined;
  }
  if (change === null && value !== null && previous !== null && previous !== 0) change = ((value - previous) / Math.abs(previous)) * 100;
  const observed = c.op.startsWith('change_') ? change : value;
  const met = holds(c, observed);
  const shown = c.op.startsWith('change_')
    ? `${formatChange(change)} (${formatNumber(value)} against ${formatNumber(previous)})`
    : formatNumber(value);
  const where = period ? ` for ${period}` : '';
  const text = met
    ? `Alert: ${describeCondition(c, measure)} — the value${where} is ${shown}.`
    : `Condition ${describeCondition(c, measure)} does not hold — the value${where} is ${shown}.`;
  return { met, measure, observed, value, change_pct: change, period, text, keys: met ? ['*'] : [] };
}
