// Saves a result on a dashboard: as a snapshot (the rows as they are now, with the question) or as
// a live widget of the insight or the semantic query that produced them (drawn fresh on every load).
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { queryChartHint } from '../../../src/lib/charts/query-hint.ts';
import { allPages, api, bodyOf, type RequestBody } from '../api.ts';
import { Link } from '../router.tsx';
import { mayEdit, useSession } from '../session.ts';
import type { ChartHint, Column, Dashboard, DataRow, DisplaySize, Granularity, Widget, WidgetType } from '../types.ts';
import { DISPLAY_SIZES, type SemanticQuery } from '../types.ts';
import { Problem } from './Problem.tsx';
import { useAction } from './useAsync.ts';

export interface Source {
  title: string;
  /** Present when the result can be stored as rows. */
  snapshot?: { rows: DataRow[]; columns?: Column[]; hint: ChartHint; question?: string };
  /** Present when the result came from a catalog insight. */
  live?: { insight_code: string; granularity?: Granularity; filters?: Record<string, string | string[]> };
  /** Present when the result came from a semantic query (the Explore page): a live widget holding it. */
  query?: SemanticQuery;
}

const typeOf = (hint?: ChartHint): WidgetType => (hint?.type === 'table' ? 'table' : hint?.type === 'kpi' ? 'kpi' : 'chart');

export function AddToDashboard({
  source,
  onDone,
  idPrefix,
}: {
  source: Source;
  onDone: (w: Widget, d: Dashboard) => void;
  idPrefix: string;
}) {
  const session = useSession();
  const [dashboards, setDashboards] = useState<Dashboard[] | undefined>();
  const [dashboardId, setDashboardId] = useState('');
  const [title, setTitle] = useState(source.title);
  const [kind, setKind] = useState<'snapshot' | 'live'>(source.snapshot ? 'snapshot' : 'live');
  const [size, setSize] = useState<DisplaySize>('medium');
  const save = useAction();
  const load = useAction();

  useEffect(() => {
    void load.run(async () => {
      const all = (await allPages((query) => api.GET('/api/v1/dashboards/', { params: { query } }))).filter((d) => mayEdit(session, d));
      setDashboards(all);
      if (all.length) setDashboardId(all[0].id);
    });
  }, []);

  const submit = async (e: Event) => {
    e.preventDefault();
    const hint = source.snapshot?.hint ?? (source.query ? queryChartHint(source.query, title) : undefined);
    const body: RequestBody<'/api/v1/dashboards/{id}/widgets', 'post'> = source.query
      ? { title: title.trim(), widget_type: typeOf(hint), display_size: size, data_source: 'live_insight', query: source.query }
      : kind === 'snapshot' && source.snapshot
        ? {
            title: title.trim(),
            widget_type: typeOf(hint),
            display_size: size,
            data_source: 'snapshot',
            snapshot_data: source.snapshot.rows,
            // The answer's columns go with its rows: their order, titles and formats are drawn as they were.
            ...(source.snapshot.columns?.length ? { snapshot_columns: source.snapshot.columns } : {}),
            snapshot_chart_hint: source.snapshot.hint,
            ...(source.snapshot.question ? { snapshot_question: source.snapshot.question } : {}),
          }
        : {
            title: title.trim(),
            widget_type: typeOf(hint),
            display_size: size,
            data_source: 'live_insight',
            insight_code: source.live!.insight_code,
            ...(source.live!.granularity ? { granularity: source.live!.granularity } : {}),
            ...(source.live!.filters && Object.keys(source.live!.filters).length ? { widget_filters: source.live!.filters } : {}),
          };
    let widget: Widget | undefined;
    const ok = await save.run(async () => {
      widget = await bodyOf(api.POST('/api/v1/dashboards/{id}/widgets', { params: { path: { id: dashboardId } }, body }));
    });
    if (ok && widget) onDone(widget, dashboards!.find((d) => d.id === dashboardId)!);
  };

  if (load.error) return <Problem error={load.error} />;
  if (!dashboards) return <p role="status">Loading dashboards…</p>;
  if (!dashboards.length) {
    return (
      <p>
        There is no dashboard you may change. <Link href="/dashboards">Create one first</Link>.
      </p>
    );
  }
  return (
    <form class="form" onSubmit={submit}>
      <label for={`${idPrefix}-dash`}>Dashboard</label>
      <select id={`${idPrefix}-dash`} value={dashboardId} onChange={(e) => setDashboardId(e.currentTarget.value)}>
        {dashboards.map((d) => (
          <option key={d.id} value={d.id}>
            {d.name}
          </option>
        ))}
      </select>
      <label for={`${idPrefix}-title`}>Title</label>
      <input id={`${idPrefix}-title`} required maxLength={200} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
      {source.snapshot && source.live && (
        <fieldset>
          <legend>Keep it as</legend>
          <label class="check">
            <input type="radio" name={`${idPrefix}-kind`} checked={kind === 'snapshot'} onChange={() => setKind('snapshot')} /> Snapshot:
            these rows, as of now
          </label>
          <label class="check">
            <input type="radio" name={`${idPrefix}-kind`} checked={kind === 'live'} onChange={() => setKind('live')} /> Live: the insight,
            fresh on every load
          </label>
        </fieldset>
      )}
      <label for={`${idPrefix}-size`}>Size</label>
      <select id={`${idPrefix}-size`} value={size} onChange={(e) => setSize(e.currentTarget.value as DisplaySize)}>
        {DISPLAY_SIZES.map((s) => (
          <option key={s} value={s}>
            {s[0].toUpperCase() + s.slice(1)}
          </option>
        ))}
      </select>
      <Problem error={save.error} />
      <div class="actions">
        <button type="submit" class="primary" disabled={save.busy || !dashboardId}>
          Add
        </button>
      </div>
    </form>
  );
}

/**
 * "Add to dashboard" under a result (a chat answer, the insights page): a button that opens the
 * form, then a line saying where the widget went. Give it a new `key` to start over for a new result.
 */
export function AddToDashboardToggle({ source, idPrefix, note }: { source: Source; idPrefix: string; note?: ComponentChildren }) {
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState<{ w: Widget; d: Dashboard }>();
  if (added) {
    return (
      <p role="status">
        Added “{added.w.title}” to <Link href={`/dashboards/${added.d.id}`}>{added.d.name}</Link>.
      </p>
    );
  }
  if (!adding) {
    return (
      <button type="button" onClick={() => setAdding(true)}>
        Add to dashboard
      </button>
    );
  }
  return (
    <div class="card">
      <h3>Add to dashboard</h3>
      {note}
      <AddToDashboard idPrefix={idPrefix} source={source} onDone={(w, d) => setAdded({ w, d })} />
    </div>
  );
}
