// Validation of the schedule fields both subscription kinds share (docs/product.md §6): the day of
// the week belongs to weekly schedules only, the day of the month to monthly ones only.
import { invalidField } from '../../lib/errors.ts';
import type { Schedule, ScheduleKind } from './schedule.ts';

export interface ScheduleFields {
  schedule: ScheduleKind;
  schedule_time?: string;
  schedule_day_of_week?: number;
  schedule_day_of_month?: number;
}

/**
 * Checks the fields and fills defaults. Dashboard subscriptions have no defaults for the day (it
 * is required); insight subscriptions run on Monday / the 1st unless told (withDefaults).
 */
export function resolveSchedule(b: ScheduleFields, withDefaults: boolean): Schedule & { time: string } {
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
  const time = b.schedule_time ?? '08:00';
  return {
    schedule: b.schedule,
    time,
    dayOfWeek: b.schedule === 'weekly' ? (dow ?? 1) : null,
    dayOfMonth: b.schedule === 'monthly' ? (dom ?? 1) : null,
  };
}

/** The Schedule of a stored subscription row. */
export function scheduleOf(r: {
  schedule: ScheduleKind;
  schedule_time: string;
  schedule_day_of_week: number | null;
  schedule_day_of_month: number | null;
}): Schedule {
  return { schedule: r.schedule, time: r.schedule_time, dayOfWeek: r.schedule_day_of_week, dayOfMonth: r.schedule_day_of_month };
}
