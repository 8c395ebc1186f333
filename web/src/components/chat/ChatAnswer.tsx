// One answer of chat: the reply, how it was answered (the insight or query, its filters, period
// and comparison), the result drawn, and "Add to dashboard" (live, or the rows as a snapshot).
import { useEffect, useRef } from 'preact/hooks';
import { answerColumns } from '../../columns.ts';
import { COMPARES, RANGES, rangeOf } from '../../dashboard-filters.ts';
import { localeOf } from '../../locale.ts';
import type { ChatData, Insight } from '../../types.ts';
import { AddToDashboardToggle } from '../AddToDashboard.tsx';
import { Result } from '../Result.tsx';

export interface Turn {
  id: number;
  question: string;
  answer?: ChatData;
  error?: unknown;
}

/** The insight's query of an answer; a composed answer's semantic query has none (docs/chat.md "Composed answers"). */
function insightQuery(a: ChatData) {
  return a.query && 'insight_code' in a.query ? a.query : null;
}

/** "How this was answered": the insight, its filters, the period and the comparison that ran. */
function howAnswered(a: ChatData, catalog: Insight[]): string | undefined {
  if (a.query && 'measures' in a.query) {
    const t = a.query.time;
    const dims = a.query.dimensions?.length ? ` by ${a.query.dimensions.join(', ')}` : '';
    const period = t?.date_to ? ` · period: ${t.date_from ?? '…'} – ${t.date_to}` : ' · all of the data';
    return `Answered with a query: ${a.query.measures.join(', ')}${dims}${period}`;
  }
  const q = insightQuery(a);
  if (!q) return undefined;
  const name = catalog.find((i) => i.code === q.insight_code)?.name ?? q.insight_code;
  const filters = Object.entries(q.filters ?? {})
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(' or ') : v}`);
  const range = rangeOf(q.date_from, q.date_to);
  const period = range
    ? RANGES.find(([r]) => r === range)![1].toLowerCase()
    : q.date_from || q.date_to
      ? `${q.date_from ?? '…'} – ${q.date_to ?? '…'}`
      : 'its default period';
  const compare = (q as { compare?: string }).compare;
  const compared = compare ? COMPARES.find(([c]) => c === compare)?.[1].toLowerCase() : undefined;
  return [
    `Answered with ${name}`,
    filters.length ? `filters: ${filters.join(', ')}` : 'no filters',
    `period: ${period}`,
    ...(compared ? [`compared with ${compared}`] : []),
  ].join(' · ');
}

export function ChatAnswer({ turn, catalog, fresh }: { turn: Turn; catalog: Insight[]; fresh: boolean }) {
  const el = useRef<HTMLDivElement>(null);
  const a = turn.answer!;
  const q = insightQuery(a);
  // A live widget keeps a relative period ("last month" stays last month) as widget_filters.range.
  const range = rangeOf(q?.date_from, q?.date_to);
  const filters = {
    ...(q?.filters
      ? Object.fromEntries(Object.entries(q.filters).filter(([, v]) => (typeof v === 'string' && v) || Array.isArray(v)))
      : {}),
    ...(range ? { range } : {}),
  };
  const datesFixed = Boolean(q?.date_from || q?.date_to) && !range;
  const how = howAnswered(a, catalog);
  useEffect(() => {
    // A new answer is scrolled to and focused, so it is seen and read out, not left below the fold.
    if (fresh) {
      el.current?.scrollIntoView({ block: 'start', behavior: 'instant' as ScrollBehavior });
      el.current?.focus({ preventScroll: true });
    }
  }, []);
  return (
    <div class="answer" ref={el} tabIndex={-1} role="region" aria-label={`Answer to “${turn.question}”`}>
      <p class="reply">{a.reply_text}</p>
      {how && <p class="how muted small">{how}</p>}
      <Result hint={a.chart_hint} rows={a.rows} columns={answerColumns(a)} locale={localeOf(a.language)} label={turn.question} />
      {a.rows.length > 0 && (
        <div class="answer-actions">
          <AddToDashboardToggle
            idPrefix={`add-${turn.id}`}
            note={
              datesFixed && (
                <p class="muted small">A live widget shows the insight over its default window; this answer was for fixed dates.</p>
              )
            }
            source={{
              title: turn.question.slice(0, 200),
              snapshot: { rows: a.rows, columns: answerColumns(a), hint: a.chart_hint, question: turn.question },
              live: a.insight_code
                ? {
                    insight_code: a.insight_code,
                    granularity: q?.granularity,
                    filters: Object.keys(filters).length ? filters : undefined,
                  }
                : undefined,
            }}
          />
        </div>
      )}
    </div>
  );
}
