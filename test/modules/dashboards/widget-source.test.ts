// The widget-source rules as pure functions, without a database: which fields a source needs and
// the filter precedence (insight defaults < active preset < widget < refresh body, later wins).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { demoModel } from '../../../src/semantic/model.ts';
import { checkSourcePresence, widgetParams } from '../../../src/modules/dashboards/widget-source.ts';

const def = (code: string) => demoModel().insights.find((d) => d.code === code)!;
const dashboard = {
  global_filter_presets: [
    { id: 'p-de', filters: { country: 'DE', channel: 'email', date_from: '2025-01-01', granularity: 'month' } },
    { id: 'p-fr', filters: { country: 'FR' } },
  ],
  active_preset_id: 'p-de',
};

test('later wins: preset < widget < refresh body; only the active preset applies', () => {
  const widget = { data_source: 'live_insight', insight_code: 'revenue', granularity: 'week', widget_filters: { country: 'FR' } };
  assert.deepEqual(widgetParams(def('revenue'), dashboard, widget), {
    granularity: 'week',
    country: 'FR',
    channel: 'email',
    date_from: '2025-01-01',
  });
  assert.deepEqual(widgetParams(def('revenue'), dashboard, widget, { granularity: 'day', filters: { channel: 'ads', country: null } }), {
    granularity: 'day',
    country: 'FR',
    channel: 'ads',
    date_from: '2025-01-01',
  });
  assert.deepEqual(widgetParams(def('revenue'), { ...dashboard, active_preset_id: null }, { data_source: 'live_insight' }), {});
});

test('what the insight does not take is skipped from preset and widget; a body filter that is none is a 400', () => {
  // revenue_by_country has no time axis: the preset's granularity is not passed on.
  assert.deepEqual(widgetParams(def('revenue_by_country'), dashboard, { data_source: 'live_insight' }), {
    country: 'DE',
    channel: 'email',
    date_from: '2025-01-01',
  });
  assert.throws(() => widgetParams(def('revenue'), dashboard, { data_source: 'live_insight' }, { filters: { colour: 'red' } }), {
    code: 'VALIDATION_FAILED',
  });
});

test('a live source needs an insight_code and no rows; a snapshot needs rows', () => {
  assert.throws(() => checkSourcePresence({ data_source: 'live_insight', insight_code: null, snapshot_data: null }), /insight_code/);
  assert.throws(() => checkSourcePresence({ data_source: 'live_insight', insight_code: 'revenue', snapshot_data: [] }), /snapshot_data/);
  assert.throws(() => checkSourcePresence({ data_source: 'snapshot', insight_code: null, snapshot_data: null }), /snapshot_data/);
  checkSourcePresence({ data_source: 'snapshot', insight_code: null, snapshot_data: [] });
  checkSourcePresence({ data_source: 'live_insight', insight_code: 'revenue', snapshot_data: null });
});

test('a relative range means its dates on the given day; a later level’s dates beat an earlier range and the other way round', () => {
  const widget = { data_source: 'live_insight', insight_code: 'revenue' };
  const ranged = { global_filter_presets: [{ id: 'p', filters: { range: 'last_month' } }], active_preset_id: 'p' };
  assert.deepEqual(widgetParams(def('revenue'), ranged, widget, {}, '2026-11-25'), { date_from: '2026-10-01', date_to: '2026-10-31' });
  assert.deepEqual(widgetParams(def('revenue'), ranged, widget, { filters: { range: 'last_quarter' } }, '2026-11-25'), {
    date_from: '2026-07-01',
    date_to: '2026-09-30',
  });
  assert.deepEqual(widgetParams(def('revenue'), ranged, widget, { filters: { range: 'year_to_date' } }, '2026-11-25'), {
    date_from: '2026-01-01',
    date_to: '2026-11-25',
  });
  assert.deepEqual(widgetParams(def('revenue'), ranged, widget, { filters: { range: 'last_7_days' } }, '2026-11-25'), {
    date_from: '2026-11-19',
    date_to: '2026-11-25',
  });
  assert.deepEqual(widgetParams(def('revenue'), ranged, { ...widget, widget_filters: { date_from: '2026-05-01' } }, {}, '2026-11-25'), {
    date_from: '2026-05-01',
    date_to: '2026-10-31',
  });
  assert.deepEqual(widgetParams(def('revenue'), dashboard, widget, { filters: { range: 'this_month' } }, '2026-11-25'), {
    country: 'DE',
    channel: 'email',
    granularity: 'month',
    date_from: '2026-11-01',
    date_to: '2026-11-25',
  });
  assert.throws(() => widgetParams(def('revenue'), ranged, widget, { filters: { range: 'fortnight' } }, '2026-11-25'), {
    code: 'VALIDATION_FAILED',
  });
});

test('a widget that opts out of dashboard filters does not take them from the preset; its own filters still apply', () => {
  const widget = {
    data_source: 'live_insight',
    insight_code: 'revenue',
    ignored_filters: ['country', 'date'],
    widget_filters: { channel: 'ads' },
  };
  assert.deepEqual(widgetParams(def('revenue'), dashboard, widget), { channel: 'ads', granularity: 'month' });
});

test('a refresh may name the preset to use instead of the active one, or none', () => {
  const widget = { data_source: 'live_insight', insight_code: 'revenue' };
  assert.deepEqual(widgetParams(def('revenue'), dashboard, widget, { preset_id: 'p-fr' }), { country: 'FR' });
  assert.deepEqual(widgetParams(def('revenue'), dashboard, widget, { preset_id: null, filters: { country: ['DE', 'AT'] } }), {
    country: ['DE', 'AT'],
  });
  assert.throws(() => widgetParams(def('revenue'), dashboard, widget, { preset_id: 'nope' }), { code: 'VALIDATION_FAILED' });
});
