// Insight subscriptions and dashboard reports: create, toggle, send now, delete; next run shown.
import { useEffect, useState } from 'preact/hooks';
import { del, getAll, patch, post } from '../api.ts';
import { loadCatalog } from '../catalog.ts';
import type { Channel, Dashboard, DashboardSubscription, Insight, InsightSubscription } from '../types.ts';
import { channelName } from './Channels.tsx';
import { Problem } from './Problem.tsx';
import { ScheduleFields, describeSchedule, scheduleBody, when, type ScheduleValue } from './ScheduleFields.tsx';
import { useAction } from './useAsync.ts';

const initialSchedule: ScheduleValue = { schedule: 'daily', time: '08:00', dayOfWeek: '1', dayOfMonth: '1' };

type Sub = (InsightSubscription | DashboardSubscription) & { id: string; is_active: boolean };

function SubRow({
  sub,
  title,
  detail,
  base,
  onChanged,
  onDeleted,
}: {
  sub: Sub;
  title: string;
  detail: string;
  base: string;
  onChanged: (s: Sub) => void;
  onDeleted: () => void;
}) {
  const act = useAction();
  const [sent, setSent] = useState(false);
  return (
    <li class="item">
      <div class="item-main">
        <strong>{title}</strong>
        <span class={`badge ${sub.is_active ? 'ok' : ''}`}>{sub.is_active ? 'active' : 'paused'}</span>
        <div class="muted small">
          {detail} · {describeSchedule(sub)} · next run: {sub.is_active ? when(sub.next_run_at) : '—'}
        </div>
      </div>
      <div class="item-actions">
        <label class="switch">
          <input
            type="checkbox"
            role="switch"
            checked={sub.is_active}
            disabled={act.busy}
            onChange={(e) => act.run(async () => onChanged(await patch<Sub>(`${base}/${sub.id}`, { is_active: e.currentTarget.checked })))}
          />
          <span>Active</span>
          <span class="sr-only"> ({title})</span>
        </label>
        <button
          type="button"
          disabled={act.busy}
          aria-label={`Send ${title} now`}
          onClick={() =>
            act.run(async () => {
              setSent(false);
              await post(`${base}/${sub.id}/send`, {});
              setSent(true);
            })
          }
        >
          Send now
        </button>
        <button
          type="button"
          class="danger"
          disabled={act.busy}
          aria-label={`Delete ${title}`}
          onClick={() => act.run(() => del(`${base}/${sub.id}`)).then((ok) => ok && onDeleted())}
        >
          Delete
        </button>
      </div>
      {sent && (
        <p class="outcome" role="status">
          Queued for delivery now; the outcome appears in the delivery log.
        </p>
      )}
      <Problem error={act.error} />
    </li>
  );
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
  const [code, setCode] = useState('');
  const [channelId, setChannelId] = useState('');
  const [granularity, setGranularity] = useState('');
  const [country, setCountry] = useState('');
  const [schedule, setSchedule] = useState(initialSchedule);
  const create = useAction();
  const insight = catalog.find((i) => i.code === code);

  useEffect(() => {
    loadCatalog().then(setCatalog, () => undefined);
  }, []);
  useEffect(() => {
    if (!channels.some((c) => c.id === channelId)) setChannelId(channels[0]?.id ?? '');
  }, [channels]);

  const submit = async (e: Event) => {
    e.preventDefault();
    let made: InsightSubscription | undefined;
    const ok = await create.run(async () => {
      made = await post<InsightSubscription>('/notifications/subscriptions', {
        insight_code: code,
        channel_id: channelId,
        granularity: granularity || insight?.default_granularity || insight?.granularities[0] || 'day',
        ...(country.trim() ? { country: country.trim().toUpperCase() } : {}),
        ...scheduleBody(schedule, false),
      });
    });
    if (ok && made) setSubs([made, ...subs]);
  };

  return (
    <section aria-labelledby="subs-h" class="panel">
      <h2 id="subs-h">Insight subscriptions</h2>
      {subs.length === 0 ? (
        <p class="empty">No insight subscriptions yet.</p>
      ) : (
        <ul class="items" aria-label="Insight subscriptions">
          {subs.map((s) => (
            <SubRow
              key={s.id}
              sub={s}
              base="/notifications/subscriptions"
              title={s.insight_name}
              detail={`${channelName(channels.find((c) => c.id === s.channel_id) ?? ({ channel_type: s.channel_type, config: {} } as unknown as Channel))} · by ${s.granularity}${s.country ? ` · ${s.country}` : ''}`}
              onChanged={(n) => setSubs(subs.map((x) => (x.id === n.id ? (n as InsightSubscription) : x)))}
              onDeleted={() => setSubs(subs.filter((x) => x.id !== s.id))}
            />
          ))}
        </ul>
      )}
      {channels.length === 0 ? (
        <p class="muted">Add a channel first to subscribe to an insight.</p>
      ) : (
        <form class="form card" onSubmit={submit} aria-labelledby="new-sub-h">
          <h3 id="new-sub-h">New insight subscription</h3>
          <div class="row wrap">
            <div>
              <label for="ns-insight">Insight</label>
              <select
                id="ns-insight"
                required
                value={code}
                onChange={(e) => {
                  setCode(e.currentTarget.value);
                  setGranularity('');
                }}
              >
                <option value="">Choose an insight…</option>
                {catalog.map((i) => (
                  <option key={i.code} value={i.code}>
                    {i.name}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label for="ns-channel">Channel</label>
              <select id="ns-channel" required value={channelId} onChange={(e) => setChannelId(e.currentTarget.value)}>
                {channels.map((c) => (
                  <option key={c.id} value={c.id}>
                    {channelName(c)}
                  </option>
                ))}
              </select>
            </div>
            {insight && insight.granularities.length > 0 && (
              <div>
                <label for="ns-gran">Granularity</label>
                <select
                  id="ns-gran"
                  value={granularity || insight.default_granularity || ''}
                  onChange={(e) => setGranularity(e.currentTarget.value)}
                >
                  {insight.granularities.map((g) => (
                    <option key={g}>{g}</option>
                  ))}
                </select>
              </div>
            )}
            {(!insight || insight.filters.includes('country')) && (
              <div>
                <label for="ns-country">Country (optional)</label>
                <input id="ns-country" maxLength={2} value={country} onInput={(e) => setCountry(e.currentTarget.value)} />
              </div>
            )}
          </div>
          <ScheduleFields idPrefix="ns" value={schedule} onChange={setSchedule} />
          <Problem error={create.error} />
          <div class="actions">
            <button type="submit" class="primary" disabled={create.busy}>
              Subscribe
            </button>
          </div>
        </form>
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
  const [dashboardId, setDashboardId] = useState('');
  const [channelIds, setChannelIds] = useState<string[]>([]);
  const [schedule, setSchedule] = useState<ScheduleValue>({ ...initialSchedule, schedule: 'weekly' });
  const create = useAction();

  useEffect(() => {
    getAll<Dashboard>('/dashboards/').then(
      (d) => {
        setDashboards(d);
        setDashboardId((id) => id || d[0]?.id || '');
      },
      () => undefined,
    );
  }, []);

  const submit = async (e: Event) => {
    e.preventDefault();
    const dash = dashboards.find((d) => d.id === dashboardId);
    if (!dash) return;
    let made: DashboardSubscription | undefined;
    const ok = await create.run(async () => {
      made = await post<DashboardSubscription>(`/dashboards/${dash.id}/subscriptions`, {
        dashboard_id: dash.id,
        dashboard_name: dash.name,
        channel_ids: channelIds,
        ...scheduleBody(schedule, true),
      });
    });
    if (ok && made) setSubs([made, ...subs]);
  };

  return (
    <section aria-labelledby="reports-h" class="panel">
      <h2 id="reports-h">Dashboard reports</h2>
      {subs.length === 0 ? (
        <p class="empty">No scheduled dashboard reports yet.</p>
      ) : (
        <ul class="items" aria-label="Dashboard reports">
          {subs.map((s) => (
            <SubRow
              key={s.id}
              sub={s}
              base="/dashboards/subscriptions"
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
              onChanged={(n) => setSubs(subs.map((x) => (x.id === n.id ? (n as DashboardSubscription) : x)))}
              onDeleted={() => setSubs(subs.filter((x) => x.id !== s.id))}
            />
          ))}
        </ul>
      )}
      {channels.length === 0 || dashboards.length === 0 ? (
        <p class="muted">A dashboard report needs a dashboard and a channel.</p>
      ) : (
        <form class="form card" onSubmit={submit} aria-labelledby="new-report-h">
          <h3 id="new-report-h">New dashboard report</h3>
          <label for="nr-dash">Dashboard</label>
          <select id="nr-dash" value={dashboardId} onChange={(e) => setDashboardId(e.currentTarget.value)}>
            {dashboards.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </select>
          <fieldset>
            <legend>Send to</legend>
            {channels.map((c) => (
              <label class="check" key={c.id}>
                <input
                  type="checkbox"
                  checked={channelIds.includes(c.id)}
                  onChange={(e) => setChannelIds(e.currentTarget.checked ? [...channelIds, c.id] : channelIds.filter((x) => x !== c.id))}
                />{' '}
                {channelName(c)}
              </label>
            ))}
          </fieldset>
          <ScheduleFields idPrefix="nr" value={schedule} onChange={setSchedule} />
          <Problem error={create.error} />
          <div class="actions">
            <button type="submit" class="primary" disabled={create.busy || channelIds.length === 0}>
              Schedule report
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
