// An embedded dashboard: its title, the filters the token locks (fixed chips), and its live widgets
// on the app's 12-column grid. It tells the host when the first widget is drawn and when all are.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { components } from '../api-types.ts';
import { EmbeddedWidget } from './EmbeddedWidget.tsx';
import { embedApi, post } from './frame.ts';

type Dashboard = components['schemas']['EmbeddedDashboard'];

export function EmbeddedDashboard({ id, hideTitle }: { id: string; hideTitle: boolean }) {
  const [dashboard, setDashboard] = useState<Dashboard>();
  const [error, setError] = useState<string>();
  const settled = useRef(new Set<string>());
  const first = useRef(true);

  useEffect(() => {
    embedApi<Dashboard>('GET', `/api/v1/embed/dashboards/${encodeURIComponent(id)}`).then(setDashboard, (err: Error) => {
      setError(err.message);
      post({ type: 'insights:error', message: err.message });
    });
  }, [id]);

  useEffect(() => {
    if (dashboard && !dashboard.widgets.length) ready();
  }, [dashboard]);

  const ready = () => {
    if (document.body.dataset.ready) return;
    document.body.dataset.ready = 'true';
    post({ type: 'insights:ready' });
  };
  /** A widget drawn (`drawn`) or failed: the page is ready once every widget is one or the other. */
  const onSettled = (widget: string, drawn: boolean) => {
    if (drawn && first.current) {
      first.current = false;
      performance.mark('insights:first-chart');
      post({ type: 'insights:first-chart', widget });
    }
    settled.current.add(widget);
    if (dashboard && settled.current.size === dashboard.widgets.length) ready();
  };

  if (error) return <p class="error">{error}</p>;
  if (!dashboard)
    return (
      <p class="skeleton" role="status">
        Loading…
      </p>
    );
  const locked = Object.entries(dashboard.locked_filters);
  return (
    <>
      {!hideTitle && <h1>{dashboard.name}</h1>}
      {locked.length > 0 && (
        <ul class="locked" aria-label="Fixed filters">
          {locked.map(([k, v]) => (
            <li key={k} title="Fixed by the page you are on">
              {`${k}: ${([] as string[]).concat(v).join(', ')} 🔒`}
            </li>
          ))}
        </ul>
      )}
      <div class="grid">
        {dashboard.widgets.map((w) => (
          <EmbeddedWidget key={w.id} dashboard={dashboard.id} widget={w} onSettled={onSettled} />
        ))}
      </div>
    </>
  );
}
