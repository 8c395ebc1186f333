// The figures of a KPI (value, previous value, change) and how they are written. Pure, so the web
// app shows a KPI widget with the same numbers and wording as the report's KPI card (kpi.ts).
import type { ReportColumn, ReportKpi } from '../report.ts';
import type { DataRow } from '../chart.schemas.ts';
import { formatOf, formatValue, type ValueFormat } from './number-format.ts';
import { toNumber } from './options.ts';

const PREVIOUS = ['previous_value', 'previous', 'prev_value', 'prev', 'value_previous', 'previous_period'];
const CHANGE = ['change_pct', 'change_percent', 'pct_change', 'delta_pct'];

/**
 * The KPI of a result: rows[0]'s value (the hint's first y_axis, else `value`, else the first
 * numeric column), the previous value and the change in percent when the row has them (computed
 * from the two values when only those are there).
 */
export function kpiOf(columns: ReportColumn[], rows: DataRow[], yAxis: string[] | undefined, label: string): ReportKpi | undefined {
  const row = rows[0];
  if (!row) return undefined;
  const numeric = columns.filter((c) => typeof row[c.name] === 'number' || toNumber(row[c.name]) !== null);
  const valueCol =
    yAxis?.find((y) => y in row) ??
    ('value' in row ? 'value' : numeric.find((c) => !PREVIOUS.includes(c.name) && !CHANGE.includes(c.name))?.name);
  if (!valueCol) return undefined;
  const prevCol = PREVIOUS.find((c) => c in row);
  const changeCol = CHANGE.find((c) => c in row);
  const value = toNumber(row[valueCol]);
  const previous = prevCol ? toNumber(row[prevCol]) : null;
  let change = changeCol ? toNumber(row[changeCol]) : null;
  if (change === null && value !== null && previous !== null && previous !== 0) {
    change = ((value - previous) / Math.abs(previous)) * 100;
  }
  const column = columns.find((c) => c.name === valueCol);
  const format = formatOf(column);
  return { label: label || column?.label || valueCol, ...(format ? { format } : {}), value, previous, change_pct: change };
}

/** 1234567.891 → "1,234,567.89" */
const WHOLE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const FRACTION = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** 1234567.891 → "1,234,567.89" */
export function formatNumber(n: number | null | undefined, format?: ValueFormat, locale?: string): string {
  if (n === null || n === undefined) return '—';
  // A KPI reads with its unit when the model gives one (a currency, decimals, percent); else as a
  // big figure, large ones whole.
  if (format && (format.currency || format.decimals !== undefined || format.type === 'percent')) return formatValue(n, format, locale);
  // Formatters made once: toLocaleString with options builds one per call.
  return (Math.abs(n) >= 100 ? WHOLE : FRACTION).format(n);
}

/** What a KPI is compared with, in words: the choice made (compare), never a guess. */
export function comparisonText(compare: string | undefined): string {
  return compare === 'previous_year' ? 'the same period last year' : 'the previous period';
}

export function formatChange(pct: number | null | undefined): string {
  if (pct === null || pct === undefined) return 'no comparison';
  const sign = pct > 0 ? '+' : pct < 0 ? '−' : '±';
  return `${sign}${Math.abs(pct).toFixed(1)}%`;
}
