// One widget of a dashboard: a landmark region named by its title. Live widgets load through the
// read-only data operation (anyone who may view the dashboard); the Refresh button, for editors, runs
// the refresh operation, which also records last_refreshed_at. Snapshot widgets draw their stored rows.
import { useEffect, useState } from 'preact/hooks';
import { get, post } from '../api.ts';
import { columnsOf, resolvedType } from '../columns.ts';
import type { ChartHint, Column, DataRow, ExecuteResponse, Widget } from '../types.ts';
import { fileName, save, svgToPng, toCsv } from '../downloads.ts';
import { Chart, type Pick } from './Chart.tsx';
import { DataTable } from './DataTable.tsx';
import { Kpi } from './Kpi.tsx';
import { Problem } from './Problem.tsx';
import { narrower, ResizeHandle, wider } from './Resize.tsx';
import type { DisplaySize } from '../types.ts';

interface Result {
  columns: Column[];
  rows: DataRow[];
  hint?: ChartHint | null;
  period?: { from: string; to: string } | null;
  granularity?: string | null;
  at?: string | null;
}

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

const timeFmt = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function snapshotResult(w: Widget): Result {
  const rows = w.snapshot_data ?? [];
  return { columns: columnsOf(rows), rows, hint: w.snapshot_chart_hint ?? w.chart_hint, at: w.created_at };
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
  const [menu, setMenu] = useState(false);
  const [showData, setShowData] = useState(false);
  const live = w.data_source === 'live_insight';
  const [result, setResult] = useState<Result | undefined>(live ? undefined : snapshotResult(w));
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<DisplaySize | null>(null);

  /** Draws the widget's data; `record`: through refresh, which records last_refreshed_at (editors). */
  const load = async (record: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      const path = `/dashboards/${w.dashboard_id}/widgets/${w.id}`;
      const res = record ? await post<ExecuteResponse>(`${path}/refresh`, refreshBody) : await get<ExecuteResponse>(`${path}/data${query}`);
      const d = res.data;
      setResult({ columns: d.columns, rows: d.rows, hint: d.chart_hint, period: d.period, granularity: d.granularity, at: d.generated_at });
      if (record) onRefreshed({ ...w, chart_hint: d.chart_hint, last_refreshed_at: d.generated_at });
    } catch (err) {
      // What was drawn before answered other filters: it goes, the problem stays in its place.
      setResult(undefined);
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    if (live) void load(false);
    else setResult(snapshotResult(w));
    // A live widget reloads when what it draws from changes: its settings or the dashboard's filters.
  }, [w.id, w.insight_code, w.granularity, JSON.stringify(w.widget_filters), query, tick, live ? '' : w.snapshot_data]);

  const hint = result?.hint ?? w.chart_hint ?? null;
  const override = w.chart_hint_override?.chart_type ?? null;
  // The widget type decides table and KPI; a chart widget draws as its (overridden) hint says.
  const type = w.widget_type === 'table' ? 'table' : w.widget_type === 'kpi' ? 'kpi' : (resolvedType(hint, override) ?? 'table');
  const headingId = `w-${w.id}-title`;
  const ready = result !== undefined && !busy;

  // Only a live widget answers back: a snapshot's values are not the dashboard's to filter by.
  const pick = live && onPick ? (p: Pick) => onPick({ ...p, granularity: result?.granularity }) : undefined;
  const pickCell = pick ? (column: string, value: string) => pick({ column, value }) : undefined;
  let body = null;
  if (result) {
    if (type === 'kpi') body = <Kpi columns={result.columns} rows={result.rows} yAxis={hint?.y_axis} label={w.title} />;
    else if (type === 'table' || !hint)
      body = <DataTable columns={result.columns} rows={result.rows} caption={w.title} pickable={pickable} onPick={pickCell} />;
    else body = <Chart hint={hint} type={type} columns={result.columns} rows={result.rows} label={w.title} onPick={pick} />;
  }
  const svg = () => document.querySelector<SVGSVGElement>(`[data-widget="${w.id}"] .chart svg`);
  const downloadCsv = () => {
    if (result) save(new Blob([toCsv(result.columns, result.rows)], { type: 'text/csv;charset=utf-8' }), fileName(w.title, 'csv'));
    setMenu(false);
  };
  const downloadPng = async () => {
    const el = svg();
    if (el) save(await svgToPng(el), fileName(w.title, 'png'));
    setMenu(false);
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
          <div class="menu-wrap">
            <button
              type="button"
              class="icon"
              aria-label={`More actions for ${w.title}`}
              aria-expanded={menu}
              title="More"
              onClick={() => setMenu(!menu)}
            >
              ⋯
            </button>
            {menu && (
              <div class="menu" role="group" aria-label={`Actions for ${w.title}`} onKeyDown={(e) => e.key === 'Escape' && setMenu(false)}>
                <button type="button" aria-pressed={showData} disabled={!result} onClick={() => (setShowData(!showData), setMenu(false))}>
                  {showData ? 'Hide data' : 'View data'}
                </button>
                <button type="button" disabled={!result} onClick={downloadCsv}>
                  Download CSV
                </button>
                {type !== 'table' && type !== 'kpi' && (
                  <button type="button" disabled={!result} onClick={() => void downloadPng()}>
                    Download PNG
                  </button>
                )}
                {editable && (
                  <>
                    <button type="button" disabled={!wider(w.display_size)} onClick={() => onResize(wider(w.display_size)!)}>
                      Make {w.title} wider
                    </button>
                    <button type="button" disabled={!narrower(w.display_size)} onClick={() => onResize(narrower(w.display_size)!)}>
                      Make {w.title} narrower
                    </button>
                  </>
                )}
              </div>
            )}
          </div>
          {live && editable && (
            <button
              type="button"
              class="icon"
              onClick={() => void load(true)}
              disabled={busy}
              aria-label={`Refresh ${w.title}`}
              title="Refresh"
            >
              ↻
            </button>
          )}
          {editable && (
            <>
              <button
                type="button"
                class="icon"
                onClick={() => onMove(-1)}
                disabled={index === 0}
                aria-label={`Move ${w.title} earlier`}
                title="Move earlier"
              >
                ←
              </button>
              <button
                type="button"
                class="icon"
                onClick={() => onMove(1)}
                disabled={index === count - 1}
                aria-label={`Move ${w.title} later`}
                title="Move later"
              >
                →
              </button>
              <button type="button" class="icon" onClick={onEdit} aria-label={`Edit ${w.title}`} title="Edit">
                ✎
              </button>
              <button type="button" class="icon" onClick={onRemove} aria-label={`Remove ${w.title}`} title="Remove">
                ✕
              </button>
            </>
          )}
        </div>
      </header>
      <p class="widget-meta muted small">
        {live ? (
          <>
            Live · {w.insight_code}
            {result?.period ? ` · ${result.period.from} – ${result.period.to}` : ''}
            {w.last_refreshed_at ? ` · refreshed ${timeFmt(w.last_refreshed_at)}` : ''}
          </>
        ) : (
          <>
            Snapshot{w.snapshot_question ? <> of “{w.snapshot_question}”</> : null} · taken {timeFmt(w.created_at)}
          </>
        )}
      </p>
      <p class="widget-filters muted small" data-testid="widget-filters">
        {live
          ? `Filtered by: ${applies.applied.length ? applies.applied.join(', ') : 'none of the dashboard filters'}${applies.ignored.length ? ` · ignores ${applies.ignored.join(', ')}` : ''}`
          : 'A snapshot: the dashboard filters do not apply.'}
      </p>
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
