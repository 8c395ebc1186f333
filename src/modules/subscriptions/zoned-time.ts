// Wall-clock time in an IANA time zone, from the runtime's own tz database (Intl), with the two
// DST rules subscriptions promise (docs/notifications.md "Time zones"): a local time that does not
// exist that day (spring forward) means the first valid minute after it, i.e. the end of the gap;
// a local time that occurs twice (fall back) means its first occurrence.

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, f);
  }
  return f;
}

/**
 * Whether `tz` is a time zone name the runtime knows. Offsets ("+01:00") are refused: an offset
 * has no DST, so it would silently drift from what a person in that place sees.
 */
export function isTimeZone(tz: string): boolean {
  if (!/^[A-Za-z]/.test(tz) || tz.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

// Offsets change at whole minutes, and schedule arithmetic asks the same few minutes again and
// again (a scheduler tick computes thousands of slots): remember them per minute.
const offsets = new Map<string, number>();

/** The zone's offset from UTC at `instant`, in ms (local = UTC + offset). */
export function offsetAt(tz: string, instant: number): number {
  if (tz === 'UTC') return 0;
  const minute = Math.floor(instant / MINUTE_MS);
  const key = `${tz}\u0000${minute}`;
  const hit = offsets.get(key);
  if (hit !== undefined) return hit;
  const p: Record<string, number> = {};
  for (const part of formatter(tz).formatToParts(new Date(minute * MINUTE_MS))) {
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  const offset = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - minute * MINUTE_MS;
  if (offsets.size > 200_000) offsets.clear();
  offsets.set(key, offset);
  return offset;
}

export interface WallDate {
  year: number;
  /** 0-based, as Date's. */
  month: number;
  day: number;
  /** 0 = Sunday. */
  weekday: number;
}

/** The local calendar date at `instant`. */
export function wallDateAt(tz: string, instant: number): WallDate {
  const local = new Date(instant + offsetAt(tz, instant));
  return { year: local.getUTCFullYear(), month: local.getUTCMonth(), day: local.getUTCDate(), weekday: local.getUTCDay() };
}

/**
 * The instant of a local wall time (fields as Date.UTC takes them, overflow normalised). A time
 * that occurs twice resolves to its first occurrence; one that falls in a gap to the gap's end.
 */
export function instantOfWall(tz: string, year: number, month: number, day: number, hour: number, minute: number): number {
  const wall = Date.UTC(year, month, day, hour, minute);
  if (tz === 'UTC') return wall;
  // No zone changes its offset twice within two days, so the offsets a day either side are the
  // only candidates.
  const before = offsetAt(tz, wall - DAY_MS);
  const after = offsetAt(tz, wall + DAY_MS);
  const valid = [...new Set([before, after])].map((o) => wall - o).filter((t) => offsetAt(tz, t) === wall - t);
  if (valid.length > 0) return Math.min(...valid);
  // In the gap: the transition lies between the two readings; find its minute.
  let lo = Math.floor((wall - after) / MINUTE_MS);
  let hi = Math.ceil((wall - before) / MINUTE_MS);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (offsetAt(tz, mid * MINUTE_MS) === after) hi = mid;
    else lo = mid;
  }
  return hi * MINUTE_MS;
}
