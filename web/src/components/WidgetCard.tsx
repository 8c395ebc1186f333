// One widget of a dashboard: a landmark region named by its title. Live widgets load through the
// read-only data operation (anyone who may view the dashboard); "Refresh" in its menu, for editors,
// runs the refresh operation (useWidgetResult.ts). Snapshot widgets draw their stored rows.
import { useState } from 'preact/hooks';
import type { Widget } from '../types.ts';
import { fileName, save, svgToPng, toCsv } from '../downloads.ts';
import type { Pick } from './Chart.tsx';
import { DataTable } from './DataTable.tsx';
import { Problem } from './Problem.tsx';
import { ResizeHandle } from './Resize.tsx';
import { WidgetAbout } from './WidgetAbout.tsx';
import { WidgetMenu } from './WidgetMenu.tsx';
import { useWidgetResult } from './useWidgetResult.ts';
import { WidgetBody, widgetDrawType } from './WidgetBody.tsx';
import type { DisplaySize } from '../types.ts';

interface Props {
  widget: Widget;
  /** The refresh body under the dashboard's filter bar; a live widget loads again when it changes. */
  body: Record<string, unknown>;
  /** The same state as the query of the read-only data operation ('' for the default view). */
  query: string;
  /** What of the filter bar applies to this widget, in words ("Date range, Country"), and what it opts out of. */
  applies: { applied: string[]; ignored: string[] };
  /** Changes on every auto-refresh of the dashboard: live widgets load again. */
  tick?: number;
  editable: boolean;
  index: number;
  count: number;
  onEdit: () => void;
  onRemove: () => void;
  onMove: (delta: number) => void;
  /** A new display_size, from the resize handle or the menu's "Make … wider/narrower". */
  onResize: (size: DisplaySize) => void;
  onRefreshed: (w: Widget) => void;
  /** A value clicked in the chart or table: the dashboard filters by it. */
  onPick?: (pick: Pick & { granularity?: string | null }) => void;
  /** The columns whose values filter the dashboard (its filter dimensions). */
  pickable?: Set<string>;
  drag: {
    onDragStart: (e: DragEvent) => void;
    onDragOver: (e: DragEvent) => void;
    onDrop: (e: DragEvent) => void;
    onDragEnd: () => void;
    dragging: boolean;
  };
}

export function WidgetCard({
  widget: w,
  body: refreshBody,
  query,
  applies,
  tick = 0,
  editable,
  index,
  count,
  onEdit,
  onRemove,
  onMove,
  onResize,
  onRefreshed,
  onPick,
  pickable,
  drag,
}: Props) {
  const [showData, setShowData] = useState(false);
  const live = w.data_source === 'live_insight';
  const { result, error, busy, load } = useWidgetResult(w, { query, refreshBody, tick, onRefreshed });
  const [preview, setPreview] = useState<DisplaySize | null>(null);

  const hint = result?.hint ?? w.chart_hint ?? null;
  const type = widgetDrawType(w.widget_type, hint, w.chart_hint_override?.chart_type);
  const headingId = `w-${w.id}-title`;
  const ready = result !== undefined && !busy;

  // Only a live widget answers back: a snapshot's values are not the dashboard's to filter by.
  const pick = live && onPick ? (p: Pick) => onPick({ ...p, granularity: result?.granularity }) : undefined;
  const pickCell = pick ? (column: string, value: string) => pick({ column, value }) : undefined;
  const body = result && (
    <WidgetBody type={type} hint={hint} columns={result.columns} rows={result.rows} title={w.title} pickable={pickable} onPick={pick} />
  );
  const svg = () => document.querySelector<SVGSVGElement>(`[data-widget="${w.id}"] .chart svg`);
  const downloadCsv = () => {
    if (result) save(new Blob([toCsv(result.columns, result.rows)], { type: 'text/csv;charset=utf-8' }), fileName(w.title, 'csv'));
  };
  const downloadPng = async () => {
    const el = svg();
    const p = result?.period;
    const subtitle = p?.from
      ? `${p.from === p.to ? p.from : `${p.from} – ${p.to}`}${result?.granularity ? `, by ${result.granularity}` : ''}`
      : live
        ? undefined
        : `Snapshot taken ${new Date(w.created_at).toLocaleDateString()}`;
    if (el) save(await svgToPng(el, { title: w.title, subtitle }), fileName(w.title, 'png'));
  };

  return (
    <section
      class={`widget size-${preview ?? w.display_size}${drag.dragging ? ' dragging' : ''}${preview ? ' resizing' : ''}`}
      aria-labelledby={headingId}
      data-widget={w.id}
      data-state={error ? 'error' : ready ? 'ready' : 'loading'}
      aria-busy={busy}
      onDragOver={drag.onDragOver}
      onDrop={drag.onDrop}
    >
      <header class="widget-head">
        {editable && (
          <span class="handle" draggable onDragStart={drag.onDragStart} onDragEnd={drag.onDragEnd} title="Drag to move" aria-hidden="true">
            ⠿
          </span>
        )}
        <h2 id={headingId}>{w.title}</h2>
        <div class="widget-tools">
          <WidgetMenu
            title={w.title}
            editable={editable}
            hasData={!!result}
            showData={showData}
            onToggleData={() => setShowData(!showData)}
            onCsv={downloadCsv}
            onPng={type !== 'table' && type !== 'kpi' ? () => void downloadPng() : undefined}
            onRefresh={live ? () => void load(true) : undefined}
            busy={busy}
            size={w.display_size}
            onResize={onResize}
            first={index === 0}
            last={index === count - 1}
            onMove={onMove}
            onEdit={onEdit}
            onRemove={onRemove}
          />
        </div>
      </header>
      <WidgetAbout widget={w} live={live} period={result?.period} applies={applies} />
      <Problem error={error} />
      {!result && !error ? (
        <p class="skeleton" role="status">
          Loading…
        </p>
      ) : (
        body
      )}
      {editable && <ResizeHandle size={w.display_size} label={w.title} onPreview={setPreview} onResize={onResize} />}
      {showData && result && type !== 'table' && (
        <div class="widget-data">
          <DataTable columns={result.columns} rows={result.rows} caption={`Data of ${w.title}`} pickable={pickable} onPick={pickCell} />
        </div>
      )}
    </section>
  );
}
