// A dashboard: its widgets laid out by display_size in widget_ids order, reorderable by dragging
// and by the move buttons, resizable by a handle and by the menu; markdown text blocks sit between
// them by position; the active filter preset switches here and live widgets reload. Its parts are
// in dashboard/: the filter bar's state, the order of the widgets, the text blocks, the dialogs.
import { useState } from 'preact/hooks';
import { ApiError, api, bodyOf, rawQuery } from '../api.ts';
import { loadCatalog } from '../catalog.ts';
import { DashboardHeader } from '../components/DashboardHeader.tsx';
import { FilterBar } from '../components/FilterBar.tsx';
import { Problem } from '../components/Problem.tsx';
import { useAction, useAsync } from '../components/useAsync.ts';
import { fromPreset, pdfQuery, toPresetFilters } from '../dashboard-filters.ts';
import { fileName, save } from '../downloads.ts';
import { Link, useSearch } from '../router.tsx';
import { isManager, mayEdit, useSession } from '../session.ts';
import type { Dashboard, FilterOptions, Insight } from '../types.ts';
import { DashboardDialogs, useDialogs } from './dashboard/DashboardDialogs.tsx';
import { DashboardGrid } from './dashboard/DashboardGrid.tsx';
import { useDashboardFilters } from './dashboard/useDashboardFilters.ts';
import { useTextBlocks } from './dashboard/useTextBlocks.ts';
import { useViewing } from './dashboard/useViewing.ts';
import { useWidgetOrder } from './dashboard/useWidgetOrder.ts';

export function DashboardPage({ id }: { id: string }) {
  const loaded = useAsync(() => bodyOf(api.GET('/api/v1/dashboards/{id}', { params: { path: { id } } })), [id]);
  const catalog = useAsync(() => loadCatalog(), []);
  const options = useAsync(() => bodyOf(api.GET('/api/v1/insights/filters')), []);
  const search = useSearch();
  if (loaded.error instanceof ApiError && loaded.error.status === 404) {
    return (
      <section>
        <h1 tabIndex={-1}>Dashboard not found</h1>
        <p>There is no dashboard here, or it is not shared with you. It may have been deleted.</p>
        <p>
          <Link href="/dashboards">See the dashboards you can open</Link>
        </p>
      </section>
    );
  }
  if (loaded.error) {
    return (
      <section>
        <h1 tabIndex={-1}>Dashboard</h1>
        <Problem error={loaded.error} />
        <p>
          <Link href="/dashboards">Back to the dashboards</Link>
        </p>
      </section>
    );
  }
  if (!loaded.data || loaded.data.id !== id) return <p role="status">Loading the dashboard…</p>;
  return (
    <DashboardView
      key={id}
      loaded={loaded.data}
      insights={catalog.data}
      catalogError={catalog.error}
      options={options.data ?? []}
      search={search}
    />
  );
}

interface ViewProps {
  loaded: Dashboard;
  /** The catalog: which filters each live widget's insight takes. */
  insights: Insight[] | undefined;
  catalogError: unknown;
  options: FilterOptions[];
  search: string;
}

function DashboardView({ loaded, insights, catalogError, options, search }: ViewProps) {
  const session = useSession();
  const [dash, setDash] = useState<Dashboard>(loaded);
  const [announce, setAnnounce] = useState('');
  const action = useAction();
  const dialogs = useDialogs();
  const { setEditing, setSettings, setRemoving, setDeleting } = dialogs;
  const { every, setEvery, tick, fullScreen, toggleFullScreen } = useViewing();
  const text = useTextBlocks(dash, action, setAnnounce);
  const { blocks, setEditingText } = text;
  const order = useWidgetOrder({ dash, setDash, blocks, action, setAnnounce });
  const { widgets } = order;
  const filters = useDashboardFilters({ dash, setDash, widgets, insights, options, search, action, setAnnounce });
  const { state, setState, dimensions, savePresets } = filters;
  const downloadPdf = () =>
    action.run(async () => {
      const pdf = api.GET('/api/v1/dashboards/{id}/pdf', {
        params: { path: { id: dash.id } },
        ...rawQuery(pdfQuery(state)),
        parseAs: 'blob',
      });
      save(await bodyOf(pdf), fileName(dash.name, 'pdf'));
    });

  // Full screen is for looking: no edit controls there.
  const editable = mayEdit(session, dash) && !fullScreen;
  const deletable = isManager(session) || (session.userId !== undefined && dash.created_by === session.userId);
  const presets = dash.global_filter_presets ?? [];

  return (
    <section class="dashboard">
      <DashboardHeader
        dash={dash}
        every={every}
        onEvery={setEvery}
        fullScreen={fullScreen}
        onFullScreen={toggleFullScreen}
        onPdf={() => void downloadPdf()}
        busy={action.busy}
        editable={editable}
        deletable={deletable && !fullScreen}
        onAddWidget={() => setEditing('new')}
        onAddText={() => setEditingText('new')}
        onSettings={() => setSettings(true)}
        onDelete={() => setDeleting(true)}
      />
      <FilterBar
        state={state}
        onChange={setState}
        dimensions={dimensions}
        presets={presets}
        presetState={fromPreset}
        onSavePreset={
          editable ? (name) => savePresets([...presets, { name, filters: toPresetFilters(state) }], `Saved the view “${name}”.`) : undefined
        }
        onDeletePreset={
          editable
            ? (p) =>
                savePresets(
                  presets.filter((x) => x.id !== p.id),
                  `Deleted the view “${p.name}”.`,
                )
            : undefined
        }
      />
      <Problem error={action.error} />
      <Problem error={catalogError} />
      <p class="sr-only" role="status" aria-live="polite">
        {announce}
      </p>
      {widgets.length === 0 && blocks.length === 0 ? (
        <p class="empty">
          This dashboard has no widgets yet.{' '}
          {editable ? (
            <>
              Add one here, from an insight, or from an answer in <Link href="/chat">Chat</Link>.
            </>
          ) : null}
        </p>
      ) : (
        <DashboardGrid
          order={order}
          text={text}
          filters={filters}
          editable={editable}
          tick={tick}
          onEdit={setEditing}
          onRemove={setRemoving}
        />
      )}
      <DashboardDialogs dash={dash} setDash={setDash} dialogs={dialogs} order={order} text={text} action={action} />
    </section>
  );
}
