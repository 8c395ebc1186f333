import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { daysInMonth, dueSlot, firstSlotAtOrAfter, nextSlotAfter, type Schedule } from '../../../src/modules/subscriptions/schedule.ts';

const next = (s: Schedule, after: string) => nextSlotAfter(s, new Date(after)).toISOString();

describe('schedule arithmetic (UTC)', () => {
  test('daily: later today, else tomorrow; exactly at the slot moves on', () => {
    const s: Schedule = { schedule: 'daily', time: '08:00' };
    assert.equal(next(s, '2026-03-10T07:59:59.999Z'), '2026-03-10T08:00:00.000Z');
    assert.equal(next(s, '2026-03-10T08:00:00.000Z'), '2026-03-11T08:00:00.000Z');
    assert.equal(next(s, '2026-12-31T23:00:00.000Z'), '2027-01-01T08:00:00.000Z');
    assert.equal(firstSlotAtOrAfter(s, new Date('2026-03-10T08:00:00.000Z')).toISOString(), '2026-03-10T08:00:00.000Z');
  });

  test('HH:mm edges: 00:00 and 23:59', () => {
    assert.equal(next({ schedule: 'daily', time: '00:00' }, '2026-02-28T00:00:00.000Z'), '2026-03-01T00:00:00.000Z');
    assert.equal(next({ schedule: 'daily', time: '23:59' }, '2026-02-28T23:58:00.000Z'), '2026-02-28T23:59:00.000Z');
    assert.equal(next({ schedule: 'daily', time: '23:59' }, '2026-02-28T23:59:00.000Z'), '2026-03-01T23:59:00.000Z');
    assert.throws(() => nextSlotAfter({ schedule: 'daily', time: '24:00' }, new Date()), RangeError);
    assert.throws(() => nextSlotAfter({ schedule: 'daily', time: '8:00' }, new Date()), RangeError);
  });

  test('weekly: each day of the week, same day before/after the time', () => {
    // 2026-03-11 is a Wednesday.
    const wed = '2026-03-11T10:00:00.000Z';
    const expected = ['2026-03-15', '2026-03-16', '2026-03-17', '2026-03-18', '2026-03-12', '2026-03-13', '2026-03-14'];
    for (let dow = 0; dow < 7; dow++) {
      assert.equal(next({ schedule: 'weekly', time: '09:30', dayOfWeek: dow }, wed), `${expected[dow]}T09:30:00.000Z`, `dow ${dow}`);
    }
    assert.equal(next({ schedule: 'weekly', time: '11:00', dayOfWeek: 3 }, wed), '2026-03-11T11:00:00.000Z');
    // Across a year end: Monday after Thursday 2026-12-31.
    assert.equal(next({ schedule: 'weekly', time: '08:00', dayOfWeek: 1 }, '2026-12-31T12:00:00.000Z'), '2027-01-04T08:00:00.000Z');
  });

  test('monthly: day 31 falls on the last day of shorter months', () => {
    const s: Schedule = { schedule: 'monthly', time: '06:00', dayOfMonth: 31 };
    let at = new Date('2026-01-01T00:00:00.000Z');
    const got: string[] = [];
    for (let i = 0; i < 13; i++) {
      at = nextSlotAfter(s, at);
      got.push(at.toISOString().slice(0, 10));
    }
    assert.deepEqual(got, [
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
      '2026-06-30',
      '2026-07-31',
      '2026-08-31',
      '2026-09-30',
      '2026-10-31',
      '2026-11-30',
      '2026-12-31',
      '2027-01-31',
    ]);
  });

  test('monthly: Feb 29 in leap years only; day 30 and 29 clamp in February', () => {
    assert.equal(next({ schedule: 'monthly', time: '08:00', dayOfMonth: 29 }, '2028-02-01T00:00:00.000Z'), '2028-02-29T08:00:00.000Z');
    assert.equal(next({ schedule: 'monthly', time: '08:00', dayOfMonth: 29 }, '2027-02-01T00:00:00.000Z'), '2027-02-28T08:00:00.000Z');
    assert.equal(next({ schedule: 'monthly', time: '08:00', dayOfMonth: 30 }, '2028-02-01T00:00:00.000Z'), '2028-02-29T08:00:00.000Z');
    assert.equal(next({ schedule: 'monthly', time: '08:00', dayOfMonth: 31 }, '2100-02-01T00:00:00.000Z'), '2100-02-28T08:00:00.000Z');
    assert.equal(next({ schedule: 'monthly', time: '08:00', dayOfMonth: 31 }, '2000-02-01T00:00:00.000Z'), '2000-02-29T08:00:00.000Z');
    // After the clamped Feb slot, March goes back to the 31st.
    assert.equal(next({ schedule: 'monthly', time: '08:00', dayOfMonth: 31 }, '2028-02-29T08:00:00.000Z'), '2028-03-31T08:00:00.000Z');
    assert.equal(daysInMonth(2028, 1), 29);
    assert.equal(daysInMonth(2026, 1), 28);
  });

  test("monthly: past this month's slot → next month; December → January", () => {
    const s: Schedule = { schedule: 'monthly', time: '08:00', dayOfMonth: 1 };
    assert.equal(next(s, '2026-12-01T08:00:00.000Z'), '2027-01-01T08:00:00.000Z');
    assert.equal(next(s, '2026-11-30T23:59:00.000Z'), '2026-12-01T08:00:00.000Z');
  });

  test('dueSlot: on time, late < 6 h sends once, ≥ 6 h skips, several missed slots send only the latest', () => {
    const s: Schedule = { schedule: 'daily', time: '08:00' };
    const slot = new Date('2026-03-10T08:00:00.000Z');
    const on = dueSlot(s, slot, new Date('2026-03-10T08:00:00.000Z'));
    assert.equal(on.send?.toISOString(), '2026-03-10T08:00:00.000Z');
    assert.equal(on.next.toISOString(), '2026-03-11T08:00:00.000Z');
    assert.equal(dueSlot(s, slot, new Date('2026-03-10T13:59:59.999Z')).send?.toISOString(), slot.toISOString());
    const late = dueSlot(s, slot, new Date('2026-03-10T14:00:00.000Z'));
    assert.equal(late.send, undefined);
    assert.equal(late.next.toISOString(), '2026-03-11T08:00:00.000Z');
    // Down for three days, back 2 h after a slot: that one slot is sent, once.
    const back = dueSlot(s, slot, new Date('2026-03-13T10:00:00.000Z'));
    assert.equal(back.send?.toISOString(), '2026-03-13T08:00:00.000Z');
    assert.equal(back.next.toISOString(), '2026-03-14T08:00:00.000Z');
    // Not yet due.
    assert.deepEqual(dueSlot(s, slot, new Date('2026-03-10T07:00:00.000Z')), { next: slot });
  });
});
