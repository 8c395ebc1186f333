import { useState } from 'preact/hooks';
import { getAll, post } from '../api.ts';
import { Problem } from '../components/Problem.tsx';
import { useAction, useAsync } from '../components/useAsync.ts';
import { Link, navigate } from '../router.tsx';
import { isManager, useSession } from '../session.ts';
import { loadCatalog } from '../catalog.ts';
import type { Dashboard, Insight } from '../types.ts';

/** A first dashboard from the catalog: a KPI, a time series and the breakdowns, each as its insight suggests. */
async function createStarter(): Promise<Dashboard> {
  const catalog = await loadCatalog();
  const pick = (kind: string, n: number) => catalog.filter((i) => i.kind === kind).slice(0, n);
  const chosen: Insight[] = [...pick('kpi', 2), ...pick('timeseries', 1), ...pick('breakdown', 2), ...pick('top', 1)];
  const d = await post<Dashboard>('/dashboards/', {
    name: 'Start here',
    description:
      'A first look at your data, made from the insight catalog. Change the filters above, click a bar to narrow, or add widgets.',
  });
  for (const i of chosen) {
    const type = i.kind === 'kpi' ? 'kpi' : i.chart_hint.type === 'table' ? 'table' : 'chart';
    await post(`/dashboards/${d.id}/widgets`, {
      title: i.name,
      widget_type: type,
      data_source: 'live_insight',
      insight_code: i.code,
      display_size: i.kind === 'kpi' ? 'small' : i.kind === 'timeseries' ? 'full' : 'medium',
    });
  }
  return d;
}

export function DashboardList() {
  const session = useSession();
  const list = useAsync(() => getAll<Dashboard>('/dashboards/'), []);
  const create = useAction();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [open, setOpen] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    let created: Dashboard | undefined;
    const ok = await create.run(async () => {
      created = await post<Dashboard>('/dashboards/', {
        name: name.trim(),
        ...(description.trim() ? { description: description.trim() } : {}),
      });
    });
    if (ok && created) navigate(`/dashboards/${created.id}`);
  };

  return (
    <section>
      <div class="page-head">
        <h1 tabIndex={-1}>Dashboards</h1>
        {isManager(session) && !open && (
          <button type="button" class="primary" onClick={() => setOpen(true)}>
            New dashboard
          </button>
        )}
      </div>
      {open && (
        <form class="card form" onSubmit={submit} aria-labelledby="new-dashboard">
          <h2 id="new-dashboard">New dashboard</h2>
          <label for="dash-name">Name</label>
          <input id="dash-name" required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} autoFocus />
          <label for="dash-desc">Description (optional)</label>
          <input id="dash-desc" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
          <Problem error={create.error} />
          <div class="actions">
            <button type="button" onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button type="submit" class="primary" disabled={create.busy}>
              Create
            </button>
          </div>
        </form>
      )}
      <Problem error={list.error} />
      {list.loading && !list.data ? (
        <p role="status">Loading dashboards…</p>
      ) : list.data && list.data.length === 0 ? (
        <div class="empty">
          <p>
            No dashboards yet.{' '}
            {isManager(session)
              ? 'Create one, or ask a question in Chat and add the answer to a dashboard.'
              : 'Dashboards shared with you will appear here.'}
          </p>
          {isManager(session) && (
            <>
              <h2>Getting started</h2>
              <ol class="guide">
                <li>Make a starter dashboard: a few widgets from the insight catalog, live on your data.</li>
                <li>Narrow it with the filter bar (dates, comparison, values), or click a bar to filter by it.</li>
                <li>
                  Ask a question in <Link href="/chat">Chat</Link> and add the answer to a dashboard.
                </li>
                <li>
                  Send a dashboard on a schedule from <Link href="/notifications">Notifications</Link>.
                </li>
              </ol>
              <button
                type="button"
                class="primary"
                disabled={create.busy}
                onClick={async () => {
                  let made: Dashboard | undefined;
                  if (await create.run(async () => (made = await createStarter()))) navigate(`/dashboards/${made!.id}`);
                }}
              >
                Create a starter dashboard
              </button>
            </>
          )}
          <Problem error={create.error} />
        </div>
      ) : (
        <ul class="cards" aria-label="Dashboards">
          {list.data?.map((d) => (
            <li key={d.id} class="card">
              <h2>
                <Link href={`/dashboards/${d.id}`}>{d.name}</Link>
              </h2>
              {d.description && <p>{d.description}</p>}
              <p class="muted small">
                {d.widget_ids.length} widget{d.widget_ids.length === 1 ? '' : 's'} · by {d.created_by_name || d.created_by}
                {d.is_shared ? ' · shared' : ''} · updated {new Date(d.updated_at).toLocaleDateString()}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
