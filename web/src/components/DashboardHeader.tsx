// A dashboard's head: where it is, its name, the viewing controls (auto-refresh, full screen, PDF)
// and, for those who may, the editing ones; then its description and who made and shares it.
import { Link } from '../router.tsx';
import type { Dashboard } from '../types.ts';

interface Props {
  dash: Dashboard;
  /** Auto-refresh beat in seconds (0: off). */
  every: number;
  onEvery: (seconds: number) => void;
  fullScreen: boolean;
  onFullScreen: () => void;
  onPdf: () => void;
  busy: boolean;
  editable: boolean;
  deletable: boolean;
  onAddWidget: () => void;
  onAddText: () => void;
  onSettings: () => void;
  onDelete: () => void;
}

export function DashboardHeader(props: Props) {
  const { dash, every, onEvery, fullScreen, onFullScreen, onPdf, busy, editable, deletable } = props;
  const { onAddWidget, onAddText, onSettings, onDelete } = props;
  return (
    <>
      <p class="crumbs">
        <Link href="/dashboards">Dashboards</Link> /
      </p>
      <div class="page-head">
        <h1 tabIndex={-1}>{dash.name}</h1>
        <div class="toolbar">
          <label class="inline">
            Auto-refresh
            <select value={String(every)} onChange={(e) => onEvery(Number(e.currentTarget.value))}>
              <option value="0">Off</option>
              <option value="60">Every minute</option>
              <option value="300">Every 5 minutes</option>
              <option value="900">Every 15 minutes</option>
            </select>
          </label>
          <button type="button" onClick={onFullScreen} aria-pressed={fullScreen}>
            {fullScreen ? 'Exit full screen' : 'Full screen'}
          </button>
          <button type="button" onClick={onPdf} disabled={busy}>
            Download PDF
          </button>
          {editable && (
            <>
              <button type="button" class="primary" onClick={onAddWidget}>
                Add widget
              </button>
              <button type="button" onClick={onAddText}>
                Add text
              </button>
              <button type="button" onClick={onSettings}>
                Edit dashboard
              </button>
            </>
          )}
          {deletable && (
            <button type="button" class="danger" onClick={onDelete}>
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
    </>
  );
}
