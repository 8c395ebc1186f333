// What a widget card draws from its result: a KPI, a table or a chart, as the widget's type and its
// (overridden) hint say. The app's dashboards and the embedded pages draw through it alike, so an
// embedding customer sees the same axes, legends, pies and units as the app's users.
import { resolvedType } from '../columns.ts';
import type { ChartHint, ChartType, Column, DataRow } from '../types.ts';
import { Chart, type Pick } from './Chart.tsx';
import { DataTable } from './DataTable.tsx';
import { Kpi } from './Kpi.tsx';

/** The widget type decides table and KPI; a chart widget draws as its (overridden) hint says. */
export function widgetDrawType(widgetType: string, hint: ChartHint | null | undefined, override?: ChartType | null): ChartType {
  if (widgetType === 'table') return 'table';
  if (widgetType === 'kpi') return 'kpi';
  return resolvedType(hint, override) ?? 'table';
}

interface Props {
  type: ChartType;
  hint: ChartHint | null | undefined;
  columns: Column[];
  rows: DataRow[];
  /** The widget's title: the chart's spoken name and the table's caption. */
  title: string;
  /** The columns whose values filter the dashboard (its filter dimensions). */
  pickable?: Set<string>;
  /** A value clicked in the chart or table. */
  onPick?: (pick: Pick) => void;
  /** Called once a chart is on the page (at once for a KPI or a table). */
  onDrawn?: () => void;
}

export function WidgetBody({ type, hint, columns, rows, title, pickable, onPick, onDrawn }: Props) {
  const pickCell = onPick ? (column: string, value: string) => onPick({ column, value }) : undefined;
  if (type === 'kpi') return <Kpi columns={columns} rows={rows} yAxis={hint?.y_axis} label={title} />;
  if (type === 'table' || !hint) return <DataTable columns={columns} rows={rows} caption={title} pickable={pickable} onPick={pickCell} />;
  return <Chart hint={hint} type={type} columns={columns} rows={rows} label={title} onPick={onPick} onDrawn={onDrawn} />;
}
