// A dashboard: its widgets laid out by display_size in widget_ids order, reorderable by dragging
// and by the move buttons; the active filter preset switches here and live widgets reload.
import { useEffect, useState } from 'preact/hooks';
import { del, get, patch } from '../api.ts';
import { Confirm, Modal } from '../components/Confirm.tsx';
import { DashboardSettings } from '../components/DashboardSettings.tsx';
import { Problem } from '../components/Problem.tsx';
import { useAction, useAsync } from '../components/useAsync.ts';
import { WidgetCard } from '../components/WidgetCard.tsx';
import { WidgetForm } from '../components/WidgetForm.tsx';
import { Link, navigate } from '../router.tsx';
import { isManager, mayEdit, useSession } from '../session.ts';
import type { Dashboard, Widget } from '../types.ts';

function ordered(d: Dashboard, widgets: Widget[]): Widget[] {
  const byId = new Map(widgets.map((w) => [w.id, w]));
  const inOrder = d.widget_ids.map((id) => byId.get(id)).filter((w): w is Widget => !!w);
  return [...inOrder, ...widgets.filter((w) => !d.widget_ids.includes(w.id))];
}

export function DashboardPage({ id }: { id: string }) {
  const session = useSession();
  const loaded = useAsync(() => get<Dashboard>(`/dashboards/${id}`), [id]);
  const [dash, setDash] = useState<Dashboard>();
  const [widgets, setWidgets] = useState<Widget[]>([]);
  const [editing, setEditing] = useState<Widget | 'new' | null>(null);
  const [settings, setSettings] = useState(false);
  const [removing, setRemoving] = useState<Widget | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [dragId, setDragId] = useState<string | null>(null);
  const [announce, setAnnounce] = useState('');
  const action = useAction();

  useEffect(() => {
    if (!loaded.data) return;
    setDash(loaded.data);
    setWidgets(ordered(loaded.data, loaded.data.widgets ?? []));
  }, [loaded.data]);

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
  if (!dash) return <p role="status">Loading the dashboard…</p>;

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
      (btn && !btn.disabled ? btn : document.querySelector<HTMLButtonElement>(`[aria-label="${CSS.escape(`Edit ${widgets[i].title}`)}"]`))?.focus();
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

  const setPreset = async (presetId: string) => {
    await action.run(async () => {
      const d = await patch<Dashboard>(`/dashboards/${dash.id}`, { active_preset_id: presetId || null });
      setDash({ ...dash, ...d });
    });
  };

  const removeWidget = async (w: Widget) => {
    const ok = await action.run(() => del(`/dashboards/${dash.id}/widgets/${w.id}`));
    if (ok) {
      setWidgets(widgets.filter((x) => x.id !== w.id));
      setAnnounce(`${w.title} removed.`);
    }
  };

  const deleteDashboard = async () => {
    const ok = await action.run(() => del(`/dashboards/${dash.id}`));
    if (ok) navigate('/dashboards');
  };

  const presets = dash.global_filter_presets ?? [];

  return (
    <section>
      <p class="crumbs">
        <Link href="/dashboards">Dashboards</Link> /
      </p>
      <div class="page-head">
        <h1 tabIndex={-1}>{dash.name}</h1>
        <div class="toolbar">
          {presets.length > 0 && (
            <label class="inline">
              Filter preset{' '}
              <select value={dash.active_preset_id ?? ''} onChange={(e) => setPreset(e.currentTarget.value)} disabled={!editable}>
                <option value="">None</option>
                {presets.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            </label>
          )}
          {editable && (
            <>
              <button type="button" class="primary" onClick={() => setEditing('new')}>
                Add widget
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
      <Problem error={action.error} />
      <p class="sr-only" role="status" aria-live="polite">
        {announce}
      </p>
      {widgets.length === 0 ? (
        <p class="empty">
          This dashboard has no widgets yet. {editable ? <>Add one here, from an insight, or from an answer in <Link href="/chat">Chat</Link>.</> : null}
        </p>
      ) : (
        <div class="grid">
          {widgets.map((w, i) => (
            <WidgetCard
              key={w.id}
              widget={w}
              presetKey={dash.active_preset_id ?? ''}
              editable={editable}
              index={i}
              count={widgets.length}
              onEdit={() => setEditing(w)}
              onRemove={() => setRemoving(w)}
              onMove={(delta) => move(i, delta)}
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
          ))}
        </div>
      )}
      <Modal title={editing === 'new' ? 'Add widget' : `Edit ${editing?.title ?? ''}`} open={editing !== null} onClose={() => setEditing(null)}>
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
