// A chat conversation: its turns and history_id, kept in the tab's session (the last 20 answered
// turns), and asking: a question, or a follow-up in the same conversation.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, bodyOf } from '../../api.ts';
import type { Turn } from './ChatAnswer.tsx';

const KEY = 'insights.chat';

function restore(): { historyId?: string; turns: Turn[] } {
  try {
    return JSON.parse(sessionStorage.getItem(KEY) ?? '') as { historyId?: string; turns: Turn[] };
  } catch {
    return { turns: [] };
  }
}

export function useConversation() {
  const initial = useRef(restore());
  const [turns, setTurns] = useState<Turn[]>(initial.current.turns ?? []);
  const [historyId, setHistoryId] = useState<string | undefined>(initial.current.historyId);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const [freshId, setFreshId] = useState<number>();

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
      const body = historyId ? { message: question, history_id: historyId } : { message: question };
      const res = await bodyOf(api.POST('/api/v1/ai/chat', { body }));
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

  const restart = () => {
    setTurns([]);
    setHistoryId(undefined);
  };
  return { turns, message, setMessage, busy, input, freshId, ask, restart };
}
