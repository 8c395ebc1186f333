// Channels, insight subscriptions, dashboard reports and the delivery log on one page, each a
// section with its own heading (and an in-page table of contents for small screens).
import { useState } from 'preact/hooks';
import { allPages, api } from '../api.ts';
import { Channels } from '../components/Channels.tsx';
import { DeliveryLog } from '../components/DeliveryLog.tsx';
import { Problem } from '../components/Problem.tsx';
import { DashboardReports, InsightSubscriptions } from '../components/Subscriptions.tsx';
import { useAsync } from '../components/useAsync.ts';

export function NotificationsPage() {
  const channels = useAsync(() => allPages((query) => api.GET('/api/v1/notifications/channels', { params: { query } })), []);
  const subs = useAsync(() => allPages(() => api.GET('/api/v1/notifications/subscriptions')), []);
  const reports = useAsync(() => allPages(() => api.GET('/api/v1/dashboards/subscriptions')), []);
  const [logKey, setLogKey] = useState(0);

  return (
    <section>
      <h1 tabIndex={-1}>Notifications</h1>
      <nav aria-label="On this page" class="toc">
        <a href="#channels-h">Channels</a> · <a href="#subs-h">Insight subscriptions</a> · <a href="#reports-h">Dashboard reports</a> ·{' '}
        <a href="#log-h">Delivery log</a>
      </nav>
      <Problem error={channels.error ?? subs.error ?? reports.error} />
      {channels.data && subs.data && reports.data ? (
        <>
          <Channels
            channels={channels.data}
            setChannels={channels.set}
            reloadSubscriptions={() => {
              void subs.reload();
              void reports.reload();
            }}
          />
          <InsightSubscriptions
            channels={channels.data}
            subs={subs.data}
            setSubs={(s) => {
              subs.set(s);
              setLogKey((k) => k + 1);
            }}
          />
          <DashboardReports
            channels={channels.data}
            subs={reports.data}
            setSubs={(s) => {
              reports.set(s);
              setLogKey((k) => k + 1);
            }}
          />
        </>
      ) : (
        !channels.error && <p role="status">Loading…</p>
      )}
      <DeliveryLog reloadKey={logKey} />
    </section>
  );
}
