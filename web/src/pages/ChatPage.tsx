// Chat: questions in plain language; each answer shows the reply, the chart and the rows, and can
// be added to a dashboard. Follow-ups reuse the conversation (history_id) until "New conversation".
import { useEffect, useState } from 'preact/hooks';
import { loadCatalog } from '../catalog.ts';
import { ChatAnswer } from '../components/chat/ChatAnswer.tsx';
import { useConversation } from '../components/chat/useConversation.ts';
import { Problem } from '../components/Problem.tsx';
import type { Insight } from '../types.ts';

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

export function ChatPage() {
  const { turns, message, setMessage, busy, input, freshId, ask, restart } = useConversation();
  const [catalog, setCatalog] = useState<Insight[]>([]);
  useEffect(() => {
    loadCatalog().then(setCatalog, () => setCatalog([]));
  }, []);

  return (
    <section class="chat">
      <div class="page-head">
        <h1 tabIndex={-1}>Chat</h1>
        {turns.length > 0 && (
          <button type="button" onClick={restart}>
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
              <ChatAnswer turn={t} catalog={catalog} fresh={t.id === freshId} />
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
