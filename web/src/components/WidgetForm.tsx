// Adding a live widget, or editing any widget: title, size, type and chart type override, and for
// live widgets the insight's granularity and the widget's own filters.
import { useEffect, useState } from 'preact/hooks';
import { api, bodyOf, type RequestBody } from '../api.ts';
import { loadCatalog } from '../catalog.ts';
import {
  CHART_TYPES,
  DISPLAY_SIZES,
  type ChartType,
  type DisplaySize,
  type Granularity,
  type Insight,
  type Widget,
  type WidgetType,
} from '../types.ts';
import { Problem } from './Problem.tsx';
import { useAction } from './useAsync.ts';
import { LiveFields } from './widget-form/LiveFields.tsx';
import { FormActions } from './FormActions.tsx';
import { InsightOptions } from './InsightOptions.tsx';

interface Props {
  dashboardId: string;
  widget?: Widget;
  onSaved: (w: Widget) => void;
  onCancel: () => void;
}

const typeFor = (hint?: ChartType): WidgetType => (hint === 'table' ? 'table' : hint === 'kpi' ? 'kpi' : 'chart');

export function WidgetForm({ dashboardId, widget, onSaved, onCancel }: Props) {
  const [catalog, setCatalog] = useState<Insight[]>([]);
  const [title, setTitle] = useState(widget?.title ?? '');
  const [size, setSize] = useState<DisplaySize>(widget?.display_size ?? 'medium');
  const [type, setType] = useState<WidgetType>(widget?.widget_type ?? 'chart');
  const [override, setOverride] = useState<ChartType | ''>(widget?.chart_hint_override?.chart_type ?? '');
  const [code, setCode] = useState(widget?.insight_code ?? '');
  const [granularity, setGranularity] = useState<Granularity | ''>((widget?.granularity ?? '') as Granularity | '');
  const [filters, setFilters] = useState<Record<string, string>>(
    Object.fromEntries(Object.entries(widget?.widget_filters ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)])),
  );
  const [ignored, setIgnored] = useState<string[]>(widget?.ignored_filters ?? []);
  const save = useAction();
  const live = widget ? widget.data_source === 'live_insight' : true;
  const insight = catalog.find((i) => i.code === code);

  useEffect(() => {
    loadCatalog().then(setCatalog, () => setCatalog([]));
  }, []);

  const pick = (c: string) => {
    setCode(c);
    const i = catalog.find((x) => x.code === c);
    if (!i) return;
    if (!widget) {
      if (!title) setTitle(i.name);
      setType(typeFor(i.chart_hint.type));
    }
    setGranularity(granularity && i.granularities.includes(granularity) ? granularity : '');
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    // A filter field takes several values separated by commas (any of them).
    const several = (v: string) => {
      const vs = v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
      return vs.length === 1 ? vs[0] : vs;
    };
    const widgetFilters = Object.fromEntries(
      Object.entries(filters)
        .filter(([k, v]) => v.trim() && (k === 'range' || !insight || insight.filters.includes(k)))
        .map(([k, v]) => [k, k === 'range' ? v : several(v)]),
    );
    const body: RequestBody<'/api/v1/dashboards/{id}/widgets/{wid}', 'patch'> &
      Pick<RequestBody<'/api/v1/dashboards/{id}/widgets', 'post'>, 'title' | 'display_size' | 'widget_type'> = {
      title: title.trim(),
      display_size: size,
      widget_type: type,
      chart_hint_override: override ? { chart_type: override } : null,
    };
    if (live) {
      body.granularity = granularity || null;
      body.widget_filters = Object.keys(widgetFilters).length ? widgetFilters : null;
      body.ignored_filters = ignored.length ? ignored : null;
    }
    let saved: Widget | undefined;
    const ok = await save.run(async () => {
      if (widget)
        saved = await bodyOf(
          api.PATCH('/api/v1/dashboards/{id}/widgets/{wid}', { params: { path: { id: dashboardId, wid: widget.id } }, body }),
        );
      else
        saved = await bodyOf(
          api.POST('/api/v1/dashboards/{id}/widgets', {
            params: { path: { id: dashboardId } },
            body: {
              ...body,
              data_source: 'live_insight',
              insight_code: code,
              chart_hint_override: override ? { chart_type: override } : undefined,
              granularity: granularity || undefined,
              widget_filters: body.widget_filters ?? undefined,
              ignored_filters: body.ignored_filters ?? undefined,
            },
          }),
        );
    });
    if (ok && saved) onSaved(saved);
  };

  return (
    <form class="form" onSubmit={submit}>
      {!widget && (
        <>
          <label for="wf-insight">Insight</label>
          <select id="wf-insight" required value={code} onChange={(e) => pick(e.currentTarget.value)}>
            <InsightOptions catalog={catalog} />
          </select>
          {insight && <p class="muted small">{insight.description}</p>}
        </>
      )}
      <label for="wf-title">Title</label>
      <input id="wf-title" required maxLength={200} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
      <div class="row">
        <div>
          <label for="wf-type">Widget type</label>
          <select id="wf-type" value={type} onChange={(e) => setType(e.currentTarget.value as WidgetType)}>
            <option value="chart">Chart</option>
            <option value="table">Table</option>
            <option value="kpi">KPI</option>
          </select>
        </div>
        <div>
          <label for="wf-size">Size</label>
          <select id="wf-size" value={size} onChange={(e) => setSize(e.currentTarget.value as DisplaySize)}>
            {DISPLAY_SIZES.map((s) => (
              <option key={s} value={s}>
                {s[0].toUpperCase() + s.slice(1)}
              </option>
            ))}
          </select>
        </div>
      </div>
      {type === 'chart' && (
        <>
          <label for="wf-override">Chart type</label>
          <select id="wf-override" value={override} onChange={(e) => setOverride(e.currentTarget.value as ChartType | '')}>
            <option value="">As the data suggests</option>
            {CHART_TYPES.filter((t) => t !== 'table' && t !== 'kpi').map((t) => (
              <option key={t} value={t}>
                {t.replace('_', ' ')}
              </option>
            ))}
          </select>
        </>
      )}
      {live && (
        <LiveFields
          insight={insight}
          granularity={granularity}
          setGranularity={setGranularity}
          filters={filters}
          setFilters={setFilters}
          ignored={ignored}
          setIgnored={setIgnored}
          save={save}
        />
      )}
      <Problem error={save.error} />
      <FormActions submitLabel={widget ? 'Save' : 'Add widget'} onCancel={onCancel} disabled={save.busy} />
    </form>
  );
}
