// What the dashboard PDF says and how it lays out (issue 40): a KPI names the comparison that was
// chosen and its line fits the card; value axes read with their unit and have room; a pie keeps clear
// of its title; a table keeps every column.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { measureText } from '../../../src/adapters/charts/font.ts';
import { kpiSvg } from '../../../src/adapters/charts/kpi.ts';
import { tableLayout } from '../../../src/adapters/charts/pdf.ts';
import { chartOption, type ChartInput } from '../../../src/lib/charts/options.ts';
import { composeDashboardReport, type ResultLike } from '../../../src/modules/reports/compose.ts';

const money = { name: 'revenue', type: 'money', label: 'Revenue', currency: 'EUR', decimals: 0 };

function kpiResult(compare?: string): ResultLike {
  return {
    insight_code: 'revenue_kpi',
    insight_name: 'Revenue KPI',
    granularity: null,
    filters: {},
    period: { from: '2026-10-01', to: '2026-10-31' },
    ...(compare ? { compare, previous_period: { from: '2025-10-01', to: '2025-10-31' } } : {}),
    columns: [
      { name: 'value', type: 'money', label: 'Revenue', currency: 'EUR', decimals: 0 },
      { name: 'previous_value', type: 'money', label: 'Previous', currency: 'EUR', decimals: 0 },
    ],
    rows: [{ value: 1_234_567, previous_value: 1_111_111 }],
    chart_hint: { type: 'kpi', x_axis: 'value', y_axis: ['value'] },
  };
}

const dashboardOf = (compare?: string) =>
  composeDashboardReport({
    subscription: { id: 's', schedule: 'daily', dashboard_id: 'd' },
    dashboard: { id: 'd', name: 'Sales' },
    widgets: [{ widget: { id: 'w', title: 'Revenue this month', widget_type: 'kpi', display_size: 'small' }, result: kpiResult(compare) }],
  });

test('a KPI says what it is compared with, and the whole line fits its card', () => {
  const lastYear = dashboardOf('previous_year');
  assert.match(lastYear.summary, /against the same period last year/);
  const kpi = lastYear.sections[0].kpi!;
  // A small cell of the PDF is drawn at 380 px wide (pdf.ts virtualSize).
  const svg = kpiSvg(kpi, 380, 130, lastYear.sections[0].subtitle);
  assert.match(svg, /the same period last year/);
  assert.doesNotMatch(svg, /previous period/);
  const line = /<text x="(\d+)" y="\d+" font-family="[^"]+" font-size="(\d+)"[^>]*>([^<]+)<tspan dx="10"[^>]*>([^<]+)<\/tspan>/.exec(svg)!;
  const [x, size] = [Number(line[1]), Number(line[2])];
  const used = x + measureText(line[3], `bold ${size}px sans-serif`).width + 10 + measureText(line[4], `${size}px sans-serif`).width;
  assert.ok(used <= 380 - 16, `the comparison runs to ${used} px of 380`);
  assert.match(dashboardOf('previous_period').summary, /against the previous period/);
});

test('a value axis carries its unit and has room; a pie stays below its title', () => {
  const rows = Array.from({ length: 12 }, (_, i) => ({ month: `2026-${String(i + 1).padStart(2, '0')}-01`, revenue: 40_000 + i * 9_000 }));
  const input: ChartInput = { type: 'bar', title: 'Revenue', subtitle: '2026', x_axis: 'month', columns: [money], rows };
  const option = chartOption(input, 380, 196) as { yAxis: { splitNumber?: number; axisLabel: { formatter: (v: number) => string } } };
  assert.equal(option.yAxis.axisLabel.formatter(100_000), '€100k');
  assert.ok((option.yAxis.splitNumber ?? 5) <= 3, 'a low chart gets fewer ticks');
  const pie = chartOption({ ...input, type: 'pie' }, 380, 196) as {
    series: { top: number; label: { formatter: (p: object) => string } }[];
  };
  assert.ok(pie.series[0].top >= 78, 'the pie is laid out under the title and subtitle');
  assert.equal(pie.series[0].label.formatter({ percent: 49.32, name: 'marketplace' }), '49.32%');
});

test('a table keeps every column, over the whole width when it needs it', () => {
  const columns = ['product_id', 'product', 'category', 'brand', 'revenue', 'units', 'margin', 'returns'].map((name) => ({
    name,
    type: 'string',
    label: name,
  }));
  const section = { title: 'Products', columns, rows: [{ product_id: 1 }] };
  const { columns: shown, width } = tableLayout(section, 1);
  assert.deepEqual(
    shown.map((c) => c.name),
    columns.map((c) => c.name),
  );
  assert.ok(width > 700, `${width} pt`);
});
