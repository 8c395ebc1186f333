// A subscription's schedule as forms and lists see it: the form's value, to and from the API's
// fields, in words, and a cron expression's next runs by the service's rules (croner), in the
// schedule's own time zone (docs/notifications.md "Time zones", "Cron").
import { Cron } from 'croner';
import type { RequestBody } from './api.ts';
import type { Schedule } from './types.ts';

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

/** A subscription's or report's schedule as the API stores it. */
export interface StoredSchedule {
  schedule: Schedule;
  schedule_time?: string | null;
  schedule_day_of_week?: number | null;
  schedule_day_of_month?: number | null;
  timezone?: string;
  cron?: string | null;
}

/** A stored subscription's schedule as the form shows it. */
export function scheduleOf(s: StoredSchedule): ScheduleValue {
  return {
    schedule: s.cron ? 'cron' : s.schedule,
    time: s.schedule_time ?? '08:00',
    dayOfWeek: String(s.schedule_day_of_week ?? 1),
    dayOfMonth: String(s.schedule_day_of_month ?? 1),
    timezone: s.timezone ?? 'UTC',
    cron: s.cron ?? '',
  };
}

/** The schedule's fields of a subscription's body (both kinds take the same). */
type ScheduleBody = Partial<Pick<RequestBody<'/api/v1/dashboards/{id}/subscriptions', 'post'>, 'schedule_time'>> &
  Omit<
    RequestBody<'/api/v1/dashboards/{id}/subscriptions', 'post'>,
    'schedule_time' | 'dashboard_id' | 'dashboard_name' | 'channel_ids' | 'attach_pdf'
  >;

export function scheduleBody(v: ScheduleValue, timeRequired: true): ScheduleBody & { schedule_time: string };
export function scheduleBody(v: ScheduleValue, timeRequired: boolean): ScheduleBody;
export function scheduleBody(v: ScheduleValue, timeRequired: boolean): ScheduleBody {
  const body: ScheduleBody = { timezone: v.timezone || 'UTC', schedule: 'daily' };
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

export function describeSchedule(s: StoredSchedule): string {
  const zone = s.timezone ?? 'UTC';
  if (s.cron) return `Cron ${s.cron} (${zone})`;
  const at = s.schedule_time ? ` at ${s.schedule_time} ${zone}` : '';
  if (s.schedule === 'weekly') return `Weekly on ${DAYS[s.schedule_day_of_week ?? 1]}${at}`;
  if (s.schedule === 'monthly') return `Monthly on day ${s.schedule_day_of_month ?? 1}${at}`;
  return `Daily${at}`;
}

/** A moment in the schedule's own time zone, which it names ("28 Nov 2026, 08:00 Europe/Berlin"). */
export function when(iso?: string | null, timeZone?: string): string {
  if (!iso) return '—';
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
  try {
    return `${new Date(iso).toLocaleString(undefined, { ...options, timeZone: timeZone || 'UTC' })} ${timeZone || 'UTC'}`;
  } catch {
    return `${new Date(iso).toLocaleString(undefined, { ...options, timeZone: 'UTC' })} UTC`;
  }
}

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

export function formatRun(d: Date, timezone: string): string {
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
