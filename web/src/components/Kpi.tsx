// A KPI: the value, the previous value and the change with its arrow, from the same figures and
// wording as the report's KPI card (src/lib/charts/kpi-value.ts).
import { formatChange, formatNumber, kpiOf } from '../../../src/lib/charts/kpi-value.ts';
import { formatValue, type ValueFormat } from '../../../src/lib/charts/number-format.ts';
import type { Column, DataRow } from '../types.ts';

/** The report's figure; in a locale, the same figure with that locale's separators. */
function figure(n: number | null | undefined, format: ValueFormat | undefined, locale: string | undefined): string {
  if (!locale || n === null || n === undefined) return formatNumber(n, format);
  const plain = !format || !(format.currency || format.decimals !== undefined || format.type === 'percent');
  return plain ? formatValue(n, { decimals: Math.abs(n) >= 100 ? 0 : undefined }, locale) : formatValue(n, format, locale);
}

export function Kpi({
  columns,
  rows,
  yAxis,
  label,
  locale,
}: {
  columns: Column[];
  rows: DataRow[];
  yAxis?: string[];
  label: string;
  /** Figures in this locale (a chat answer's language). */
  locale?: string;
}) {
  const kpi = kpiOf(columns, rows, yAxis, label);
  if (!kpi) return <p class="muted">No value.</p>;
  const change = kpi.change_pct ?? null;
  const trend = change === null || change === 0 ? 'flat' : change > 0 ? 'up' : 'down';
  const arrow = trend === 'up' ? '▲' : trend === 'down' ? '▼' : '';
  const words = trend === 'up' ? 'up' : trend === 'down' ? 'down' : 'unchanged';
  return (
    <div class="kpi">
      <p class="kpi-value" data-testid="kpi-value">
        {figure(kpi.value, kpi.format, locale)}
      </p>
      <p class={`kpi-change ${trend}`}>
        <span aria-hidden="true">{arrow} </span>
        <span class="sr-only">{change === null ? '' : `${words} `}</span>
        {formatChange(change)}
      </p>
      <p class="kpi-previous muted">
        {kpi.previous !== null && kpi.previous !== undefined
          ? `Previous: ${figure(kpi.previous, kpi.format, locale)}`
          : 'No previous period'}
      </p>
    </div>
  );
}
