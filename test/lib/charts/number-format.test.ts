// Figures with their units, as widgets, KPIs, tables, e-mails and PDFs write them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatValue } from '../../../src/lib/charts/number-format.ts';
import { formatNumber, kpiOf } from '../../../src/lib/charts/kpi-value.ts';

test('money in its currency, percent with its sign, whole numbers, fixed decimals; in the reader’s locale', () => {
  assert.equal(formatValue(1234.5, { type: 'money', currency: 'EUR' }), '€1,234.50');
  assert.equal(formatValue(1234.5, { type: 'money', currency: 'EUR', decimals: 0 }), '€1,235');
  assert.equal(formatValue(1234.5, { type: 'money', currency: 'EUR' }, 'de-DE'), '1.234,50\u00a0€');
  assert.equal(formatValue(1234.5, { type: 'money' }), '1,234.50');
  assert.equal(formatValue(4.98, { type: 'percent' }), '5.0%');
  assert.equal(formatValue(4.98, { type: 'percent', decimals: 2 }), '4.98%');
  assert.equal(formatValue(4.98, { type: 'percent', decimals: 1 }, 'de-DE'), '5,0\u00a0%');
  assert.equal(formatValue(1234.56, { type: 'integer' }), '1,235');
  assert.equal(formatValue(2.5, { type: 'number', decimals: 3 }), '2.500');
  assert.equal(formatValue(2.567, { type: 'number' }), '2.57');
  assert.equal(formatValue(5, { type: 'money', currency: 'XYZ1' }), '5', 'a bad code still reads');
});

test('a KPI carries its value column’s format, so the figure reads with its unit', () => {
  const kpi = kpiOf(
    [{ name: 'value', type: 'money', label: 'Revenue', currency: 'EUR', decimals: 0 }],
    [{ value: 48210.4, previous_value: 40000, change_pct: 20.5 }],
    undefined,
    'Revenue',
  )!;
  assert.deepEqual(kpi.format, { type: 'money', currency: 'EUR', decimals: 0 });
  assert.equal(formatNumber(kpi.value, kpi.format), '€48,210');
  assert.equal(formatNumber(48210.4), '48,210', 'a bare number as before');
});
