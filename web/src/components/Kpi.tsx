// A KPI: the value, the previous value and the change with its arrow, from the same figures and
// wording as the report's KPI card (src/lib/charts/kpi-value.ts).
import { formatChange, formatNumber, kpiOf } from '../../../src/lib/charts/kpi-value.ts';
import type { Column, DataRow } from '../types.ts';

export function Kpi({ columns, rows, yAxis, label }: { columns: Column[]; rows: DataRow[]; yAxis?: string[]; label: string }) {
  const kpi = kpiOf(columns, rows, yAxis, label);
  if (!kpi) return <p class="muted">No value.</p>;
  const change = kpi.change_pct ?? null;
  const trend = change === null || change === 0 ? 'flat' : change > 0 ? 'up' : 'down';
  const arrow = trend === 'up' ? '▲' : trend === 'down' ? '▼' : '';
  const words = trend === 'up' ? 'up' : trend === 'down' ? 'down' : 'unchanged';
  return (
    <div class="kpi">
      <p class="kpi-value" data-testid="kpi-value">
        {formatNumber(kpi.value, kpi.format)}
      </p>
      <p class={`kpi-change ${trend}`}>
        <span aria-hidden="true">{arrow} </span>
        <span class="sr-only">{change === null ? '' : `${words} `}</span>
        {formatChange(change)}
      </p>
      <p class="kpi-previous muted">
        {kpi.previous !== null && kpi.previous !== undefined ? `Previous: ${formatNumber(kpi.previous, kpi.format)}` : 'No previous period'}
      </p>
    </div>
  );
}
