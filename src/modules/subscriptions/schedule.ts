// Schedule arithmetic for both subscription kinds, pure and in UTC: a schedule names a set of
// instants ("slots"), and everything the scheduler needs is "the first slot after t".

export const SCHEDULES = ['daily', 'weekly', 'monthly'] as const;
export type ScheduleKind = (typeof SCHEDULES)[number];

export interface Schedule {
  schedule: ScheduleKind;
  /** HH:mm, UTC. */
  time: string;
  /** 0 = Sunday … 6 = Saturday; weekly only. */
  dayOfWeek?: number | null;
  /** 1 … 31; monthly only. Days past the month's end fall on its last day. */
  dayOfMonth?: number | null;
}

export const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

const DAY_MS = 86_400_000;

function hoursMinutes(time: string): [number, number] {
  if (!HHMM.test(time)) throw new RangeError(`Invalid schedule time ${time}`);
  return [Number(time.slice(0, 2)), Number(time.slice(3, 5))];
}

export function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one (leap years included).
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

function monthlySlot(year: number, month: number, dayOfMonth: number, h: number, m: number): number {
  // Date.UTC normalises month overflow (month 12 → January of the next year).
  const first = new Date(Date.UTC(year, month, 1));
  const y = first.getUTCFullYear();
  const mo = first.getUTCMonth();
  return Date.UTC(y, mo, Math.min(dayOfMonth, daysInMonth(y, mo)), h, m);
}

/** The first slot strictly after `after`. */
export function nextSlotAfter(s: Schedule, after: Date): Date {
  const t = after.getTime();
  const [h, m] = hoursMinutes(s.time);
  const y = after.getUTCFullYear();
  const mo = after.getUTCMonth();
  const d = after.getUTCDate();
  switch (s.schedule) {
    case 'daily': {
      const today = Date.UTC(y, mo, d, h, m);
      return new Date(today > t ? today : today + DAY_MS);
    }
    case 'weekly': {
      const dow = s.dayOfWeek ?? 1;
      const ahead = (dow - after.getUTCDay() + 7) % 7;
      const candidate = Date.UTC(y, mo, d + ahead, h, m);
      return new Date(candidate > t ? candidate : candidate + 7 * DAY_MS);
    }
    case 'monthly': {
      const dom = s.dayOfMonth ?? 1;
      const candidate = monthlySlot(y, mo, dom, h, m);
      return new Date(candidate > t ? candidate : monthlySlot(y, mo + 1, dom, h, m));
    }
  }
}

/** The first slot at or after `at`. */
export function firstSlotAtOrAfter(s: Schedule, at: Date): Date {
  return nextSlotAfter(s, new Date(at.getTime() - 1));
}

/** How late a missed slot may still be sent (docs/product.md §6: "less than 6 h late"). */
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
  for (let n = nextSlotAfter(s, slot); n.getTime() <= now.getTime(); n = nextSlotAfter(s, n)) slot = n;
  return { send: slot, next: nextSlotAfter(s, slot) };
}
