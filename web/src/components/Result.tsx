// A result drawn as its hint says: a chart, a KPI or a table, with the rows always available.
import { columnsOf } from '../columns.ts';
import type { ChartHint, Column, DataRow } from '../types.ts';
import { Chart } from './Chart.tsx';
import { DataTable } from './DataTable.tsx';
import { Kpi } from './Kpi.tsx';

export function Result({
  hint,
  rows,
  columns,
  label,
  locale,
}: {
  hint: ChartHint | null | undefined;
  rows: DataRow[];
  columns?: Column[];
  label: string;
  /** Numbers and dates in this locale (a chat answer's language). */
  locale?: string;
}) {
  const cols = columns ?? columnsOf(rows);
  if (!rows.length) return null;
  const chart = hint && hint.type !== 'table' && hint.type !== 'kpi';
  return (
    <div class="result">
      {hint?.type === 'kpi' && <Kpi columns={cols} rows={rows} yAxis={hint.y_axis} label={label} locale={locale} />}
      {chart && <Chart hint={hint} type={hint.type} columns={cols} rows={rows} label={label} locale={locale} />}
      <DataTable columns={cols} rows={rows} caption={label} locale={locale} />
    </div>
  );
}
