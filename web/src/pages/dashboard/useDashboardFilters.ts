// The dashboard's filter bar: its state (the URL's, else the active preset's), which filters the
// widgets take, what of it applies to each widget, a value picked in a chart, and saved views.
import { useMemo } from 'preact/hooks';
import { api, bodyOf, type RequestBody } from '../../api.ts';
import { useQueryTakes } from '../../components/explore/query-takes.ts';
import type { useAction } from '../../components/useAsync.ts';
import {
  appliesTo,
  dataQuery,
  emptyState,
  fromPreset,
  fromSearch,
  pickState,
  refreshBody,
  toSearch,
  type BarState,
} from '../../dashboard-filters.ts';
import { navigate } from '../../router.tsx';
import type { Dashboard, FilterOptions, Insight, Widget } from '../../types.ts';

const FILTER_WORDS: Record<string, string> = { date: 'date range', compare: 'comparison' };

type DashboardPatch = RequestBody<'/api/v1/dashboards/{id}', 'patch'>;

interface Args {
  dash: Dashboard;
  setDash: (d: Dashboard) => void;
  widgets: Widget[];
  insights: Insight[] | undefined;
  options: FilterOptions[];
  search: string;
  action: ReturnType<typeof useAction>;
  setAnnounce: (said: string) => void;
}

export function useDashboardFilters({ dash, setDash, widgets, insights, options, search, action, setAnnounce }: Args) {
  const byCode = useMemo(() => new Map((insights ?? []).map((i) => [i.code, i])), [insights]);
  const activePreset = (dash.global_filter_presets ?? []).find((p) => p.id === dash.active_preset_id);
  // The URL's state; none: the active preset's filters, so the page shows what the reports send.
  const fromUrl = fromSearch(search);
  const state: BarState = fromUrl ?? (activePreset ? fromPreset(activePreset) : emptyState());
  const body = refreshBody(fromUrl);
  const query = dataQuery(fromUrl);
  const setState = (next: BarState) => navigate(`/dashboards/${dash.id}${toSearch(next)}`);
  const live = widgets.filter((w) => w.data_source === 'live_insight');
  // A query widget takes the filters whose dimension its measures reach (docs/query.md).
  const queryTakes = useQueryTakes(
    live.some((w) => w.query),
    options,
  );
  const taken = new Set(live.flatMap((w) => [...(byCode.get(w.insight_code ?? '')?.filters ?? []), ...queryTakes(w.query)]));
  const dimensions = options.filter((o) => taken.has(o.name));
  const labelOf = (dim: string) => FILTER_WORDS[dim] ?? options.find((o) => o.name === dim)?.label.toLowerCase() ?? dim;
  const applies = (w: Widget) => {
    const a = appliesTo(w, byCode.get(w.insight_code ?? ''), queryTakes(w.query));
    const applied = [
      ...(a.date ? ['date range'] : []),
      ...(a.compare ? ['comparison'] : []),
      ...dimensions.filter((d) => a.dims.has(d.name)).map((d) => d.label.toLowerCase()),
    ];
    return { applied, ignored: (w.ignored_filters ?? []).map(labelOf) };
  };
  const dimensionNames = new Set(options.map((o) => o.name));
  const onPick = (pick: Parameters<typeof pickState>[1]) => {
    const next = pickState(state, pick, dimensionNames);
    if (!next) {
      setAnnounce(`“${pick.value}” is not a value the dashboard can be filtered by.`);
      return;
    }
    setState(next);
    setAnnounce(`Filtered by ${pick.value}.`);
  };
  const savePresets = async (presets: NonNullable<DashboardPatch['global_filter_presets']>, said: string) => {
    const ok = await action.run(async () => {
      const d = await bodyOf(
        api.PATCH('/api/v1/dashboards/{id}', { params: { path: { id: dash.id } }, body: { global_filter_presets: presets } }),
      );
      setDash({ ...dash, ...d });
    });
    if (ok) setAnnounce(said);
  };
  return { state, setState, body, query, dimensions, dimensionNames, applies, onPick, savePresets };
}
