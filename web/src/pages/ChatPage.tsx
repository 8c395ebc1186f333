// Chat: questions in plain language; each answer shows the reply, the chart and the rows, and can
// be added to a dashboard. Follow-ups reuse the conversation (history_id) until "New conversation".
import { useEffect, useRef, useState } from 'preact/hooks';
import { post } from '../api.ts';
import { loadCatalog } from '../catalog.ts';
import { COMPARES, RANGES, rangeOf } from '../dashboard-filters.ts';
import { AddToDashboardToggle } from '../components/AddToDashboard.tsx';
import { Problem } from '../components/Problem.tsx';
import { Result } from '../components/Result.tsx';
import { columnsOf } from '../columns.ts';
import { localeOf } from '../locale.ts';
import type { ChatData, Column, Insight } from '../types.ts';

interface Turn {
  id: number;
  question: string;
  answer?: ChatData;
  error?: unknown;
}

const KEY = 'insights.chat';

function restore(): { historyId?: string; turns: Turn[] } {
  try {
    return JSON.parse(sessionStorage.getItem(KEY) ?? '') as { historyId?: string; turns: Turn[] };
  } catch {
    return { turns: [] };
  }
}

/** Questions to start with, from the catalog: one per insight, with a period people ask for. */
function examplesOf(catalog: Insight[]): string[] {
  const when: Record<string, string> = {
    timeseries: 'per week this quarter',
    breakdown: 'last month',
    top: 'this year',
    kpi: 'last month',
  };
  return catalog.slice(0, 6).map((i) => `${i.name} ${when[i.kind] ?? 'last month'}`);
}

/** "How this was answered": the insight, its filters, the period and the comparison that ran. */
function howAnswered(a: ChatData, catalog: Insight[]): string | undefined {
  const q = a.query;
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

/**
 * The answer's columns, titled in its language by the service; a row key it did not name (or an
 * answer kept from before it named them) gets a column made from the rows.
 */
function answerColumns(a: ChatData): Column[] {
  const named = (a as { columns?: Column[] }).columns ?? [];
  const known = new Set(named.map((c) => c.name));
  return [...named, ...columnsOf(a.rows).filter((c) => !known.has(c.name))];
}

function Answer({ turn, catalog, fresh }: { turn: Turn; catalog: Insight[]; fresh: boolean }) {
  const el = useRef<HTMLDivElement>(null);
  const a = turn.answer!;
  const q = a.query;
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
              snapshot: { rows: a.rows, hint: a.chart_hint, question: turn.question },
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

export function ChatPage() {
  const initial = useRef(restore());
  const [turns, setTurns] = useState<Turn[]>(initial.current.turns ?? []);
  const [historyId, setHistoryId] = useState<string | undefined>(initial.current.historyId);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const [catalog, setCatalog] = useState<Insight[]>([]);
  const [freshId, setFreshId] = useState<number>();
  useEffect(() => {
    loadCatalog().then(setCatalog, () => setCatalog([]));
  }, []);

  useEffect(() => {
    sessionStorage.setItem(KEY, JSON.stringify({ historyId, turns: turns.filter((t) => t.answer).slice(-20) }));
  }, [turns, historyId]);

  const ask = async (e: Event | null, text?: string) => {
    e?.preventDefault();
    const question = (text ?? message).trim();
    if (!question) return;
    const turn: Turn = { id: Date.now(), question };
    setTurns((t) => [...t, turn]);
    setMessage('');
    setBusy(true);
    try {
      const res = await post<{ success: boolean; data: ChatData }>(
        '/ai/chat',
        historyId ? { message: question, history_id: historyId } : { message: question },
      );
      setHistoryId(res.data.history_id);
      setFreshId(turn.id);
      setTurns((t) => t.map((x) => (x.id === turn.id ? { ...x, answer: res.data } : x)));
    } catch (err) {
      setTurns((t) => t.map((x) => (x.id === turn.id ? { ...x, error: err } : x)));
      input.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="chat">
      <div class="page-head">
        <h1 tabIndex={-1}>Chat</h1>
        {turns.length > 0 && (
          <button
            type="button"
            onClick={() => {
              setTurns([]);
              setHistoryId(undefined);
            }}
          >
            New conversation
          </button>
        )}
      </div>
      {turns.length === 0 && (
        <>
          <p class="muted">Ask about your data in your words, then follow up with “and in France?”. For example:</p>
          <ul class="examples" aria-label="Example questions">
            {examplesOf(catalog).map((ex) => (
              <li key={ex}>
                <button type="button" class="chip-main example" onClick={() => void ask(null, ex)}>
                  {ex}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      <ol class="turns" aria-label="Conversation">
        {turns.map((t) => (
          <li key={t.id} class="turn">
            <p class="question">
              <span class="sr-only">You asked: </span>
              {t.question}
            </p>
            {t.answer ? (
              <Answer turn={t} catalog={catalog} fresh={t.id === freshId} />
            ) : t.error ? (
              <Problem error={t.error} />
            ) : (
              <p role="status">Thinking…</p>
            )}
          </li>
        ))}
      </ol>
      <form class="ask" onSubmit={ask}>
        <label for="question">Ask a question</label>
        <div class="ask-row">
          <textarea
            id="question"
            ref={input}
            rows={2}
            maxLength={2000}
            value={message}
            onInput={(e) => setMessage(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey) ask(e);
            }}
            placeholder={turns.length ? 'A follow-up, e.g. “and in France?”' : 'e.g. revenue by country last month'}
          />
          <button type="submit" class="primary" disabled={busy || !message.trim()}>
            Ask
          </button>
        </div>
      </form>
    </section>
  );
}
