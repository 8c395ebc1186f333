// Schedule, time (UTC) and day fields shared by insight subscriptions and dashboard reports.
import type { Schedule } from '../types.ts';

export interface ScheduleValue {
  schedule: Schedule;
  time: string;
  dayOfWeek: string;
  dayOfMonth: string;
}

export const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export function scheduleBody(v: ScheduleValue, timeRequired: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { schedule: v.schedule };
  if (v.time || timeRequired) body.schedule_time = v.time || '08:00';
  if (v.schedule === 'weekly') body.schedule_day_of_week = Number(v.dayOfWeek);
  if (v.schedule === 'monthly') body.schedule_day_of_month = Number(v.dayOfMonth);
  return body;
}

export function describeSchedule(s: {
  schedule: Schedule;
  schedule_time?: string | null;
  schedule_day_of_week?: number | null;
  schedule_day_of_month?: number | null;
}): string {
  const at = s.schedule_time ? ` at ${s.schedule_time} UTC` : '';
  if (s.schedule === 'weekly') return `Weekly on ${DAYS[s.schedule_day_of_week ?? 1]}${at}`;
  if (s.schedule === 'monthly') return `Monthly on day ${s.schedule_day_of_month ?? 1}${at}`;
  return `Daily${at}`;
}

export const when = (iso?: string | null) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—';

export function ScheduleFields({
  value,
  onChange,
  idPrefix,
}: {
  value: ScheduleValue;
  onChange: (v: ScheduleValue) => void;
  idPrefix: string;
}) {
  return (
    <div class="row wrap">
      <div>
        <label for={`${idPrefix}-schedule`}>Schedule</label>
        <select
          id={`${idPrefix}-schedule`}
          value={value.schedule}
          onChange={(e) => onChange({ ...value, schedule: e.currentTarget.value as Schedule })}
        >
          <option value="daily">Daily</option>
          <option value="weekly">Weekly</option>
          <option value="monthly">Monthly</option>
        </select>
      </div>
      <div>
        <label for={`${idPrefix}-time`}>Time (UTC)</label>
        <input
          id={`${idPrefix}-time`}
          type="time"
          value={value.time}
          onInput={(e) => onChange({ ...value, time: e.currentTarget.value })}
        />
      </div>
      {value.schedule === 'weekly' && (
        <div>
          <label for={`${idPrefix}-dow`}>Day of the week</label>
          <select id={`${idPrefix}-dow`} value={value.dayOfWeek} onChange={(e) => onChange({ ...value, dayOfWeek: e.currentTarget.value })}>
            {DAYS.map((d, i) => (
              <option key={d} value={String(i)}>
                {d}
              </option>
            ))}
          </select>
        </div>
      )}
      {value.schedule === 'monthly' && (
        <div>
          <label for={`${idPrefix}-dom`}>Day of the month</label>
          <input
            id={`${idPrefix}-dom`}
            type="number"
            min={1}
            max={31}
            required
            value={value.dayOfMonth}
            onInput={(e) => onChange({ ...value, dayOfMonth: e.currentTarget.value })}
          />
        </div>
      )}
    </div>
  );
}
