// A dashboard: its widgets laid out by display_size in widget_ids order, reorderable by dragging
// and by the move buttons, resizable by a handle and by the menu; markdown text blocks sit between
// them by position; the active filter preset switches here and live widgets reload.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, del, get, getBlob, patch, post } from '../api.ts';
import { loadCatalog } from '../catalog.ts';
import { FilterBar } from '../components/FilterBar.tsx';
import {
  appliesTo,
  emptyState,
  fromPreset,
  fromSearch,
  dataQuery,
  pdfQuery,
  pickState,
  refreshBody,
  toPresetFilters,
  toSearch,
  type BarState,
} from '../dashboard-filters.ts';
import { fileName, save } from '../downloads.ts';
import { Confirm, Modal } from '../components/Confirm.tsx';
import { DashboardSettings } from '../components/DashboardSettings.tsx';
import { Problem } from '../components/Problem.tsx';
import { useAction, useAsync } from '../components/useAsync.ts';
import { WidgetCard } from '../components/WidgetCard.tsx';
import { WidgetForm } from '../components/WidgetForm.tsx';
import { sizeWords } from '../components/Resize.tsx';
import { TextBlock, TextBlockForm, textName } from '../components/TextBlock.tsx';
import { Link, navigate, useSearch } from '../router.tsx';
import { isManager, mayEdit, useSession } from '../session.ts';
import type { Dashboard, DisplaySize, FilterOptions, Insight, TextBlock as Block, Widget } from '../types.ts';

/** Widgets and text blocks in one order: each block before the widget at its position, the rest at the end. */
type Item = { kind: 'widget'; widget: Widget; index: number } | { kind: 'text'; block: Block };
export function layout(widgets: Widget[], blocks: Block[]): Item[] {
  const sorted = [...blocks].sort((a, b) => a.position - b.position);
  const out: Item[] = [];
  let k = 0;
  widgets.forEach((widget, index) => {
    while (k < sorted.length && sorted[k].position <= index) out.push({ kind: 'text', block: sorted[k++] });
    out.push({ kind: 'widget', widget, index });
  });
  while (k < sorted.length) out.push({ kind: 'text', block: sorted[k++] });
  return out;
}

function ordered(d: Dashboard, widgets: Widget[]): Widget[] {
  const byId = new Map(widgets.map((w) => [w.id, w]));
  const inOrder = d.widget_ids.map((id) => byId.get(id)).filter((w): w is Widget => !!w);
  return [...inOrder, ...widgets.filter((w) => !d.widget_ids.includes(w.id))];
}

export function DashboardPage({ id }: { id: string }) {
  const loaded = useAsync(() => get<Dashboard>(`/dashboards/${id}`), [id]);
  const catalog = useAsync(() => loadCatalog(), []);
  const options = useAsync(() => get<FilterOptions[]>('/insights/filters'), []);
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

const FILTER_WORDS: Record<string, string> = { date: 'date range', compare: 'comparison' };

function DashboardView({ loaded, insights, catalogError, options, search }: ViewProps) {
  const session = useSession();
  const [dash, setDash] = useState<Dashboard>(loaded);
  const [widgets, setWidgets] = useState<Widget[]>(() => ordered(loaded, loaded.widgets ?? []));
  const [editing, setEditing] = useState<Widget | 'new' | null>(null);
  const [settings, setSettings] = useState(false);
  const [removing, setRemoving] = useState<Widget | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [dragId, setDragId] = useState<string | null>(null);
  const [announce, setAnnounce] = useState('');
  const action = useAction();
  const [every, setEvery] = useState(0);
  const [tick, setTick] = useState(0);
  const [blocks, setBlocks] = useState<Block[]>([]);
  const [editingText, setEditingText] = useState<Block | 'new' | null>(null);
  const [removingText, setRemovingText] = useState<Block | null>(null);
  useEffect(() => {
    void action.run(async () => setBlocks(await get<Block[]>(`/dashboards/${loaded.id}/text-blocks`)));
  }, [loaded.id]);
  const [fullScreen, setFullScreen] = useState(false);
  useEffect(() => {
    if (!every) return;
    const t = setInterval(() => setTick((n) => n + 1), every * 1000);
    return () => clearInterval(t);
  }, [every]);
  useEffect(() => {
    const l = () => setFullScreen(document.fullscreenElement !== null);
    document.addEventListener('fullscreenchange', l);
    return () => document.removeEventListener('fullscreenchange', l);
  }, []);
  const toggleFullScreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.querySelector('section.dashboard')?.requestFullscreen();
  };
  const byCode = useMemo(() => new Map((insights ?? []).map((i) => [i.code, i])), [insights]);
  const activePreset = (dash.global_filter_presets ?? []).find((p) => p.id === dash.active_preset_id);
  // The URL's state; none: the active preset's filters, so the page shows what the reports send.
  const fromUrl = fromSearch(search);
  const state: BarState = fromUrl ?? (activePreset ? fromPreset(activePreset) : emptyState());
  const body = refreshBody(fromUrl);
  const query = dataQuery(fromUrl);
  const setState = (next: BarState) => navigate(`/dashboards/${dash.id}${toSearch(next)}`);
  const live = widgets.filter((w) => w.data_source === 'live_insight');
  const taken = new Set(live.flatMap((w) => byCode.get(w.insight_code ?? '')?.filters ?? []));
  const dimensions = options.filter((o) => taken.has(o.name));
  const labelOf = (dim: string) => FILTER_WORDS[dim] ?? options.find((o) => o.name === dim)?.label.toLowerCase() ?? dim;
  const applies = (w: Widget) => {
    const a = appliesTo(w, byCode.get(w.insight_code ?? ''));
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
  const downloadPdf = () =>
    action.run(async () => {
      save(await getBlob(`/dashboards/${dash.id}/pdf${pdfQuery(state)}`), fileName(dash.name, 'pdf'));
    });
  const savePresets = async (presets: unknown[], said: string) => {
    const ok = await action.run(async () => {
      const d = await patch<Dashboard>(`/dashboards/${dash.id}`, { global_filter_presets: presets });
      setDash({ ...dash, ...d });
    });
    if (ok) setAnnounce(said);
  };

  const editable = mayEdit(session, dash);
  const deletable = isManager(session) || (session.userId !== undefined && dash.created_by === session.userId);

  const reorder = async (next: Widget[], movedTitle: string) => {
    const previous = widgets;
    setWidgets(next);
    const ok = await action.run(async () => {
      const d = await patch<Dashboard>(`/dashboards/${dash.id}`, { widget_ids: next.map((w) => w.id) });
      setDash({ ...dash, ...d });
    });
    if (ok) {
      const pos = next.findIndex((w) => w.title === movedTitle) + 1;
      setAnnounce(`${movedTitle} moved to position ${pos} of ${next.length}.`);
    } else setWidgets(previous);
  };

  const move = (i: number, delta: number) => {
    const j = i + delta;
    if (j < 0 || j >= widgets.length) return;
    const next = [...widgets];
    [next[i], next[j]] = [next[j], next[i]];
    void reorder(next, widgets[i].title).then(() => {
      // Keep the keyboard where it was: on the same button of the moved widget.
      const label = `Move ${widgets[i].title} ${delta < 0 ? 'earlier' : 'later'}`;
      const btn = document.querySelector<HTMLButtonElement>(`[aria-label="${CSS.escape(label)}"]`);
      (btn && !btn.disabled
        ? btn
        : document.querySelector<HTMLButtonElement>(`[aria-label="${CSS.escape(`Edit ${widgets[i].title}`)}"]`)
      )?.focus();
    });
  };

  const dropOn = (targetId: string) => {
    if (!dragId || dragId === targetId) return;
    const from = widgets.findIndex((w) => w.id === dragId);
    const to = widgets.findIndex((w) => w.id === targetId);
    const next = [...widgets];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved);
    setDragId(null);
    void reorder(next, moved.title);
  };

  const removeWidget = async (w: Widget) => {
    const ok = await action.run(() => del(`/dashboards/${dash.id}/widgets/${w.id}`));
    if (ok) {
      setWidgets(widgets.filter((x) => x.id !== w.id));
      setAnnounce(`${w.title} removed.`);
    }
  };

  const resizeWidget = async (w: Widget, size: DisplaySize) => {
    const ok = await action.run(async () => {
      const nw = await patch<Widget>(`/dashboards/${dash.id}/widgets/${w.id}`, { display_size: size });
      setWidgets((ws) => ws.map((x) => (x.id === nw.id ? { ...x, display_size: nw.display_size } : x)));
    });
    if (ok) setAnnounce(`${w.title} now takes ${sizeWords(size)}.`);
  };

  const saveText = async (body: string) => {
    const current = editingText;
    const ok = await action.run(async () => {
      if (current === 'new') {
        const b = await post<Block>(`/dashboards/${dash.id}/text-blocks`, { body });
        setBlocks((bs) => [...bs, b]);
      } else if (current) {
        const b = await patch<Block>(`/dashboards/${dash.id}/text-blocks/${current.id}`, { body });
        setBlocks((bs) => bs.map((x) => (x.id === b.id ? b : x)));
      }
    });
    if (ok) {
      setEditingText(null);
      setAnnounce(current === 'new' ? 'Text added.' : 'Text saved.');
    }
  };
  const changeText = async (b: Block, changes: Partial<Pick<Block, 'position' | 'display_size'>>, said: string) => {
    const ok = await action.run(async () => {
      const nb = await patch<Block>(`/dashboards/${dash.id}/text-blocks/${b.id}`, changes);
      setBlocks((bs) => bs.map((x) => (x.id === nb.id ? nb : x)));
    });
    if (ok) setAnnounce(said);
  };
  const removeText = async (b: Block) => {
    const ok = await action.run(() => del(`/dashboards/${dash.id}/text-blocks/${b.id}`));
    if (ok) {
      setBlocks((bs) => bs.filter((x) => x.id !== b.id));
      setAnnounce(`Text ${textName(b.body)} removed.`);
    }
  };

  const deleteDashboard = async () => {
    const ok = await action.run(() => del(`/dashboards/${dash.id}`));
    if (ok) navigate('/dashboards');
  };

  const presets = dash.global_filter_presets ?? [];

  return (
    <section class="dashboard">
      <p class="crumbs">
        <Link href="/dashboards">Dashboards</Link> /
      </p>
      <div class="page-head">
        <h1 tabIndex={-1}>{dash.name}</h1>
        <div class="toolbar">
          <label class="inline">
            Auto-refresh
            <select value={String(every)} onChange={(e) => setEvery(Number(e.currentTarget.value))}>
              <option value="0">Off</option>
              <option value="60">Every minute</option>
              <option value="300">Every 5 minutes</option>
              <option value="900">Every 15 minutes</option>
            </select>
          </label>
          <button type="button" onClick={toggleFullScreen} aria-pressed={fullScreen}>
            {fullScreen ? 'Exit full screen' : 'Full screen'}
          </button>
          <button type="button" onClick={() => void downloadPdf()} disabled={action.busy}>
            Download PDF
          </button>
          {editable && (
            <>
              <button type="button" class="primary" onClick={() => setEditing('new')}>
                Add widget
              </button>
              <button type="button" onClick={() => setEditingText('new')}>
                Add text
              </button>
              <button type="button" onClick={() => setSettings(true)}>
                Edit dashboard
              </button>
            </>
          )}
          {deletable && (
            <button type="button" class="danger" onClick={() => setDeleting(true)}>
              Delete dashboard
            </button>
          )}
        </div>
      </div>
      {dash.description && <p class="lead">{dash.description}</p>}
      <p class="muted small">
        By {dash.created_by_name || dash.created_by}
        {dash.is_shared ? ' · shared with the tenant' : ''}
        {dash.shared_with_emails?.length ? ` · shared with ${dash.shared_with_emails.join(', ')}` : ''}
      </p>
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
        <div class="grid">
          {layout(widgets, blocks).map((item) => {
            if (item.kind === 'text') {
              const b = item.block;
              const name = textName(b.body);
              const at = Math.min(b.position, widgets.length);
              return (
                <TextBlock
                  key={`t-${b.id}`}
                  block={b}
                  editable={editable}
                  first={at === 0}
                  last={at >= widgets.length}
                  onEdit={() => setEditingText(b)}
                  onRemove={() => setRemovingText(b)}
                  onMove={(delta) =>
                    void changeText(b, { position: Math.max(0, at + delta) }, `Text ${name} moved ${delta < 0 ? 'earlier' : 'later'}.`)
                  }
                  onResize={(size) => void changeText(b, { display_size: size }, `Text ${name} now takes ${sizeWords(size)}.`)}
                />
              );
            }
            const { widget: w, index: i } = item;
            return (
              <WidgetCard
                key={w.id}
                widget={w}
                body={w.data_source === 'live_insight' ? body : {}}
                query={w.data_source === 'live_insight' ? query : ''}
                applies={applies(w)}
                tick={tick}
                onPick={onPick}
                pickable={dimensionNames}
                editable={editable}
                index={i}
                count={widgets.length}
                onEdit={() => setEditing(w)}
                onRemove={() => setRemoving(w)}
                onMove={(delta) => move(i, delta)}
                onResize={(size) => void resizeWidget(w, size)}
                onRefreshed={(nw) => setWidgets((ws) => ws.map((x) => (x.id === nw.id ? nw : x)))}
                drag={{
                  dragging: dragId === w.id,
                  onDragStart: (e) => {
                    setDragId(w.id);
                    e.dataTransfer?.setData('text/plain', w.id);
                    if (e.dataTransfer) e.dataTransfer.effectAllowed = 'move';
                  },
                  onDragOver: (e) => {
                    if (dragId) e.preventDefault();
                  },
                  onDrop: (e) => {
                    e.preventDefault();
                    dropOn(w.id);
                  },
                  onDragEnd: () => setDragId(null),
                }}
              />
            );
          })}
        </div>
      )}
      <Modal
        title={editing === 'new' ? 'Add widget' : `Edit ${editing?.title ?? ''}`}
        open={editing !== null}
        onClose={() => setEditing(null)}
      >
        <WidgetForm
          dashboardId={dash.id}
          widget={editing && editing !== 'new' ? editing : undefined}
          onCancel={() => setEditing(null)}
          onSaved={(w) => {
            setWidgets(editing === 'new' ? [...widgets, w] : widgets.map((x) => (x.id === w.id ? w : x)));
            setEditing(null);
          }}
        />
      </Modal>
      <Modal title={editingText === 'new' ? 'Add text' : 'Edit text'} open={editingText !== null} onClose={() => setEditingText(null)}>
        <TextBlockForm
          block={editingText && editingText !== 'new' ? editingText : undefined}
          busy={action.busy}
          onCancel={() => setEditingText(null)}
          onSave={(body) => void saveText(body)}
        />
      </Modal>
      <Confirm
        title="Remove text"
        message={`Remove the text “${removingText ? textName(removingText.body) : ''}” from this dashboard?`}
        confirmLabel="Remove"
        open={removingText !== null}
        onClose={() => setRemovingText(null)}
        onConfirm={() => removingText && removeText(removingText)}
      />
      <Modal title="Edit dashboard" open={settings} onClose={() => setSettings(false)}>
        <DashboardSettings
          dashboard={dash}
          onCancel={() => setSettings(false)}
          onSaved={(d) => {
            setDash({ ...dash, ...d });
            setSettings(false);
          }}
        />
      </Modal>
      <Confirm
        title="Remove widget"
        message={`Remove “${removing?.title ?? ''}” from this dashboard?`}
        confirmLabel="Remove"
        open={removing !== null}
        onClose={() => setRemoving(null)}
        onConfirm={() => removing && removeWidget(removing)}
      />
      <Confirm
        title="Delete dashboard"
        message={`Delete “${dash.name}” with its ${widgets.length} widget(s) and its scheduled reports? This cannot be undone.`}
        confirmLabel="Delete"
        open={deleting}
        onClose={() => setDeleting(false)}
        onConfirm={deleteDashboard}
      />
    </section>
  );
}
