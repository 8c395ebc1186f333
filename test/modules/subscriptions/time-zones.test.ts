// Schedules read in a time zone, across every DST edge of three zones with different rules:
// Europe/Berlin (EU, 1 h at 01:00 UTC), America/New_York (US, 1 h at 02:00 local) and
// Australia/Lord_Howe (southern hemisphere, a 30-minute shift at 02:00 local).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dueSlot, nextSlotAfter, type Schedule } from '../../../src/modules/subscriptions/schedule.ts';
import { instantOfWall, isTimeZone, offsetAt } from '../../../src/modules/subscriptions/zoned-time.ts';
import { cronProblem } from '../../../src/modules/subscriptions/cron.ts';

const next = (s: Schedule, after: string) => nextSlotAfter(s, new Date(after)).toISOString();
/** The first n slots after `after`. */
function slots(s: Schedule, after: string, n: number): string[] {
  const out: string[] = [];
  let at = new Date(after);
  for (let i = 0; i < n; i++) out.push((at = nextSlotAfter(s, at)).toISOString());
  return out;
}
const daily = (time: string, timeZone: string): Schedule => ({ schedule: 'daily', time, timeZone });

describe('time zones: Europe/Berlin (2026: spring forward Mar 29 02:00→03:00, fall back Oct 25 03:00→02:00)', () => {
  const tz = 'Europe/Berlin';
  test('an ordinary local time keeps its wall time across both changes (the UTC instant moves)', () => {
    assert.deepEqual(slots(daily('08:00', tz), '2026-03-27T12:00:00Z', 3), [
      '2026-03-28T07:00:00.000Z',
      '2026-03-29T06:00:00.000Z',
      '2026-03-30T06:00:00.000Z',
    ]);
    assert.deepEqual(slots(daily('08:00', tz), '2026-10-24T12:00:00Z', 2), ['2026-10-25T07:00:00.000Z', '2026-10-26T07:00:00.000Z']);
  });
  test('a time in the gap runs at the first valid minute after it (03:00 CEST), once', () => {
    assert.deepEqual(slots(daily('02:30', tz), '2026-03-28T12:00:00Z', 3), [
      '2026-03-29T01:00:00.000Z',
      '2026-03-30T00:30:00.000Z',
      '2026-03-31T00:30:00.000Z',
    ]);
    assert.equal(next(daily('02:00', tz), '2026-03-28T12:00:00Z'), '2026-03-29T01:00:00.000Z');
    assert.equal(next(daily('02:59', tz), '2026-03-28T12:00:00Z'), '2026-03-29T01:00:00.000Z');
    // 03:00 exists: the same instant, reached without the rule.
    assert.equal(next(daily('03:00', tz), '2026-03-28T12:00:00Z'), '2026-03-29T01:00:00.000Z');
    assert.equal(next(daily('01:59', tz), '2026-03-28T12:00:00Z'), '2026-03-29T00:59:00.000Z');
  });
  test('a time that occurs twice runs once, at its first occurrence (CEST)', () => {
    assert.deepEqual(slots(daily('02:30', tz), '2026-10-24T12:00:00Z', 2), ['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
    // Asked during the second 02:30 (CET): today's slot has passed.
    assert.equal(next(daily('02:30', tz), '2026-10-25T01:15:00Z'), '2026-10-26T01:30:00.000Z');
    assert.equal(next(daily('02:00', tz), '2026-10-24T23:00:00Z'), '2026-10-25T00:00:00.000Z');
  });
  test('monthly day 31 on a DST day (2024-03-31) and clamped to a leap February', () => {
    const s: Schedule = { schedule: 'monthly', time: '02:30', dayOfMonth: 31, timeZone: tz };
    assert.deepEqual(slots(s, '2024-01-15T00:00:00Z', 4), [
      '2024-01-31T01:30:00.000Z',
      '2024-02-29T01:30:00.000Z',
      // 2024-03-31 is the EU change: 02:30 does not exist, so 03:00 CEST.
      '2024-03-31T01:00:00.000Z',
      '2024-04-30T00:30:00.000Z',
    ]);
  });
});

describe('time zones: America/New_York (2026: Mar 8 02:00→03:00, Nov 1 02:00→01:00)', () => {
  const tz = 'America/New_York';
  test('gap: 02:30 on Mar 8 runs at 03:00 EDT; the day after at 02:30 EDT', () => {
    assert.deepEqual(slots(daily('02:30', tz), '2026-03-07T12:00:00Z', 3), [
      '2026-03-08T07:00:00.000Z',
      '2026-03-09T06:30:00.000Z',
      '2026-03-10T06:30:00.000Z',
    ]);
    assert.equal(
      next({ schedule: 'weekly', time: '02:15', dayOfWeek: 0, timeZone: tz }, '2026-03-02T00:00:00Z'),
      '2026-03-08T07:00:00.000Z',
    );
  });
  test('repeat: 01:30 on Nov 1 runs once, at 01:30 EDT', () => {
    assert.deepEqual(slots(daily('01:30', tz), '2026-10-31T12:00:00Z', 3), [
      '2026-11-01T05:30:00.000Z',
      '2026-11-02T06:30:00.000Z',
      '2026-11-03T06:30:00.000Z',
    ]);
    assert.equal(next(daily('01:30', tz), '2026-11-01T06:10:00Z'), '2026-11-02T06:30:00.000Z');
  });
  test('the local date decides, not the UTC one: 23:30 local is the next UTC day', () => {
    assert.equal(next(daily('23:30', tz), '2026-03-10T00:00:00Z'), '2026-03-10T03:30:00.000Z');
    // Friday 2026-11-20 23:30 EST = Saturday 04:30 UTC.
    assert.equal(
      next({ schedule: 'weekly', time: '23:30', dayOfWeek: 5, timeZone: tz }, '2026-11-16T00:00:00Z'),
      '2026-11-21T04:30:00.000Z',
    );
  });
  test('leap day and month ends in local time', () => {
    assert.deepEqual(slots({ schedule: 'monthly', time: '23:00', dayOfMonth: 31, timeZone: tz }, '2028-01-31T12:00:00Z', 3), [
      '2028-02-01T04:00:00.000Z', // Jan 31 23:00 EST
      '2028-03-01T04:00:00.000Z', // Feb 29 23:00 EST (leap year)
      '2028-04-01T03:00:00.000Z', // Mar 31 23:00 EDT
    ]);
    assert.equal(
      next({ schedule: 'monthly', time: '08:00', dayOfMonth: 29, timeZone: tz }, '2027-02-01T00:00:00Z'),
      '2027-02-28T13:00:00.000Z',
    );
    assert.equal(
      next({ schedule: 'monthly', time: '08:00', dayOfMonth: 31, timeZone: tz }, '2100-02-01T00:00:00Z'),
      '2100-02-28T13:00:00.000Z',
    );
    assert.deepEqual(slots(daily('00:00', tz), '2028-02-28T06:00:00Z', 2), ['2028-02-29T05:00:00.000Z', '2028-03-01T05:00:00.000Z']);
  });
});

describe('time zones: Australia/Lord_Howe (30-minute shift; 2026: Apr 5 02:00→01:30, Oct 4 02:00→02:30)', () => {
  const tz = 'Australia/Lord_Howe';
  test('offsets are +10:30 and +11:00', () => {
    assert.equal(offsetAt(tz, Date.parse('2026-07-01T00:00:00Z')), 10.5 * 3_600_000);
    assert.equal(offsetAt(tz, Date.parse('2026-12-01T00:00:00Z')), 11 * 3_600_000);
  });
  test('gap of 30 minutes: 02:00–02:29 run at 02:30 LHDT', () => {
    for (const time of ['02:00', '02:15', '02:29', '02:30'])
      assert.equal(next(daily(time, tz), '2026-10-03T12:00:00Z'), '2026-10-03T15:30:00.000Z', time);
    assert.equal(next(daily('01:59', tz), '2026-10-03T12:00:00Z'), '2026-10-03T15:29:00.000Z');
    assert.deepEqual(slots(daily('02:15', tz), '2026-10-03T12:00:00Z', 2), ['2026-10-03T15:30:00.000Z', '2026-10-04T15:15:00.000Z']);
  });
  test('repeated half hour: 01:45 on Apr 5 runs once, at its first occurrence (LHDT)', () => {
    assert.deepEqual(slots(daily('01:45', tz), '2026-04-04T12:00:00Z', 2), ['2026-04-04T14:45:00.000Z', '2026-04-05T15:15:00.000Z']);
    // 01:30–01:59 repeat; 02:00 is once again unique (after the change).
    assert.equal(next(daily('02:00', tz), '2026-04-04T12:00:00Z'), '2026-04-04T15:30:00.000Z');
  });
  test('weekly on the local Monday, which is Sunday in UTC', () => {
    assert.equal(
      next({ schedule: 'weekly', time: '00:30', dayOfWeek: 1, timeZone: tz }, '2026-11-15T00:00:00Z'),
      '2026-11-15T13:30:00.000Z',
    );
  });
  test('instantOfWall directly: unique, repeated, gap', () => {
    assert.equal(new Date(instantOfWall(tz, 2026, 0, 10, 12, 0)).toISOString(), '2026-01-10T01:00:00.000Z');
    assert.equal(new Date(instantOfWall(tz, 2026, 3, 5, 1, 30)).toISOString(), '2026-04-04T14:30:00.000Z');
    assert.equal(new Date(instantOfWall(tz, 2026, 9, 4, 2, 10)).toISOString(), '2026-10-03T15:30:00.000Z');
  });
});

describe('cron, read in the time zone (croner)', () => {
  const cron = (expr: string, timeZone = 'UTC'): Schedule => ({ schedule: 'daily', time: '08:00', cron: expr, timeZone });
  test('cron decides the slots, not schedule_time', () => {
    assert.deepEqual(slots(cron('0 9 * * 1-5', 'America/New_York'), '2026-11-20T12:00:00Z', 3), [
      '2026-11-20T14:00:00.000Z',
      '2026-11-23T14:00:00.000Z',
      '2026-11-24T14:00:00.000Z',
    ]);
    assert.deepEqual(slots(cron('15,45 8 1 * *'), '2026-03-01T08:15:00Z', 2), ['2026-03-01T08:45:00.000Z', '2026-04-01T08:15:00.000Z']);
    // Exactly at a slot moves on; a millisecond before it is that slot.
    assert.equal(next(cron('0 9 * * *'), '2026-11-20T09:00:00.000Z'), '2026-11-21T09:00:00.000Z');
    assert.equal(next(cron('0 9 * * *'), '2026-11-20T08:59:59.999Z'), '2026-11-20T09:00:00.000Z');
  });
  test('fixed-time cron jobs follow the same DST rules: gap → its end, repeat → once', () => {
    assert.deepEqual(slots(cron('30 2 * * *', 'Europe/Berlin'), '2026-03-28T12:00:00Z', 2), [
      '2026-03-29T01:00:00.000Z',
      '2026-03-30T00:30:00.000Z',
    ]);
    assert.deepEqual(slots(cron('30 2 * * *', 'Europe/Berlin'), '2026-10-24T12:00:00Z', 2), [
      '2026-10-25T00:30:00.000Z',
      '2026-10-26T01:30:00.000Z',
    ]);
    assert.equal(next(cron('30 2 * * *', 'America/New_York'), '2026-03-07T12:00:00Z'), '2026-03-08T07:00:00.000Z');
    assert.equal(next(cron('30 1 * * *', 'America/New_York'), '2026-10-31T12:00:00Z'), '2026-11-01T05:30:00.000Z');
    assert.equal(next(cron('30 1 * * *', 'America/New_York'), '2026-11-01T05:30:00Z'), '2026-11-02T06:30:00.000Z');
    assert.equal(next(cron('15 2 * * *', 'Australia/Lord_Howe'), '2026-10-03T12:00:00Z'), '2026-10-03T15:30:00.000Z');
    assert.deepEqual(slots(cron('45 1 * * *', 'Australia/Lord_Howe'), '2026-04-04T12:00:00Z', 2), [
      '2026-04-04T14:45:00.000Z',
      '2026-04-05T15:15:00.000Z',
    ]);
    // A list of hours counts as fixed-time too.
    assert.equal(next(cron('30 2,14 * * *', 'Europe/Berlin'), '2026-03-28T23:00:00Z'), '2026-03-29T01:00:00.000Z');
  });
  test('interval cron jobs skip the gap and run in both copies of a repeated hour', () => {
    assert.deepEqual(slots(cron('*/30 * * * *', 'Europe/Berlin'), '2026-10-24T23:15:00Z', 6), [
      '2026-10-24T23:30:00.000Z', // 01:30 CEST
      '2026-10-25T00:00:00.000Z', // 02:00 CEST
      '2026-10-25T00:30:00.000Z', // 02:30 CEST
      '2026-10-25T01:00:00.000Z', // 02:00 CET
      '2026-10-25T01:30:00.000Z', // 02:30 CET
      '2026-10-25T02:00:00.000Z', // 03:00 CET
    ]);
    assert.deepEqual(slots(cron('*/30 * * * *', 'Europe/Berlin'), '2026-03-29T00:15:00Z', 2), [
      '2026-03-29T00:30:00.000Z',
      '2026-03-29T01:00:00.000Z',
    ]);
  });
  test('last day of the month (L) and leap days', () => {
    assert.deepEqual(slots(cron('0 6 L * *', 'Europe/Berlin'), '2028-01-31T12:00:00Z', 2), [
      '2028-02-29T05:00:00.000Z',
      '2028-03-31T04:00:00.000Z',
    ]);
    assert.equal(next(cron('0 12 29 2 *'), '2026-03-01T00:00:00Z'), '2028-02-29T12:00:00.000Z');
  });
  test('dueSlot with a cron schedule: the latest due slot within 6 h, then the next', () => {
    const s = cron('0 * * * *', 'Australia/Lord_Howe');
    const r = dueSlot(s, new Date('2026-06-01T00:30:00Z'), new Date('2026-06-01T03:40:00Z'));
    assert.equal(r.send?.toISOString(), '2026-06-01T03:30:00.000Z');
    assert.equal(r.next.toISOString(), '2026-06-01T04:30:00.000Z');
  });
  test('problems croner reports, and the 5-field rule', () => {
    assert.equal(cronProblem('0 9 * * 1-5', 'UTC'), undefined);
    assert.match(cronProblem('* * *', 'UTC')!, /5 fields/);
    assert.match(cronProblem('0 0 0 9 * *', 'UTC')!, /5 fields/);
    assert.match(cronProblem('61 * * * *', 'UTC')!, /minute/);
    assert.match(cronProblem('0 0 30 2 *', 'UTC')!, /never runs/);
    assert.ok(cronProblem('bogus x y z w', 'UTC'));
  });
});

test('time zone names: IANA names only', () => {
  for (const tz of ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'America/Argentina/Buenos_Aires'])
    assert.ok(isTimeZone(tz), tz);
  for (const tz of ['Mars/Olympus', '+01:00', '', 'Europe/Berlin\n', 'not a zone']) assert.ok(!isTimeZone(tz), tz);
});
