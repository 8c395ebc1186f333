// The one meaning of "the previous period", and relative ranges, as pure calendar arithmetic.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { previousPeriod, relativeWindow } from '../../src/semantic/periods.ts';
import { resolveParams } from '../../src/modules/insights/insights.params.ts';
import { demoModel } from '../../src/semantic/model.ts';

test('a whole calendar period compares with the one before; a partial one with the same stretch of the one before', () => {
  assert.deepEqual(
    previousPeriod({ from: '2026-10-01', to: '2026-10-31' }),
    { from: '2026-09-01', to: '2026-09-30' },
    'last month: the month before',
  );
  assert.deepEqual(previousPeriod({ from: '2026-07-01', to: '2026-09-30' }), { from: '2026-04-01', to: '2026-06-30' }, 'Q3: Q2');
  assert.deepEqual(
    previousPeriod({ from: '2026-03-01', to: '2026-03-31' }),
    { from: '2026-02-01', to: '2026-02-28' },
    'March: all of February',
  );
  assert.deepEqual(previousPeriod({ from: '2026-11-01', to: '2026-11-25' }), { from: '2026-10-01', to: '2026-10-25' }, 'month so far');
  assert.deepEqual(previousPeriod({ from: '2026-01-01', to: '2026-11-25' }), { from: '2025-01-01', to: '2025-11-25' }, 'year to date');
  assert.deepEqual(previousPeriod({ from: '2026-11-16', to: '2026-11-22' }), { from: '2026-11-09', to: '2026-11-15' }, 'a whole ISO week');
  assert.deepEqual(
    previousPeriod({ from: '2027-02-01', to: '2027-02-03' }, 'week'),
    { from: '2027-01-25', to: '2027-01-27' },
    'this week so far, though it starts on the 1st',
  );
  assert.deepEqual(
    previousPeriod({ from: '2026-11-05', to: '2026-11-14' }),
    { from: '2026-10-26', to: '2026-11-04' },
    'any other window: equal length before',
  );
});

test('the KPI of "last month" compares with the month before, as chat, widgets and reports do', () => {
  const kpi = demoModel().insights.find((d) => d.code === 'revenue_kpi')!;
  const q = resolveParams(kpi, 'demo', { date_from: '2026-10-01', date_to: '2026-10-31' }, '2026-11-25');
  assert.deepEqual(q.previous, { from: '2026-09-01', to: '2026-09-30' });
  const soFar = resolveParams(kpi, 'demo', {}, '2026-11-25');
  assert.deepEqual(
    [soFar.window, soFar.previous],
    [
      { from: '2026-11-01', to: '2026-11-25' },
      { from: '2026-10-01', to: '2026-10-25' },
    ],
  );
});

test('relative ranges on a day', () => {
  const today = '2026-11-25';
  assert.deepEqual(relativeWindow('last_month', today), { from: '2026-10-01', to: '2026-10-31' });
  assert.deepEqual(relativeWindow('last_quarter', '2026-01-10'), { from: '2025-10-01', to: '2025-12-31' });
  assert.deepEqual(relativeWindow('this_quarter', today), { from: '2026-10-01', to: today });
  assert.deepEqual(relativeWindow('last_30_days', today), { from: '2026-10-27', to: today });
});
