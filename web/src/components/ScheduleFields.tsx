// Schedule, time zone, time and day fields, or a cron expression with its next runs, shared by
// insight subscriptions and dashboard reports (docs/notifications.md "Time zones", "Cron").
import { Cron } from 'croner';
import type { Schedule } from '../types.ts';
import { FieldError, fieldMessage } from './Problem.tsx';

export interface ScheduleValue {
  /** 'cron': the expression decides the slots (the contract's `schedule` is then sent as daily). */
  schedule: Schedule | 'cron';
  time: string;
  dayOfWeek: string;
  dayOfMonth: string;
  timezone: string;
  cron: string;
}

export const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The browser's own zone: what a new subscription starts with. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

let zones: string[] | undefined;
/** Every IANA zone the browser knows, with UTC first. */
export function timeZones(): string[] {
  if (!zones) {
    let all: string[] = [];
    try {
      all = Intl.supportedValuesOf('timeZone');
    } catch {
      all = [];
    }
    zones = ['UTC', ...all.filter((z) => z !== 'UTC')];
  }
  return zones;
}

export function newSchedule(schedule: Schedule): ScheduleValue {
  return { schedule, time: '08:00', dayOfWeek: '1', dayOfMonth: '1', timezone: browserTimeZone(), cron: '' };
}

/** A stored subscription's schedule as the form shows it. */
export function scheduleOf(s: {
  schedule: Schedule;
  schedule_time?: string | null;
  schedule_day_of_week?: number | null;
  schedule_day_of_month?: number | null;
  timezone?: string;
  cron?: string | null;
}): ScheduleValue {
  return {
    schedule: s.cron ? 'cron' : s.schedule,
    time: s.schedule_time ?? '08:00',
    dayOfWeek: String(s.schedule_day_of_week ?? 1),
    dayOfMonth: String(s.schedule_day_of_month ?? 1),
    timezone: s.timezone ?? 'UTC',
    cron: s.cron ?? '',
  };
}

export function scheduleBody(v: ScheduleValue, timeRequired: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { timezone: v.timezone || 'UTC' };
  if (v.schedule === 'cron') {
    // The contract requires a schedule; with a cron it is stored as sent and the cron decides.
    body.schedule = 'daily';
    body.cron = v.cron.trim();
    if (timeRequired) body.schedule_time = v.time || '08:00';
    return body;
  }
  body.schedule = v.schedule;
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
  timezone?: string;
  cron?: string | null;
}): string {
  const zone = s.timezone ?? 'UTC';
  if (s.cron) return `Cron ${s.cron} (${zone})`;
  const at = s.schedule_time ? ` at ${s.schedule_time} ${zone}` : '';
  if (s.schedule === 'weekly') return `Weekly on ${DAYS[s.schedule_day_of_week ?? 1]}${at}`;
  if (s.schedule === 'monthly') return `Monthly on day ${s.schedule_day_of_month ?? 1}${at}`;
  return `Daily${at}`;
}

export const when = (iso?: string | null) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—';

/** The next runs of a cron expression in a zone, or why it cannot run (the service's rules). */
export function cronPreview(expr: string, timezone: string, count = 3): { runs: Date[]; problem?: string } {
  const text = expr.trim();
  if (!text) return { runs: [], problem: 'enter 5 fields: minute hour day-of-month month day-of-week' };
  if (text.split(/\s+/).length !== 5) return { runs: [], problem: 'use 5 fields: minute hour day-of-month month day-of-week' };
  try {
    const job = new Cron(text, { mode: '5-part', fixedTimeRule: 'no-wildcard', paused: true, timezone: timezone || 'UTC' });
    const runs = job.nextRuns(count);
    return runs.length ? { runs } : { runs, problem: 'never runs' };
  } catch (err) {
    return { runs: [], problem: (err as Error).message.replace(/^CronPattern: /, '') };
  }
}

function formatRun(d: Date, timezone: string): string {
  return new Intl.DateTimeFormat(undefined, {
    timeZone: timezone || 'UTC',
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(d);
}

export function ScheduleFields({
  value,
  onChange,
  idPrefix,
  error,
}: {
  value: ScheduleValue;
  onChange: (v: ScheduleValue) => void;
  idPrefix: string;
  /** The service's refusal, whose schedule fields are shown next to them. */
  error?: unknown;
}) {
  const cron = value.schedule === 'cron';
  const preview = cron ? cronPreview(value.cron, value.timezone) : undefined;
  // The service's word wins once it answered; until then, croner's in the browser.
  const cronProblem = fieldMessage(error, '/body/cron') ?? (value.cron.trim() ? preview?.problem : undefined);
  const zoneProblem = fieldMessage(error, '/body/timezone');
  const timeProblem = fieldMessage(error, '/body/schedule_time');
  const zoneList = timeZones().includes(value.timezone) ? timeZones() : [value.timezone, ...timeZones()];
  return (
    <div class="row wrap">
      <div>
        <label for={`${idPrefix}-schedule`}>Schedule</label>
        <select
          id={`${idPrefix}-schedule`}
          value={value.schedule}
          onChange={(e) => onChange({ ...value, schedule: e.currentTarget.value as ScheduleValue['schedule'] })}
        >
          <option value="daily">Daily</option>
          <option value="weekly">Weekly</option>
          <option value="monthly">Monthly</option>
          <option value="cron">Custom (cron)</option>
        </select>
      </div>
      <div>
        <label for={`${idPrefix}-tz`}>Time zone</label>
        <select
          id={`${idPrefix}-tz`}
          value={value.timezone}
          aria-invalid={zoneProblem ? 'true' : undefined}
          aria-describedby={zoneProblem ? `${idPrefix}-tz-error` : undefined}
          onChange={(e) => onChange({ ...value, timezone: e.currentTarget.value })}
        >
          {zoneList.map((z) => (
            <option key={z} value={z}>
              {z.replace(/_/g, ' ')}
            </option>
          ))}
        </select>
        <FieldError id={`${idPrefix}-tz-error`} label="Time zone" message={zoneProblem} />
      </div>
      {cron ? (
        <div class="cron-field">
          <label for={`${idPrefix}-cron`}>Cron expression</label>
          <input
            id={`${idPrefix}-cron`}
            required
            autoComplete="off"
            spellcheck={false}
            placeholder="0 8 * * 1-5"
            value={value.cron}
            aria-invalid={cronProblem ? 'true' : undefined}
            aria-describedby={`${idPrefix}-cron-help${cronProblem ? ` ${idPrefix}-cron-error` : ''}`}
            onInput={(e) => onChange({ ...value, cron: e.currentTarget.value })}
          />
          <FieldError id={`${idPrefix}-cron-error`} label="Cron expression" message={cronProblem} />
          <div id={`${idPrefix}-cron-help`} class="muted small" aria-live="polite">
            {preview && preview.runs.length > 0 ? (
              <>
                Next runs:
                <ul class="cron-runs" aria-label="Next runs">
                  {preview.runs.map((d) => (
                    <li key={d.toISOString()}>{formatRun(d, value.timezone)}</li>
                  ))}
                </ul>
              </>
            ) : (
              'minute hour day-of-month month day-of-week, e.g. 0 8 * * 1-5 for 08:00 on weekdays'
            )}
          </div>
        </div>
      ) : (
        <div>
          <label for={`${idPrefix}-time`}>Time</label>
          <input
            id={`${idPrefix}-time`}
            type="time"
            value={value.time}
            aria-invalid={timeProblem ? 'true' : undefined}
            aria-describedby={timeProblem ? `${idPrefix}-time-error` : undefined}
            onInput={(e) => onChange({ ...value, time: e.currentTarget.value })}
          />
          <FieldError id={`${idPrefix}-time-error`} label="Time" message={timeProblem} />
        </div>
      )}
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
