// One subscription or report in its list: what it sends, when, where; its switch, "Send now",
// "Edit" (its form, filled with its values) and "Delete".
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { SubscriptionCalls } from '../../subscription-calls.ts';
import type { DashboardSubscription, InsightSubscription } from '../../types.ts';
import { Problem } from '../Problem.tsx';
import { describeSchedule, when } from '../../schedule.ts';
import { useAction } from '../useAsync.ts';

export type Sub = (InsightSubscription | DashboardSubscription) & { id: string; is_active: boolean };

export function SubRow({
  sub,
  title,
  detail,
  calls,
  onChanged,
  onDeleted,
  editor,
}: {
  sub: Sub;
  title: string;
  detail: string;
  calls: SubscriptionCalls<Sub>;
  onChanged: (s: Sub) => void;
  onDeleted: () => void;
  /** The form that edits it, filled with its values. */
  editor?: (close: () => void) => ComponentChildren;
}) {
  const act = useAction();
  const [sent, setSent] = useState(false);
  const [editing, setEditing] = useState(false);
  return (
    <li class="item">
      <div class="item-main">
        <strong>{title}</strong>
        <span class={`badge ${sub.is_active ? 'ok' : ''}`}>{sub.is_active ? 'active' : 'paused'}</span>
        <div class="muted small">
          {detail} · {describeSchedule(sub)} · next run: {sub.is_active ? when(sub.next_run_at, sub.timezone) : '—'}
        </div>
      </div>
      <div class="item-actions">
        <label class="switch">
          <input
            type="checkbox"
            role="switch"
            checked={sub.is_active}
            disabled={act.busy}
            onChange={(e) => act.run(async () => onChanged(await calls.setActive(sub.id, e.currentTarget.checked)))}
          />
          <span>Active</span>
          <span class="sr-only"> ({title})</span>
        </label>
        <button
          type="button"
          disabled={act.busy}
          aria-label={`Send now: ${title}`}
          onClick={() =>
            act.run(async () => {
              setSent(false);
              await calls.send(sub.id);
              setSent(true);
            })
          }
        >
          Send now
        </button>
        {editor && (
          <button type="button" aria-expanded={editing} aria-label={`Edit ${title}`} onClick={() => setEditing(!editing)}>
            Edit
          </button>
        )}
        <button
          type="button"
          class="danger"
          disabled={act.busy}
          aria-label={`Delete ${title}`}
          onClick={() => act.run(() => calls.remove(sub.id)).then((ok) => ok && onDeleted())}
        >
          Delete
        </button>
      </div>
      {sent && (
        <p class="outcome" role="status">
          Queued for delivery now; the outcome appears in the delivery log.
        </p>
      )}
      <Problem error={act.error} />
      {editing && editor?.(() => setEditing(false))}
    </li>
  );
}
