// What a widget is drawn from, in a line: where the data comes from (live or a snapshot) and what of
// the filter bar applies. The technical part (insight code, period, last refresh) is behind a
// disclosure, so it costs a reader one tab stop and a glance, not two lines on every card.
import type { Widget } from '../types.ts';

const timeFmt = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

interface Props {
  widget: Widget;
  live: boolean;
  period?: { from: string; to: string } | null;
  /** What of the filter bar applies to this widget, in words, and what it opts out of. */
  applies: { applied: string[]; ignored: string[] };
}

export function WidgetAbout({ widget: w, live, period, applies }: Props) {
  const filters = live
    ? `Filtered by: ${applies.applied.length ? applies.applied.join(', ') : 'none of the dashboard filters'}`
    : 'A snapshot: the dashboard filters do not apply.';
  return (
    <details class="widget-about muted small">
      <summary>
        {live ? 'Live' : <>Snapshot{w.snapshot_question ? <> of “{w.snapshot_question}”</> : null}</>}
        {applies.ignored.length ? ` · ignores ${applies.ignored.join(', ')}` : ''}
        {!live ? <span class="sr-only"> · {filters}</span> : null}
      </summary>
      <p class="widget-meta">
        {live ? (
          <>
            Insight {w.insight_code ?? 'query'}
            {period ? ` · ${period.from} – ${period.to}` : ''}
            {w.last_refreshed_at ? ` · refreshed ${timeFmt(w.last_refreshed_at)}` : ''}
          </>
        ) : (
          <>Taken {timeFmt(w.created_at)}</>
        )}
      </p>
      <p class="widget-filters" data-testid="widget-filters">
        {filters}
      </p>
    </details>
  );
}
