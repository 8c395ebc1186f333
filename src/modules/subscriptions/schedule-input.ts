// Validation of the schedule fields both subscription kinds share (docs/notifications.md): the day of
// the week belongs to weekly schedules only, the day of the month to monthly ones only.
import { invalidField } from '../../lib/errors.ts';
import { cronProblem } from './cron.ts';
import type { Schedule, ScheduleKind } from './schedule.ts';
import { isTimeZone } from './zoned-time.ts';

export interface ScheduleFields {
  schedule: ScheduleKind;
  schedule_time?: string;
  schedule_day_of_week?: number;
  schedule_day_of_month?: number;
  timezone?: string;
  cron?: string;
}

/**
 * Checks the fields and fills defaults. Dashboard subscriptions have no defaults for the day (it
 * is required); insight subscriptions run on Monday / the 1st unless told (withDefaults).
 */
export function resolveSchedule(
  b: ScheduleFields,
  withDefaults: boolean,
): Schedule & { time: string; timeZone: string; cron: string | null } {
  const dow = b.schedule_day_of_week;
  const dom = b.schedule_day_of_month;
  if (b.schedule !== 'weekly' && dow !== undefined) {
    throw invalidField('/body/schedule_day_of_week', 'is only allowed with the weekly schedule');
  }
  if (b.schedule !== 'monthly' && dom !== undefined) {
    throw invalidField('/body/schedule_day_of_month', 'is only allowed with the monthly schedule');
  }
  if (b.schedule === 'weekly' && dow === undefined && !withDefaults) {
    throw invalidField('/body/schedule_day_of_week', 'is required with the weekly schedule (0 = Sunday … 6 = Saturday)');
  }
  if (b.schedule === 'monthly' && dom === undefined && !withDefaults) {
    throw invalidField('/body/schedule_day_of_month', 'is required with the monthly schedule (1 … 31)');
  }
  const timeZone = b.timezone ?? 'UTC';
  if (!isTimeZone(timeZone)) {
    throw invalidField('/body/timezone', `"${timeZone}" is not an IANA time zone name (e.g. UTC, Europe/Berlin, America/New_York)`);
  }
  const cron = b.cron?.trim() || null;
  if (b.cron !== undefined) {
    const problem = cron ? cronProblem(cron, timeZone) : 'must not be empty';
    if (problem) throw invalidField('/body/cron', `is not a valid 5-field cron expression: ${problem}`);
  }
  const time = b.schedule_time ?? '08:00';
  return {
    schedule: b.schedule,
    time,
    dayOfWeek: b.schedule === 'weekly' ? (dow ?? 1) : null,
    dayOfMonth: b.schedule === 'monthly' ? (dom ?? 1) : null,
    timeZone,
    cron,
  };
}

/** The Schedule of a stored subscription row. */
export function scheduleOf(r: {
  schedule: ScheduleKind;
  schedule_time: string;
  schedule_day_of_week: number | null;
  schedule_day_of_month: number | null;
  timezone: string;
  cron: string | null;
}): Schedule {
  return {
    schedule: r.schedule,
    time: r.schedule_time,
    dayOfWeek: r.schedule_day_of_week,
    dayOfMonth: r.schedule_day_of_month,
    timeZone: r.timezone,
    cron: r.cron,
  };
}
