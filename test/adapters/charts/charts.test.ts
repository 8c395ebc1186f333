// Server-side charts: every type renders a PNG with the shipped fonts (no system fonts), text
// really drawn; report composition picks the chart type and the KPI as the dashboard would.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ChartRenderer, PNG_SIGNATURE } from '../../../src/adapters/charts/renderer.ts';
import { measureText, needsFallback } from '../../../src/adapters/charts/font.ts';
import { kpiOf } from '../../../src/adapters/charts/kpi.ts';
import { periodLabels, type ChartInput } from '../../../src/lib/charts/options.ts';
import { messagesOf, MESSAGE_LIMIT } from '../../../src/adapters/delivery/messenger.ts';
import { composeDashboardReport, widgetChartType, type ResultLike } from '../../../src/modules/reports/compose.ts';
import { parseTelegramHtml } from '../../fakes/bot-api.ts';

const renderer = new ChartRenderer();
const cols = [
  { name: 'period', type: 'date', label: 'Period' },
  { name: 'channel', type: 'string', label: 'Channel' },
  { name: 'revenue', type: 'money', label: 'Revenue' },
  { name: 'orders', type: 'integer', label: 'Orders' },
];
const rows = ['2026-07-01', '2026-08-01', '2026-09-01'].flatMap((p, i) =>
  ['web', 'mobile'].map((c, j) => ({ period: p, channel: c, revenue: 1000 * (i + 1) + j * 500, orders: 10 + i + j })),
);
const input = (over: Partial<ChartInput>): ChartInput => ({
  type: 'line',
  title: 'Revenue',
  x_axis: 'period',
  y_axis: ['revenue'],
  columns: cols,
  rows,
  ...over,
});

describe('charts', () => {
  test('line, bar, stacked_bar, area, pie, scatter and KPI render PNGs', () => {
    for (const type of ['line', 'bar', 'stacked_bar', 'area', 'pie', 'scatter', 'kpi'] as const) {
      const over: Partial<ChartInput> = type === 'pie' ? { x_axis: 'channel' } : type === 'stacked_bar' ? { series: 'channel' } : {};
      const out = renderer.png(
        input({ type, ...over, rows: type === 'kpi' ? [{ value: 1234.5, previous_value: 1000, change_pct: 23.45 }] : rows }),
      );
      assert.ok(out, type);
      assert.ok(out.png.subarray(0, 8).equals(PNG_SIGNATURE), type);
      assert.equal(out.width, 800, type);
      assert.equal(out.height, type === 'kpi' ? 240 : 400, type);
    }
  });

  test('a pie in a narrow cell keeps every label inside the picture: shares on the slices, names in a legend below', () => {
    const countries = [
      'United Kingdom of Great Britain',
      'Federal Republic of Germany',
      'French Republic',
      'Kingdom of Spain',
      'Italian Republic',
    ];
    const pieRows = countries.map((c, i) => ({ period: '2026-07-01', channel: c, revenue: 5000 - i * 700, orders: 1 }));
    for (const width of [300, 380, 800]) {
      const svg = new ChartRenderer({ width, height: 300 }).svg(input({ type: 'pie', x_axis: 'channel', rows: pieRows }))!;
      // Each <text>: where it is anchored and what it says; its extent from the shipped font's metrics.
      for (const m of svg.matchAll(/<text([^>]*)>([^<]*)<\/text>/g)) {
        const attrs = m[1];
        const text = m[2].replace(/&amp;/g, '&');
        const transform = /transform="translate\(([-\d.]+)/.exec(attrs);
        const x = Number(/ x="([-\d.]+)"/.exec(attrs)?.[1] ?? 0) + Number(transform?.[1] ?? 0);
        const size = Number(/font-size:([\d.]+)px|font-size="([\d.]+)"/.exec(attrs)?.slice(1).find(Boolean) ?? 12);
        const w = measureText(text, `${size}px sans-serif`).width;
        const anchor = /text-anchor:(\w+)|text-anchor="(\w+)"/.exec(attrs)?.slice(1).find(Boolean) ?? 'start';
        const left = anchor === 'end' ? x - w : anchor === 'middle' ? x - w / 2 : x;
        assert.ok(left >= -1 && left + w <= width + 1, `${width}px: "${text}" spans ${left.toFixed(0)}..${(left + w).toFixed(0)}`);
      }
    }
  });

  test('a table, or no rows, has no picture', () => {
    assert.equal(renderer.png(input({ type: 'table' })), undefined);
    assert.equal(renderer.png(input({ rows: [] })), undefined);
    assert.equal(
      renderer.png(input({ y_axis: ['nope'], columns: [{ name: 'period', type: 'date', label: 'P' }], rows: [{ period: '2026-01-01' }] })),
      undefined,
    );
  });

  test('text is drawn with the shipped fonts: a different title changes the pixels, and so does a character only the fallback has', () => {
    const a = renderer.png(input({ title: 'Revenue' }))!.png;
    const b = renderer.png(input({ title: 'Orders and more' }))!.png;
    const none = renderer.png(input({ title: '' }))!.png;
    assert.ok(!a.equals(b));
    assert.ok(!a.equals(none));
    assert.equal(needsFallback('Revenue € Ünïcode Кириллица'), false);
    assert.equal(needsFallback('売上 ✓'), true);
    const cjk = renderer.png(input({ title: '売上' }))!.png;
    assert.ok(!cjk.equals(none), 'fallback glyphs are drawn');
    // Widths come from the font files, not a guess: "W" is wider than "i", bold wider than regular.
    assert.ok(measureText('WWW', '12px sans-serif').width > measureText('iii', '12px sans-serif').width * 2);
    assert.ok(measureText('Revenue', 'bold 16px sans-serif').width > measureText('Revenue', '16px sans-serif').width);
  });

  test('the SVG is ECharts server-side output with our font family', () => {
    const svg = renderer.svg(input({ type: 'bar' }))!;
    assert.match(svg, /^<svg[^>]+width="800" height="400"/);
    assert.match(svg, /font-family:Roboto/);
  });

  test('period labels are short', () => {
    assert.deepEqual(periodLabels(['2026-07-01', '2026-08-01']), ['Jul 2026', 'Aug 2026']);
    assert.deepEqual(periodLabels(['2026-10-05', '2026-10-12']), ['Oct 5', 'Oct 12']);
    assert.deepEqual(periodLabels(['2025-12-29', '2026-01-05']), ['2025-12-29', '2026-01-05']);
    assert.deepEqual(periodLabels(['web', 'mobile']), ['web', 'mobile']);
  });

  test('KPI from the insight engine row: value, previous, change in %', () => {
    const k = kpiOf(
      [{ name: 'value', type: 'money', label: 'Revenue' }],
      [{ period_from: '2026-10-01', value: 120, previous_value: 100, change: 20, change_pct: 20 }],
      ['value'],
      'Revenue',
    );
    assert.deepEqual(k, { label: 'Revenue', format: { type: 'money' }, value: 120, previous: 100, change_pct: 20 });
    const noPrev = kpiOf([], [{ value: 5, previous_value: 0, change_pct: null }], ['value'], 'X');
    assert.equal(noPrev?.change_pct, null);
  });
});

describe('report composition', () => {
  const result: ResultLike = {
    insight_code: 'revenue',
    insight_name: 'Revenue',
    granularity: 'month',
    filters: {},
    period: { from: '2026-07-01', to: '2026-09-30' },
    columns: cols,
    rows,
    chart_hint: { type: 'line', x_axis: 'period', y_axis: ['revenue'] },
  };

  test('a widget override wins, then a table or KPI widget, then the result hint', () => {
    assert.equal(widgetChartType({ id: 'w', title: 't', widget_type: 'chart', chart_hint_override: { chart_type: 'pie' } }, result), 'pie');
    assert.equal(widgetChartType({ id: 'w', title: 't', widget_type: 'table' }, result), 'table');
    assert.equal(widgetChartType({ id: 'w', title: 't', widget_type: 'chart' }, result), 'line');
  });

  test('a widget that failed still has its section, with the reason', () => {
    const r = composeDashboardReport({
      subscription: { id: 's', schedule: 'daily', dashboard_id: 'd' },
      dashboard: { id: 'd', name: 'D' },
      widgets: [{ widget: { id: 'w', title: 'Broken', widget_type: 'chart' }, error: 'warehouse unavailable' }],
    });
    assert.equal(r.sections[0].title, 'Broken');
    assert.match(r.sections[0].subtitle ?? '', /warehouse unavailable/);
    assert.equal((r.payload.widgets as any[])[0].error, 'warehouse unavailable');
  });

  test('messenger text: a huge table is cut to fit one message', () => {
    const big = composeDashboardReport({
      subscription: { id: 's', schedule: 'daily', dashboard_id: 'd' },
      dashboard: { id: 'd', name: 'D' },
      widgets: [
        {
          widget: { id: 'w', title: 'Wide', widget_type: 'table' },
          result: {
            ...result,
            columns: cols,
            rows: Array.from({ length: 500 }, (_, i) => ({ period: 'x'.repeat(40), channel: `c${i}`.repeat(10), revenue: i, orders: i })),
          },
        },
      ],
    });
    const messages = messagesOf(big);
    assert.ok(messages.every((m) => m.length <= MESSAGE_LIMIT));
    assert.match(messages.join(''), /more rows/);
    // Escaping grows "&" five-fold: a summary of them still fits and still parses.
    const amp = messagesOf({ ...big, title: '<&>'.repeat(200), summary: '&'.repeat(3000), sections: [] });
    assert.equal(amp.length, 1);
    assert.ok(amp[0].length <= MESSAGE_LIMIT);
    assert.ok('text' in parseTelegramHtml(amp[0]));
  });
});
