// The delivery log, newest first, a page at a time (the API's cursor from the Link header).
import { useEffect, useState } from 'preact/hooks';
import { api, pageOf } from '../api.ts';
import type { DeliveryLog as Log } from '../types.ts';
import { Problem } from './Problem.tsx';
import { when } from '../schedule.ts';
import { useAction } from './useAsync.ts';

const PAGE = 20;

export function DeliveryLog({ reloadKey }: { reloadKey: number }) {
  const [status, setStatus] = useState('');
  // The cursors of the pages before the current one, and the current one's ('' = first).
  const [cursors, setCursors] = useState<string[]>([]);
  const [cursor, setCursor] = useState('');
  const [rows, setRows] = useState<Log[]>();
  const [next, setNext] = useState<string>();
  const load = useAction();

  const fetchPage = async (c: string) => {
    const query = { limit: PAGE, ...(status ? { status: status as Log['status'] } : {}), ...(c ? { cursor: c } : {}) };
    await load.run(async () => {
      const page = await pageOf(api.GET('/api/v1/notifications/logs', { params: { query } }));
      setRows(page.items);
      setNext(page.next?.cursor);
    });
  };

  useEffect(() => {
    setCursors([]);
    setCursor('');
    void fetchPage('');
  }, [status, reloadKey]);

  const page = cursors.length + 1;

  return (
    <section aria-labelledby="log-h" class="panel">
      <div class="page-head">
        <h2 id="log-h">Delivery log</h2>
        <div class="toolbar">
          <label class="inline">
            Status{' '}
            <select value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
              <option value="">All</option>
              <option value="success">Success</option>
              <option value="failed">Failed</option>
            </select>
          </label>
          <button type="button" onClick={() => fetchPage(cursor)} disabled={load.busy}>
            Reload
          </button>
        </div>
      </div>
      <Problem error={load.error} />
      {rows && rows.length === 0 ? (
        <p class="empty">No deliveries {status ? `with status ${status} ` : ''}yet.</p>
      ) : (
        <div class="table-wrap" tabIndex={0} role="group" aria-label="Delivery log (scrolls)">
          <table aria-describedby="log-h">
            <thead>
              <tr>
                <th scope="col">Sent</th>
                <th scope="col">What</th>
                <th scope="col">Channel</th>
                <th scope="col">Status</th>
                <th scope="col" class="num">
                  Attempt
                </th>
                <th scope="col">Error</th>
              </tr>
            </thead>
            <tbody>
              {rows?.map((r) => (
                <tr key={r.id}>
                  <td>{when(r.sent_at)}</td>
                  <td>
                    {r.insight_name}
                    {r.subscription_kind === 'dashboard' ? ' (dashboard)' : ''}
                  </td>
                  <td>{r.channel_type}</td>
                  <td>
                    <span class={`badge ${r.status === 'success' ? 'ok' : 'bad'}`}>{r.status}</span>
                  </td>
                  <td class="num">{r.attempt ?? ''}</td>
                  <td class="error-cell">{r.error_message ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav class="pager" aria-label="Delivery log pages">
        <button
          type="button"
          disabled={cursors.length === 0 || load.busy}
          onClick={() => {
            const prev = cursors[cursors.length - 1];
            setCursors(cursors.slice(0, -1));
            setCursor(prev);
            void fetchPage(prev);
          }}
        >
          Newer
        </button>
        <span aria-live="polite">Page {page}</span>
        <button
          type="button"
          disabled={!next || load.busy}
          onClick={() => {
            setCursors([...cursors, cursor]);
            setCursor(next!);
            void fetchPage(next!);
          }}
        >
          Older
        </button>
      </nav>
    </section>
  );
}
