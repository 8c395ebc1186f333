// Embedded chat: one question at a time as the token's viewer, the answer drawn as the app draws
// it (Result: the chart, KPI or table of its hint, with the rows).
import { useEffect, useState } from 'preact/hooks';
import { answerColumns } from '../columns.ts';
import { Result } from '../components/Result.tsx';
import { localeOf } from '../locale.ts';
import type { ChatData } from '../types.ts';
import { embedApi, post } from './frame.ts';

export function EmbeddedChat() {
  const [history, setHistory] = useState<string>();
  const [question, setQuestion] = useState('');
  const [answer, setAnswer] = useState<ChatData>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const ask = async (e: Event) => {
    e.preventDefault();
    const message = (new FormData(e.currentTarget as HTMLFormElement).get('q') as string).trim();
    if (!message) return;
    setBusy(true);
    setError(undefined);
    try {
      const { data } = await embedApi<{ data: ChatData }>('POST', '/api/v1/embed/chat', {
        message,
        ...(history ? { history_id: history } : {}),
      });
      setHistory(data.history_id);
      setQuestion(message);
      setAnswer(data);
    } catch (err) {
      setAnswer(undefined);
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    document.body.dataset.ready = 'true';
    post({ type: 'insights:ready' });
  }, []);

  return (
    <div class="chat">
      {/* The frame's page has one heading, for screen readers' page navigation (axe: page-has-heading-one). */}
      <h1 class="sr-only">Ask about your data</h1>
      <form onSubmit={ask}>
        <input name="q" aria-label="Your question" placeholder="Ask about your data…" autocomplete="off" />
        <button type="submit" class="primary" disabled={busy}>
          Ask
        </button>
      </form>
      <div class="answer" aria-live="polite" aria-busy={busy}>
        {busy && <p>…</p>}
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        {!busy && answer && (
          <>
            <p>{answer.reply_text}</p>
            <Result
              hint={answer.chart_hint}
              rows={answer.rows}
              columns={answerColumns(answer)}
              locale={localeOf(answer.language)}
              label={question}
            />
          </>
        )}
      </div>
    </div>
  );
}
