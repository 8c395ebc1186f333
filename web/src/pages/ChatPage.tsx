// Chat: questions in plain language; each answer shows the reply, the chart and the rows, and can
// be added to a dashboard. Follow-ups reuse the conversation (history_id) until "New conversation".
import { useEffect, useRef, useState } from 'preact/hooks';
import { post } from '../api.ts';
import { AddToDashboard } from '../components/AddToDashboard.tsx';
import { Problem } from '../components/Problem.tsx';
import { Result } from '../components/Result.tsx';
import { Link } from '../router.tsx';
import type { ChatData, Dashboard, Widget } from '../types.ts';

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

function Answer({ turn }: { turn: Turn }) {
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState<{ w: Widget; d: Dashboard }>();
  const a = turn.answer!;
  const q = a.query;
  const filters = q?.filters ? Object.fromEntries(Object.entries(q.filters).filter(([, v]) => typeof v === 'string' && v)) : undefined;
  const datesFixed = Boolean(q?.date_from || q?.date_to);
  return (
    <div class="answer">
      <p class="reply">{a.reply_text}</p>
      <Result hint={a.chart_hint} rows={a.rows} label={turn.question} />
      {a.rows.length > 0 && (
        <div class="answer-actions">
          {added ? (
            <p role="status">
              Added “{added.w.title}” to <Link href={`/dashboards/${added.d.id}`}>{added.d.name}</Link>.
            </p>
          ) : adding ? (
            <div class="card">
              <h3>Add to dashboard</h3>
              {datesFixed && <p class="muted small">A live widget shows the insight over its default window; this answer was for fixed dates.</p>}
              <AddToDashboard
                idPrefix={`add-${turn.id}`}
                source={{
                  title: turn.question.slice(0, 200),
                  snapshot: { rows: a.rows, hint: a.chart_hint, question: turn.question },
                  live: a.insight_code ? { insight_code: a.insight_code, granularity: q?.granularity, filters } : undefined,
                }}
                onDone={(w, d) => setAdded({ w, d })}
              />
            </div>
          ) : (
            <button type="button" onClick={() => setAdding(true)}>
              Add to dashboard
            </button>
          )}
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

  useEffect(() => {
    sessionStorage.setItem(KEY, JSON.stringify({ historyId, turns: turns.filter((t) => t.answer).slice(-20) }));
  }, [turns, historyId]);

  const ask = async (e: Event) => {
    e.preventDefault();
    const question = message.trim();
    if (!question) return;
    const turn: Turn = { id: Date.now(), question };
    setTurns((t) => [...t, turn]);
    setMessage('');
    setBusy(true);
    try {
      const res = await post<{ success: boolean; data: ChatData }>('/ai/chat', historyId ? { message: question, history_id: historyId } : { message: question });
      setHistoryId(res.data.history_id);
      setTurns((t) => t.map((x) => (x.id === turn.id ? { ...x, answer: res.data } : x)));
    } catch (err) {
      setTurns((t) => t.map((x) => (x.id === turn.id ? { ...x, error: err } : x)));
    } finally {
      setBusy(false);
      input.current?.focus();
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
        <p class="muted">
          Ask about revenue, orders, customers, refunds or products, e.g. “revenue by country last month”, “orders per week this quarter”, then follow up with “and in France?”.
        </p>
      )}
      <ol class="turns" aria-label="Conversation">
        {turns.map((t) => (
          <li key={t.id} class="turn">
            <p class="question">
              <span class="sr-only">You asked: </span>
              {t.question}
            </p>
            {t.answer ? <Answer turn={t} /> : t.error ? <Problem error={t.error} /> : <p role="status">Thinking…</p>}
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
