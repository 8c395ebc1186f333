// A widget's data: a live widget's through the read-only data operation (or, for editors, the
// refresh operation, which records last_refreshed_at), reloaded when its settings, the dashboard's
// filters or the auto-refresh beat change; a snapshot's stored rows with their saved columns.
import { useEffect, useState } from 'preact/hooks';
import { api, bodyOf, rawQuery } from '../api.ts';
import { columnsOf } from '../columns.ts';
import type { ChartHint, Column, DataRow, Widget } from '../types.ts';

export interface Result {
  columns: Column[];
  rows: DataRow[];
  hint?: ChartHint | null;
  period?: { from: string; to: string } | null;
  granularity?: string | null;
  at?: string | null;
}

function snapshotResult(w: Widget): Result {
  const rows = w.snapshot_data ?? [];
  // The columns saved with the rows (their order, titles, currency and decimals); older snapshots have none.
  const columns = w.snapshot_columns?.length ? w.snapshot_columns : columnsOf(rows);
  return { columns, rows, hint: w.snapshot_chart_hint ?? w.chart_hint, at: w.created_at };
}

interface Source {
  /** The query of the read-only data operation ('' for the default view). */
  query: string;
  /** The refresh body under the dashboard's filter bar. */
  refreshBody: Record<string, unknown>;
  /** Changes on every auto-refresh of the dashboard. */
  tick: number;
  onRefreshed: (w: Widget) => void;
}

export function useWidgetResult(w: Widget, { query, refreshBody, tick, onRefreshed }: Source) {
  const live = w.data_source === 'live_insight';
  const [result, setResult] = useState<Result | undefined>(live ? undefined : snapshotResult(w));
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  /** Draws the widget's data; `record`: through refresh, which records last_refreshed_at (editors). */
  const load = async (record: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      const path = { id: w.dashboard_id, wid: w.id };
      const res = record
        ? await bodyOf(api.POST('/api/v1/dashboards/{id}/widgets/{wid}/refresh', { params: { path }, body: refreshBody }))
        : await bodyOf(api.GET('/api/v1/dashboards/{id}/widgets/{wid}/data', { params: { path }, ...rawQuery(query) }));
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

  return { result, error, busy, load };
}
