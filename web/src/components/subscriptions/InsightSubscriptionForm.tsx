// The form of an insight subscription: which insight, to which channel, by which granularity and
// for which country; its schedule and its alert condition.
import { useEffect, useState } from 'preact/hooks';
import { api, bodyOf } from '../../api.ts';
import type { Channel, Insight, InsightSubscription } from '../../types.ts';
import { channelName } from '../channels/fields.tsx';
import { newSchedule, scheduleBody, scheduleOf, type ScheduleValue } from '../../schedule.ts';
import { useAction } from '../useAsync.ts';
import { ValuePicker } from '../ValuePicker.tsx';
import { AlertFields, useAlertCondition } from './AlertFields.tsx';
import { SubscriptionForm } from './SubscriptionForm.tsx';
import { InsightOptions } from '../InsightOptions.tsx';

/** The form of a new insight subscription, or of one being edited (filled with its values). */
export function InsightSubscriptionForm({
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
  const save = useAction();
  const insight = catalog.find((i) => i.code === code);
  const alert = useAlertCondition(initial, insight);
  const id = (x: string) => `${idPrefix}-${x}`;

  useEffect(() => {
    if (!channels.some((c) => c.id === channelId)) setChannelId(channels[0]?.id ?? '');
  }, [channels]);

  const submit = async (e: Event) => {
    e.preventDefault();
    const condition = alert.condition();
    let made: InsightSubscription | undefined;
    const ok = await save.run(async () => {
      made = await bodyOf(
        api.POST('/api/v1/notifications/subscriptions', {
          body: {
            insight_code: code,
            channel_id: channelId,
            granularity: granularity || insight?.default_granularity || insight?.granularities[0] || 'day',
            ...(country.trim() ? { country: country.trim().toUpperCase() } : {}),
            // What this form does not show is carried over unchanged when editing.
            ...(initial?.filters ? { filters: initial.filters } : {}),
            ...(initial?.compare ? { compare: initial.compare } : {}),
            ...scheduleBody(schedule, false),
            ...(condition ? { condition, notify: alert.notify } : {}),
          },
        }),
      );
      await onSaved(made);
    });
    // Subscribed: the form starts over for the next one.
    if (ok && !initial) {
      setCode('');
      setGranularity('');
      setCountry('');
      setSchedule(newSchedule('daily'));
      alert.reset();
    }
  };

  return (
    <SubscriptionForm
      idPrefix={idPrefix}
      heading={initial ? `Edit ${initial.insight_name}` : 'New insight subscription'}
      save={save}
      schedule={schedule}
      setSchedule={setSchedule}
      onSubmit={submit}
      onCancel={onCancel}
      submitLabel={initial ? 'Save changes' : 'Subscribe'}
      after={<AlertFields idPrefix={idPrefix} alert={alert} error={save.error} />}
    >
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
              alert.setMeasure('');
            }}
          >
            <InsightOptions catalog={catalog} />
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
            <ValuePicker id={id('country')} name="country" value={country} onChange={setCountry} />
          </div>
        )}
      </div>
    </SubscriptionForm>
  );
}
