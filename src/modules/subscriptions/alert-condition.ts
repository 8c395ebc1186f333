// Alert conditions of insight subscriptions (docs/notifications.md "Alerts"): at each slot the
// insight runs and the report is sent only when the condition holds for its headline value — a
// KPI's current value, or a time series' last complete period; change_* compare that with the
// previous window (the KPI's previous window, the period before for a time series), in percent.
import { formatChange, formatNumber } from '../../adapters/charts/kpi.ts';
import type { Static } from 'typebox';
import { invalidField } from '../../lib/errors.ts';
import type { ConditionSchema } from './subscriptions.schemas.ts';

export type AlertCondition = Static<typeof ConditionSchema>;

/** What the catalog says about an insight, enough to check a condition against it. */
export interface AlertShape {
  kind: 'timeseries' | 'breakdown' | 'top' | 'kpi';
  measures: string[];
  /** The chart's first measure: what a condition without `measure` reads. */
  defaultMeasure?: string;
}

/** The rows of an execution a condition reads. */
export interface AlertResult {
  granularity: string | null;
  period: { from: string; to: string };
  rows: Record<string, unknown>[];
}

export interface AlertCheck {
  met: boolean;
  measure: string;
  /** The value the condition compared: the headline value, or its change in percent. */
  observed: number | null;
  /** The headline value. */
  value: number | null;
  change_pct: number | null;
  /** The period the value is about (a time series' last complete period). */
  period?: string;
  /** One sentence for people: which condition, and the value. */
  text: string;
}

/** Throws a 400 naming the field when the condition cannot be read on this insight. */
export function checkCondition(c: AlertCondition, shape: AlertShape): void {
  if (shape.kind === 'breakdown' || shape.kind === 'top') {
    throw invalidField(
      '/body/condition',
      `alerts need an insight with a headline value (a KPI or a time series); this one is a ${shape.kind}`,
    );
  }
  if (c.measure === undefined) return;
  const allowed = shape.kind === 'kpi' ? ['value'] : shape.measures;
  if (!allowed.includes(c.measure)) throw invalidField('/body/condition/measure', `must be one of: ${allowed.join(', ')}`);
}

const num = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : v === null || v === undefined || v === '' || Number.isNaN(Number(v)) ? null : Number(v);

/** The start of the period after `start` (YYYY-MM-DD) at a granularity. */
function nextPeriod(start: string, granularity: string | null): string {
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

const OP_WORDS: Record<AlertCondition['op'], string> = {
  above: 'is above',
  below: 'is below',
  change_above: 'changed by more than',
  change_below: 'changed by less than',
};

/** The condition as people read it: "revenue is above 10,000". */
export function describeCondition(c: AlertCondition, measure: string): string {
  const threshold = c.op.startsWith('change_') ? formatChange(c.value) : formatNumber(c.value);
  return `${measure} ${OP_WORDS[c.op]} ${threshold}`;
}

export function evaluateCondition(c: AlertCondition, shape: AlertShape, r: AlertResult): AlertCheck {
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
    const complete = r.rows.filter((row) => typeof row.period === 'string' && nextPeriod(row.period, r.granularity) <= r.period.to);
    const last = complete.at(-1);
    const before = complete.at(-2);
    value = last ? num(last[measure]) : null;
    previous = before ? num(before[measure]) : null;
    period = last ? String(last.period) : undefined;
  }
  if (change === null && value !== null && previous !== null && previous !== 0) change = ((value - previous) / Math.abs(previous)) * 100;
  const observed = c.op.startsWith('change_') ? change : value;
  const met = observed !== null && (c.op === 'above' || c.op === 'change_above' ? observed > c.value : observed < c.value);
  const shown = c.op.startsWith('change_')
    ? `${formatChange(change)} (${formatNumber(value)} against ${formatNumber(previous)})`
    : formatNumber(value);
  const where = period ? ` for ${period}` : '';
  const text = met
    ? `Alert: ${describeCondition(c, measure)} — the value${where} is ${shown}.`
    : `Condition ${describeCondition(c, measure)} does not hold — the value${where} is ${shown}.`;
  return { met, measure, observed, value, change_pct: change, period, text };
}
