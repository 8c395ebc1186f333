// One widget of an embedded dashboard: a region named by its title, as the app's widget cards are,
// drawn by the same body (WidgetBody: the app's chart option builder, tables and KPIs).
import { useEffect, useState } from 'preact/hooks';
import type { components } from '../api-types.ts';
import { WidgetBody, widgetDrawType } from '../components/WidgetBody.tsx';
import type { ChartType, ExecuteResponse } from '../types.ts';
import { embedApi } from './frame.ts';

type Widget = components['schemas']['EmbeddedDashboard']['widgets'][number];

interface Props {
  dashboard: string;
  widget: Widget;
  /** Called once: the widget is drawn (true) or could not be (false). */
  onSettled: (widget: string, drawn: boolean) => void;
}

export function EmbeddedWidget({ dashboard, widget: w, onSettled }: Props) {
  const [data, setData] = useState<ExecuteResponse['data']>();
  const [error, setError] = useState<string>();
  const [drawn, setDrawn] = useState(false);

  useEffect(() => {
    const path = `/api/v1/embed/dashboards/${encodeURIComponent(dashboard)}/widgets/${encodeURIComponent(w.id)}/data`;
    embedApi<ExecuteResponse>('GET', path).then(
      (res) => setData(res.data),
      (err: Error) => {
        setError(err.message);
        onSettled(w.id, false);
      },
    );
  }, [dashboard, w.id]);

  const override = (w.chart_hint_override as { chart_type?: ChartType } | null)?.chart_type ?? null;
  const type = data ? widgetDrawType(w.widget_type, data.chart_hint, override) : undefined;
  const chart = type !== undefined && type !== 'kpi' && type !== 'table' && !!data?.chart_hint;
  const onDrawn = () => {
    setDrawn(true);
    onSettled(w.id, true);
  };
  // A KPI or a table is on the page as soon as it renders; a chart says so itself (Chart's onDrawn).
  useEffect(() => {
    if (data && !chart) onDrawn();
  }, [data]);

  const headingId = `title-${w.id}`;
  return (
    <section
      class={`widget size-${w.display_size}`}
      aria-labelledby={headingId}
      data-widget={w.id}
      data-state={error ? 'error' : drawn ? 'ready' : 'loading'}
      data-drawn={drawn ? 'true' : undefined}
      aria-busy={!data && !error}
    >
      <header class="widget-head">
        <h2 id={headingId}>{w.title}</h2>
      </header>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {!data && !error && (
        <p class="skeleton" role="status">
          Loading…
        </p>
      )}
      {data && type && (
        <WidgetBody type={type} hint={data.chart_hint} columns={data.columns} rows={data.rows} title={w.title} onDrawn={onDrawn} />
      )}
    </section>
  );
}
