// Insight subscriptions and dashboard reports: create (time zone, cron, alert condition), edit,
// toggle, send now, delete; next run shown. The forms are in subscriptions/.
import { useEffect, useState } from 'preact/hooks';
import { allPages, api } from '../api.ts';
import { loadCatalog } from '../catalog.ts';
import { dashboardSubscriptionCalls, insightSubscriptionCalls, type SubscriptionCalls } from '../subscription-calls.ts';
import type { Channel, Dashboard, DashboardSubscription, Insight, InsightSubscription } from '../types.ts';
import { channelName } from './channels/fields.tsx';
import { describeCondition } from './subscriptions/conditions.ts';
import { DashboardReportForm } from './subscriptions/DashboardReportForm.tsx';
import { InsightSubscriptionForm } from './subscriptions/InsightSubscriptionForm.tsx';
import { SubRow } from './subscriptions/SubRow.tsx';

/**
 * Replaces `old` by `made` (the edit's new subscription): the API's PATCH only toggles, so an edit
 * creates the changed subscription and deletes the old one (docs/web.md "Subscription forms").
 */
async function replaced<T extends { id: string; is_active: boolean }>(old: T, made: T, calls: SubscriptionCalls<T>): Promise<T> {
  let kept = made;
  if (!old.is_active) kept = await calls.setActive(made.id, false);
  await calls.remove(old.id);
  return kept;
}

/** What a list does with one of its rows: toggled, deleted, or edited (replaced, then its form closed). */
function rowEdits<T extends { id: string; is_active: boolean }>(subs: T[], setSubs: (s: T[]) => void, calls: SubscriptionCalls<T>, s: T) {
  return {
    onChanged: (n: unknown) => setSubs(subs.map((x) => (x.id === (n as T).id ? (n as T) : x))),
    onDeleted: () => setSubs(subs.filter((x) => x.id !== s.id)),
    onSaved: (close: () => void) => async (made: T) => {
      const kept = await replaced(s, made, calls);
      setSubs(subs.map((x) => (x.id === s.id ? kept : x)));
      close();
    },
  };
}

export function InsightSubscriptions({
  channels,
  subs,
  setSubs,
}: {
  channels: Channel[];
  subs: InsightSubscription[];
  setSubs: (s: InsightSubscription[]) => void;
}) {
  const [catalog, setCatalog] = useState<Insight[]>([]);
  const calls = insightSubscriptionCalls;

  useEffect(() => {
    loadCatalog().then(setCatalog, () => undefined);
  }, []);

  return (
    <section aria-labelledby="subs-h" class="panel">
      <h2 id="subs-h">Insight subscriptions</h2>
      {subs.length === 0 ? (
        <p class="empty">No insight subscriptions yet.</p>
      ) : (
        <ul class="items" aria-label="Insight subscriptions">
          {subs.map((s) => {
            const edits = rowEdits(subs, setSubs, calls, s);
            const insight = catalog.find((i) => i.code === s.insight_code);
            const alert = describeCondition(s, insight);
            const channel = channelName(channels.find((c) => c.id === s.channel_id) ?? { channel_type: s.channel_type, config: {} });
            const detail = [channel, `by ${s.granularity}`, ...(s.country ? [s.country] : []), ...(alert ? [alert] : [])].join(' · ');
            return (
              <SubRow
                key={s.id}
                sub={s}
                calls={calls}
                title={s.insight_name}
                detail={detail}
                onChanged={edits.onChanged}
                onDeleted={edits.onDeleted}
                editor={(close) => (
                  <InsightSubscriptionForm
                    channels={channels}
                    catalog={catalog}
                    initial={s}
                    idPrefix={`es-${s.id}`}
                    onCancel={close}
                    onSaved={edits.onSaved(close)}
                  />
                )}
              />
            );
          })}
        </ul>
      )}
      {channels.length === 0 ? (
        <p class="muted">Add a channel first to subscribe to an insight.</p>
      ) : (
        <InsightSubscriptionForm channels={channels} catalog={catalog} idPrefix="ns" onSaved={(made) => setSubs([made, ...subs])} />
      )}
    </section>
  );
}

export function DashboardReports({
  channels,
  subs,
  setSubs,
}: {
  channels: Channel[];
  subs: DashboardSubscription[];
  setSubs: (s: DashboardSubscription[]) => void;
}) {
  const [dashboards, setDashboards] = useState<Dashboard[]>([]);
  const calls = dashboardSubscriptionCalls;

  useEffect(() => {
    allPages((query) => api.GET('/api/v1/dashboards/', { params: { query } })).then(setDashboards, () => undefined);
  }, []);

  return (
    <section aria-labelledby="reports-h" class="panel">
      <h2 id="reports-h">Dashboard reports</h2>
      {subs.length === 0 ? (
        <p class="empty">No scheduled dashboard reports yet.</p>
      ) : (
        <ul class="items" aria-label="Dashboard reports">
          {subs.map((s) => {
            const edits = rowEdits(subs, setSubs, calls, s);
            return (
              <SubRow
                key={s.id}
                sub={s}
                calls={calls}
                title={s.dashboard_name}
                detail={
                  s.channel_ids.length
                    ? s.channel_ids
                        .map((id) => {
                          const c = channels.find((x) => x.id === id);
                          return c ? channelName(c) : 'a channel';
                        })
                        .join(', ')
                    : 'no channel'
                }
                onChanged={edits.onChanged}
                onDeleted={edits.onDeleted}
                editor={
                  dashboards.length === 0
                    ? undefined
                    : (close) => (
                        <DashboardReportForm
                          channels={channels}
                          dashboards={dashboards}
                          initial={s}
                          idPrefix={`er-${s.id}`}
                          onCancel={close}
                          onSaved={edits.onSaved(close)}
                        />
                      )
                }
              />
            );
          })}
        </ul>
      )}
      {channels.length === 0 || dashboards.length === 0 ? (
        <p class="muted">A dashboard report needs a dashboard and a channel.</p>
      ) : (
        <DashboardReportForm channels={channels} dashboards={dashboards} idPrefix="nr" onSaved={(made) => setSubs([made, ...subs])} />
      )}
    </section>
  );
}
