// Cron schedules through croner (a well-kept parser; we write none): 5 fields, minute precision,
// read in the subscription's time zone. croner's DST rules match ours for fixed-time jobs (a time
// in a gap runs at the gap's end, a repeated time once, at its first occurrence); "no-wildcard"
// makes lists and ranges of hours and minutes (`30 2,14 * * *`) fixed-time too, while stepped or
// wildcard jobs (`*/15 * * * *`) are interval jobs: they skip the gap and run in both copies of a
// repeated hour (docs/notifications.md "Cron").
import { Cron } from 'croner';

const OPTIONS = { mode: '5-part', fixedTimeRule: 'no-wildcard', paused: true } as const;

// The scheduler computes thousands of slots per tick from a few distinct expressions: parse each
// (expression, zone) once.
const jobs = new Map<string, Cron>();
function job(expr: string, tz: string): Cron {
  const key = `${tz}\u0000${expr}`;
  let j = jobs.get(key);
  if (!j) {
    j = new Cron(expr, { ...OPTIONS, timezone: tz });
    if (jobs.size > 10_000) jobs.clear();
    jobs.set(key, j);
  }
  return j;
}

/** Why an expression is refused, or undefined when croner takes it and it ever runs. */
export function cronProblem(expr: string, tz: string): string | undefined {
  if (expr.trim().split(/\s+/).length !== 5) return 'must have 5 fields: minute hour day-of-month month day-of-week';
  let j: Cron;
  try {
    j = new Cron(expr, { ...OPTIONS, timezone: tz });
  } catch (err) {
    return (err as Error).message.replace(/^CronPattern: /, '');
  }
  if (!j.nextRun(new Date())) return 'never runs';
  return undefined;
}

/** The first slot of the expression strictly after `after` (croner drops milliseconds first). */
export function nextCronSlot(expr: string, tz: string, after: Date): Date {
  const next = job(expr, tz).nextRun(after);
  if (!next) throw new RangeError(`The cron expression "${expr}" has no run after ${after.toISOString()}`);
  return next;
}
