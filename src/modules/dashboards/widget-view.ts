// A widget as the API shows it; dashboards (detail) and widgets (list, writes) both answer it, with
// the stored rows the viewer may see (stored-rows.ts).
import type { WidgetRecord } from './widgets.repository.ts';
import type { WidgetView } from './widgets.schemas.ts';

export function toWidgetView(w: WidgetRecord, snapshotData: WidgetRecord['snapshot_data']): WidgetView {
  return {
    id: w.id,
    dashboard_id: w.dashboard_id,
    title: w.title,
    widget_type: w.widget_type,
    display_size: w.display_size,
    data_source: w.data_source,
    insight_code: w.insight_code,
    query: w.query ?? null,
    granularity: w.granularity,
    widget_filters: w.widget_filters,
    ignored_filters: w.ignored_filters ?? null,
    snapshot_data: snapshotData,
    snapshot_columns: w.snapshot_columns ?? null,
    snapshot_chart_hint: w.snapshot_chart_hint,
    snapshot_question: w.snapshot_question,
    chart_hint: w.chart_hint,
    chart_hint_override: w.chart_hint_override,
    created_at: w.created_at.toISOString(),
    last_refreshed_at: w.last_refreshed_at ? w.last_refreshed_at.toISOString() : null,
  };
}
