import { useState } from 'preact/hooks';
import { allPages, api, bodyOf } from '../api.ts';
import { Problem } from '../components/Problem.tsx';
import { useAction, useAsync } from '../components/useAsync.ts';
import { Link, navigate } from '../router.tsx';
import { isManager, useSession } from '../session.ts';
import type { Dashboard } from '../types.ts';
import { FormActions } from '../components/FormActions.tsx';

/**
 * The starter dashboard ("Start here"), made by the service from the catalog as the demo seed
 * makes it (POST /dashboards/starter: the tenant's existing one when it still exists).
 */
function createStarter(): Promise<Dashboard> {
  return bodyOf(api.POST('/api/v1/dashboards/starter', { body: {} }));
}

/** The starter's name, as the service makes it (POST /dashboards/starter). */
export const STARTER_NAME = 'Start here';

/** Where signing in lands: the starter dashboard when the user has one, else the list. */
export async function landingPath(): Promise<string> {
  try {
    const starter = (await allPages((query) => api.GET('/api/v1/dashboards/', { params: { query } }))).find((d) => d.name === STARTER_NAME);
    return starter ? `/dashboards/${starter.id}` : '/dashboards';
  } catch {
    return '/dashboards';
  }
}

/** The first steps, for those who may make dashboards: open when there are none, one click away otherwise. */
function Guide({ open, onStarter, busy }: { open: boolean; onStarter: () => void; busy: boolean }) {
  return (
    <details class="guide-box" open={open}>
      <summary>
        <h2>Getting started</h2>
      </summary>
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
      <button type="button" class="primary" disabled={busy} onClick={onStarter}>
        {open ? 'Create a starter dashboard' : 'Open the starter dashboard'}
      </button>
    </details>
  );
}

export function DashboardList() {
  const session = useSession();
  const list = useAsync(() => allPages((query) => api.GET('/api/v1/dashboards/', { params: { query } })), []);
  const create = useAction();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [open, setOpen] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    let created: Dashboard | undefined;
    const ok = await create.run(async () => {
      created = await bodyOf(
        api.POST('/api/v1/dashboards/', {
          body: {
            name: name.trim(),
            ...(description.trim() ? { description: description.trim() } : {}),
          },
        }),
      );
    });
    if (ok && created) navigate(`/dashboards/${created.id}`);
  };

  const starter = async () => {
    let made: Dashboard | undefined;
    if (await create.run(async () => (made = await createStarter()))) navigate(`/dashboards/${made!.id}`);
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
          <FormActions submitLabel="Create" onCancel={() => setOpen(false)} disabled={create.busy} />
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
          {isManager(session) && <Guide open onStarter={starter} busy={create.busy} />}
          <Problem error={create.error} />
        </div>
      ) : (
        <>
          {isManager(session) && <Guide open={false} onStarter={starter} busy={create.busy} />}
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
        </>
      )}
    </section>
  );
}
