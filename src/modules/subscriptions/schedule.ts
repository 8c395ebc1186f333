// Schedule arithmetic for both subscription kinds, pure: a schedule names a set of instants
// ("slots") — HH:mm on local dates of the subscription's time zone, or a cron expression read in
// it — and everything the scheduler needs is "the first slot after t". Slots are UTC instants.
import { nextCronSlot } from './cron.ts';
import { instantOfWall, wallDateAt, type WallDate } from './zoned-time.ts';

export const SCHEDULES = ['daily', 'weekly', 'monthly'] as const;
export type ScheduleKind = (typeof SCHEDULES)[number];

export interface Schedule {
  schedule: ScheduleKind;
  /** HH:mm, read in `timeZone`. */
  time: string;
  /** 0 = Sunday … 6 = Saturday; weekly only. */
  dayOfWeek?: number | null;
  /** 1 … 31; monthly only. Days past the month's end fall on its last day. */
  dayOfMonth?: number | null;
  /** IANA name; UTC when absent. */
  timeZone?: string;
  /** A 5-field cron expression read in `timeZone`; when set it alone decides the slots. */
  cron?: string | null;
}

export const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

function hoursMinutes(time: string): [number, number] {
  if (!HHMM.test(time)) throw new RangeError(`Invalid schedule time ${time}`);
  return [Number(time.slice(0, 2)), Number(time.slice(3, 5))];
}

export function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one (leap years included).
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/**
 * The local dates a schedule runs on, from the local date of `from` on (a few more than needed:
 * a slot of the first date may already have passed).
 */
function* candidateDates(s: Schedule, from: WallDate): Generator<[number, number, number]> {
  const { year: y, month: mo, day: d } = from;
  switch (s.schedule) {
    case 'daily':
      for (let i = 0; ; i++) yield [y, mo, d + i];
    case 'weekly': {
      const ahead = ((s.dayOfWeek ?? 1) - from.weekday + 7) % 7;
      for (let i = 0; ; i++) yield [y, mo, d + ahead + 7 * i];
    }
    case 'monthly':
      for (let i = 0; ; i++) {
        // Date.UTC normalises month overflow (month 12 → January of the next year).
        const first = new Date(Date.UTC(y, mo + i, 1));
        const yy = first.getUTCFullYear();
        const mm = first.getUTCMonth();
        yield [yy, mm, Math.min(s.dayOfMonth ?? 1, daysInMonth(yy, mm))];
      }
  }
}

/** The first slot strictly after `after`. */
export function nextSlotAfter(s: Schedule, after: Date): Date {
  const tz = s.timeZone ?? 'UTC';
  if (s.cron) return nextCronSlot(s.cron, tz, after);
  const t = after.getTime();
  const [h, m] = hoursMinutes(s.time);
  for (const [y, mo, d] of candidateDates(s, wallDateAt(tz, t))) {
    const slot = instantOfWall(tz, y, mo, d, h, m);
    if (slot > t) return new Date(slot);
  }
  throw new Error('unreachable');
}

/** The first slot at or after `at`. */
export function firstSlotAtOrAfter(s: Schedule, at: Date): Date {
  return nextSlotAfter(s, new Date(at.getTime() - 1));
}

/** How late a missed slot may still be sent (docs/notifications.md "Missed slots": less than 6 h). */
export const MISSED_SLOT_GRACE_MS = 6 * 3_600_000;

/**
 * What a scheduler tick does with a subscription whose next_run_at has come: the slot to send
 * (the latest one due, only if it is less than 6 h late — a subscription that missed several
 * slots while the service was down sends once, not once per missed slot), and the next slot.
 */
export function dueSlot(s: Schedule, nextRunAt: Date, now: Date): { send?: Date; next: Date } {
  const graceStart = new Date(now.getTime() - MISSED_SLOT_GRACE_MS + 1);
  let slot = nextRunAt.getTime() >= graceStart.getTime() ? nextRunAt : firstSlotAtOrAfter(s, graceStart);
  if (slot.getTime() > now.getTime()) return { next: slot };
  // The slot after the one sent is also the answer's `next`: computed once (a cron slot in a
  // time zone costs tens of microseconds, and a tick computes thousands).
  let n = nextSlotAfter(s, slot);
  for (; n.getTime() <= now.getTime(); n = nextSlotAfter(s, n)) slot = n;
  return { send: slot, next: n };
}
