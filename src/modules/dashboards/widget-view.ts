// A widget as the API shows it; dashboards (detail) and widgets (list, writes) both answer it.
import type { WidgetRecord } from './widgets.repository.ts';
import type { WidgetView } from './widgets.schemas.ts';

export function toWidgetView(w: WidgetRecord): WidgetView {
  return {
    id: w.id,
    dashboard_id: w.dashboard_id,
    title: w.title,
    widget_type: w.widget_type,
    display_size: w.display_size,
    data_source: w.data_source,
    insight_code: w.insight_code,
    granularity: w.granularity,
    widget_filters: w.widget_filters,
    ignored_filters: w.ignored_filters ?? null,
    snapshot_data: w.snapshot_data,
    snapshot_chart_hint: w.snapshot_chart_hint,
    snapshot_question: w.snapshot_question,
    chart_hint: w.chart_hint,
    chart_hint_override: w.chart_hint_override,
    created_at: w.created_at.toISOString(),
    last_refreshed_at: w.last_refreshed_at ? w.last_refreshed_at.toISOString() : null,
  };
}
