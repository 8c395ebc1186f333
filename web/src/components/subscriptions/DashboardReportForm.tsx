// The form of a dashboard report: which dashboard, to which channels, on which schedule.
import { useState } from 'preact/hooks';
import { api, bodyOf } from '../../api.ts';
import type { Channel, Dashboard, DashboardSubscription } from '../../types.ts';
import { channelName } from '../channels/fields.tsx';
import { newSchedule, scheduleBody, scheduleOf, type ScheduleValue } from '../../schedule.ts';
import { useAction } from '../useAsync.ts';
import { SubscriptionForm } from './SubscriptionForm.tsx';

export function DashboardReportForm({
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
      const made = await bodyOf(
        api.POST('/api/v1/dashboards/{id}/subscriptions', {
          params: { path: { id: dash.id } },
          body: {
            dashboard_id: dash.id,
            dashboard_name: dash.name,
            channel_ids: channelIds,
            ...scheduleBody(schedule, true),
            ...(initial ? { attach_pdf: initial.attach_pdf } : {}),
          },
        }),
      );
      await onSaved(made);
    });
  };

  return (
    <SubscriptionForm
      idPrefix={idPrefix}
      heading={initial ? `Edit ${initial.dashboard_name} report` : 'New dashboard report'}
      save={save}
      schedule={schedule}
      setSchedule={setSchedule}
      onSubmit={submit}
      onCancel={onCancel}
      submitLabel={initial ? 'Save changes' : 'Schedule report'}
      ready={channelIds.length > 0}
    >
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
    </SubscriptionForm>
  );
}
