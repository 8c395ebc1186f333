// Insight subscriptions and dashboard reports: create (time zone, cron, alert condition), edit,
// toggle, send now, delete; next run shown.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { del, getAll, patch, post } from '../api.ts';
import { loadCatalog } from '../catalog.ts';
import type { Channel, Dashboard, DashboardSubscription, Insight, InsightSubscription } from '../types.ts';
import { channelName } from './Channels.tsx';
import { FieldError, Problem, fieldMessage } from './Problem.tsx';
import { ScheduleFields, describeSchedule, newSchedule, scheduleBody, scheduleOf, when, type ScheduleValue } from './ScheduleFields.tsx';
import { useAction } from './useAsync.ts';

type Sub = (InsightSubscription | DashboardSubscription) & { id: string; is_active: boolean };

function SubRow({
  sub,
  title,
  detail,
  base,
  onChanged,
  onDeleted,
  editor,
}: {
  sub: Sub;
  title: string;
  detail: string;
  base: string;
  onChanged: (s: Sub) => void;
  onDeleted: () => void;
  /** The form that edits it, filled with its values. */
  editor?: (close: () => void) => ComponentChildren;
}) {
  const act = useAction();
  const [sent, setSent] = useState(false);
  const [editing, setEditing] = useState(false);
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
        {editor && (
          <button type="button" aria-expanded={editing} aria-label={`Edit ${title}`} onClick={() => setEditing(!editing)}>
            Edit
          </button>
        )}
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
      {editing && editor?.(() => setEditing(false))}
    </li>
  );
}

type Condition = NonNullable<InsightSubscription['condition']>;
type Op = Condition['op'];

const OPS: [Op, string][] = [
  ['above', 'When the value is above'],
  ['below', 'When the value is below'],
  ['change_above', 'When the change is above (%)'],
  ['change_below', 'When the change is below (%)'],
];

const OP_WORDS: Record<Op, string> = { above: 'above', below: 'below', change_above: 'change above', change_below: 'change below' };

/** "Alert: revenue above 10000, only when it starts to hold". */
export function describeCondition(s: Pick<InsightSubscription, 'condition' | 'notify'>, insight?: Insight): string {
  const c = s.condition;
  if (!c) return '';
  const m = c.measure ?? (insight?.kind === 'kpi' ? undefined : insight?.measures[0]?.name);
  const label = insight?.measures.find((x) => x.name === m)?.label ?? m ?? 'value';
  const unit = c.op.startsWith('change_') ? ' %' : '';
  return `alert: ${label} ${OP_WORDS[c.op]} ${c.value}${unit}${s.notify === 'on_change' ? ', only when it starts to hold' : ''}`;
}

/** The form of a new insight subscription, or of one being edited (filled with its values). */
function InsightSubscriptionForm({
  channels,
  catalog,
  initial,
  idPrefix,
  onSaved,
  onCancel,
}: {
  channels: Channel[];
  catalog: Insight[];
  initial?: InsightSubscription;
  idPrefix: string;
  onSaved: (s: InsightSubscription) => Promise<void> | void;
  onCancel?: () => void;
}) {
  const [code, setCode] = useState(initial?.insight_code ?? '');
  const [channelId, setChannelId] = useState(initial?.channel_id ?? '');
  const [granularity, setGranularity] = useState(initial?.granularity ?? '');
  const [country, setCountry] = useState(initial?.country ?? '');
  const [schedule, setSchedule] = useState<ScheduleValue>(() => (initial ? scheduleOf(initial) : newSchedule('daily')));
  const [op, setOp] = useState<Op | ''>(initial?.condition?.op ?? '');
  const [measure, setMeasure] = useState(initial?.condition?.measure ?? '');
  const [threshold, setThreshold] = useState(initial?.condition ? String(initial.condition.value) : '');
  const [notify, setNotify] = useState<InsightSubscription['notify']>(initial?.notify ?? 'every_time');
  const save = useAction();
  const insight = catalog.find((i) => i.code === code);
  const alertable = !insight || insight.kind === 'kpi' || insight.kind === 'timeseries';
  const measures = insight && insight.kind !== 'kpi' ? insight.measures : [];
  const id = (x: string) => `${idPrefix}-${x}`;

  useEffect(() => {
    if (!channels.some((c) => c.id === channelId)) setChannelId(channels[0]?.id ?? '');
  }, [channels]);

  const submit = async (e: Event) => {
    e.preventDefault();
    const condition =
      op && alertable
        ? { op, value: Number(threshold), ...(measure && measures.some((m) => m.name === measure) ? { measure } : {}) }
        : undefined;
    let made: InsightSubscription | undefined;
    const ok = await save.run(async () => {
      made = await post<InsightSubscription>('/notifications/subscriptions', {
        insight_code: code,
        channel_id: channelId,
        granularity: granularity || insight?.default_granularity || insight?.granularities[0] || 'day',
        ...(country.trim() ? { country: country.trim().toUpperCase() } : {}),
        // What this form does not show is carried over unchanged when editing.
        ...(initial?.filters ? { filters: initial.filters } : {}),
        ...(initial?.compare ? { compare: initial.compare } : {}),
        ...scheduleBody(schedule, false),
        ...(condition ? { condition, notify } : {}),
      });
      await onSaved(made);
    });
    if (ok && !initial) {
      setOp('');
      setThreshold('');
    }
  };

  const thresholdProblem = fieldMessage(save.error, '/body/condition/value');
  const conditionProblem = fieldMessage(save.error, '/body/condition') ?? fieldMessage(save.error, '/body/notify');

  return (
    <form class="form card" onSubmit={submit} aria-labelledby={id('h')}>
      <h3 id={id('h')}>{initial ? `Edit ${initial.insight_name}` : 'New insight subscription'}</h3>
      <div class="row wrap">
        <div>
          <label for={id('insight')}>Insight</label>
          <select
            id={id('insight')}
            required
            value={code}
            onChange={(e) => {
              setCode(e.currentTarget.value);
              setGranularity('');
              setMeasure('');
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
          <label for={id('channel')}>Channel</label>
          <select id={id('channel')} required value={channelId} onChange={(e) => setChannelId(e.currentTarget.value)}>
            {channels.map((c) => (
              <option key={c.id} value={c.id}>
                {channelName(c)}
              </option>
            ))}
          </select>
        </div>
        {insight && insight.granularities.length > 0 && (
          <div>
            <label for={id('gran')}>Granularity</label>
            <select
              id={id('gran')}
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
            <label for={id('country')}>Country (optional)</label>
            <input id={id('country')} maxLength={2} value={country} onInput={(e) => setCountry(e.currentTarget.value)} />
          </div>
        )}
      </div>
      <ScheduleFields
        idPrefix={idPrefix}
        value={schedule}
        onChange={(v) => {
          // A changed field is no longer what the service refused.
          save.clear();
          setSchedule(v);
        }}
        error={save.error}
      />
      <fieldset>
        <legend>Alert condition</legend>
        {!alertable ? (
          <p class="muted small">Alerts need an insight with one headline value (a KPI or a time series); this one is a {insight?.kind}.</p>
        ) : (
          <div class="row wrap">
            <div>
              <label for={id('op')}>Send</label>
              <select
                id={id('op')}
                value={op}
                aria-invalid={conditionProblem ? 'true' : undefined}
                aria-describedby={conditionProblem ? id('op-error') : undefined}
                onChange={(e) => setOp(e.currentTarget.value as Op | '')}
              >
                <option value="">Every time (no condition)</option>
                {OPS.map(([v, label]) => (
                  <option key={v} value={v}>
                    {label}
                  </option>
                ))}
              </select>
              <FieldError id={id('op-error')} label="Alert condition" message={conditionProblem} />
            </div>
            {op && measures.length > 0 && (
              <div>
                <label for={id('measure')}>Measure</label>
                <select id={id('measure')} value={measure || measures[0].name} onChange={(e) => setMeasure(e.currentTarget.value)}>
                  {measures.map((m) => (
                    <option key={m.name} value={m.name}>
                      {m.label}
                    </option>
                  ))}
                </select>
              </div>
            )}
            {op && (
              <div>
                <label for={id('threshold')}>{op.startsWith('change_') ? 'Threshold (%)' : 'Threshold'}</label>
                <input
                  id={id('threshold')}
                  type="number"
                  step="any"
                  required
                  value={threshold}
                  aria-invalid={thresholdProblem ? 'true' : undefined}
                  aria-describedby={thresholdProblem ? id('threshold-error') : undefined}
                  onInput={(e) => setThreshold(e.currentTarget.value)}
                />
                <FieldError id={id('threshold-error')} label="Threshold" message={thresholdProblem} />
              </div>
            )}
            {op && (
              <div>
                <label for={id('notify')}>Notify</label>
                <select
                  id={id('notify')}
                  value={notify}
                  onChange={(e) => setNotify(e.currentTarget.value as InsightSubscription['notify'])}
                >
                  <option value="every_time">Every time it holds</option>
                  <option value="on_change">Only when it starts to hold</option>
                </select>
              </div>
            )}
          </div>
        )}
      </fieldset>
      <Problem error={save.error} />
      <div class="actions">
        {onCancel && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" class="primary" disabled={save.busy}>
          {initial ? 'Save changes' : 'Subscribe'}
        </button>
      </div>
    </form>
  );
}

/**
 * Replaces `old` by `made` (the edit's new subscription): the API's PATCH only toggles, so an edit
 * creates the changed subscription and deletes the old one (docs/web.md "Subscription forms").
 */
async function replaced<T extends { id: string; is_active: boolean }>(old: T, made: T, base: string): Promise<T> {
  let kept = made;
  if (!old.is_active) kept = await patch<T>(`${base}/${made.id}`, { is_active: false });
  await del(`${base}/${old.id}`);
  return kept;
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
  const base = '/notifications/subscriptions';

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
            const insight = catalog.find((i) => i.code === s.insight_code);
            const alert = describeCondition(s, insight);
            return (
              <SubRow
                key={s.id}
                sub={s}
                base={base}
                title={s.insight_name}
                detail={`${channelName(channels.find((c) => c.id === s.channel_id) ?? { channel_type: s.channel_type, config: {} })} · by ${s.granularity}${s.country ? ` · ${s.country}` : ''}${alert ? ` · ${alert}` : ''}`}
                onChanged={(n) => setSubs(subs.map((x) => (x.id === n.id ? (n as InsightSubscription) : x)))}
                onDeleted={() => setSubs(subs.filter((x) => x.id !== s.id))}
                editor={(close) => (
                  <InsightSubscriptionForm
                    channels={channels}
                    catalog={catalog}
                    initial={s}
                    idPrefix={`es-${s.id}`}
                    onCancel={close}
                    onSaved={async (made) => {
                      const kept = await replaced(s, made, base);
                      setSubs(subs.map((x) => (x.id === s.id ? kept : x)));
                      close();
                    }}
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

function DashboardReportForm({
  channels,
  dashboards,
  initial,
  idPrefix,
  onSaved,
  onCancel,
}: {
  channels: Channel[];
  dashboards: Dashboard[];
  initial?: DashboardSubscription;
  idPrefix: string;
  onSaved: (s: DashboardSubscription) => Promise<void> | void;
  onCancel?: () => void;
}) {
  const [dashboardId, setDashboardId] = useState(initial?.dashboard_id ?? dashboards[0]?.id ?? '');
  const [channelIds, setChannelIds] = useState<string[]>(initial?.channel_ids ?? []);
  const [schedule, setSchedule] = useState<ScheduleValue>(() => (initial ? scheduleOf(initial) : newSchedule('weekly')));
  const save = useAction();
  const id = (x: string) => `${idPrefix}-${x}`;

  const submit = async (e: Event) => {
    e.preventDefault();
    const dash = dashboards.find((d) => d.id === dashboardId);
    if (!dash) return;
    await save.run(async () => {
      const made = await post<DashboardSubscription>(`/dashboards/${dash.id}/subscriptions`, {
        dashboard_id: dash.id,
        dashboard_name: dash.name,
        channel_ids: channelIds,
        ...scheduleBody(schedule, true),
        ...(initial ? { attach_pdf: initial.attach_pdf } : {}),
      });
      await onSaved(made);
    });
  };

  return (
    <form class="form card" onSubmit={submit} aria-labelledby={id('h')}>
      <h3 id={id('h')}>{initial ? `Edit ${initial.dashboard_name} report` : 'New dashboard report'}</h3>
      <label for={id('dash')}>Dashboard</label>
      <select id={id('dash')} value={dashboardId} onChange={(e) => setDashboardId(e.currentTarget.value)}>
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
      <ScheduleFields
        idPrefix={idPrefix}
        value={schedule}
        onChange={(v) => {
          // A changed field is no longer what the service refused.
          save.clear();
          setSchedule(v);
        }}
        error={save.error}
      />
      <Problem error={save.error} />
      <div class="actions">
        {onCancel && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" class="primary" disabled={save.busy || channelIds.length === 0}>
          {initial ? 'Save changes' : 'Schedule report'}
        </button>
      </div>
    </form>
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
  const base = '/dashboards/subscriptions';

  useEffect(() => {
    getAll<Dashboard>('/dashboards/').then(setDashboards, () => undefined);
  }, []);

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
              base={base}
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
                        onSaved={async (made) => {
                          const kept = await replaced(s, made, base);
                          setSubs(subs.map((x) => (x.id === s.id ? kept : x)));
                          close();
                        }}
                      />
                    )
              }
            />
          ))}
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
