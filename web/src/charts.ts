// Charts in the browser are built by the same option builder as the report images
// (src/lib/charts/options.ts), so a widget looks on screen as it does in the e-mail. ECharts is
// imported piece by piece to keep the bundle small, and draws SVG as the report renderer does.
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart, ScatterChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
import { axisFormat, axisLabeler, chartOption, measuresOf, shareText, type ChartInput } from '../../src/lib/charts/options.ts';
import { formatValue } from '../../src/lib/charts/number-format.ts';
import { compactIn, periodLabelsIn } from './locale.ts';
import type { ChartHint, ChartType, Column, DataRow } from './types.ts';

export { columnsOf, resolvedType } from './columns.ts';

echarts.use([BarChart, LineChart, PieChart, ScatterChart, GridComponent, LegendComponent, TitleComponent, TooltipComponent, SVGRenderer]);

export { echarts };

// The report's ink on white, and what it becomes on the dark page (web/src/styles.css): the option
// builder is shared with the report images, so the screen recolours its result instead.
const DARK: Record<string, string> = {
  '#ffffff': '#111a2e',
  '#0f172a': '#e2e8f0',
  '#334155': '#cbd5e1',
  '#64748b': '#a3b1c6',
  '#cbd5e1': '#3b4a66',
  '#e2e8f0': '#24324d',
};

function darkened<T>(v: T): T {
  if (typeof v === 'string') return (DARK[v] ?? v) as T;
  if (Array.isArray(v)) return v.map(darkened) as T;
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, darkened(x)])) as T;
  return v;
}

/**
 * The ECharts option of a result, or undefined when it is not a chart. On screen the title is the
 * widget's heading, so the chart's own title is hidden and the plot moves up; a tooltip is added
 * because a screen, unlike an image, can show one. Everything else is the report's option.
 */
export function screenOption(
  hint: ChartHint,
  type: ChartType,
  columns: Column[],
  rows: DataRow[],
  width: number,
  /** Numbers and dates in this locale (a chat answer's language); the report's en-US otherwise. */
  locale?: string,
): Record<string, unknown> | undefined {
  const input: ChartInput = { type, title: '', x_axis: hint.x_axis, y_axis: hint.y_axis, series: hint.series, columns, rows };
  const option = chartOption(input, width);
  if (!option) return undefined;
  const grid = option.grid as Record<string, unknown> | undefined;
  // Tooltips read in the first measure's unit (€1,234, 4.9%), as tables and KPIs do.
  const measure = columns.find((c) => c.name === measuresOf(input)[0]);
  const valueFormatter = (v: unknown) => (typeof v === 'number' ? formatValue(v, measure, locale) : String(v ?? '—'));
  const tooltip = type === 'pie' ? { trigger: 'item', valueFormatter } : { trigger: 'axis', valueFormatter };
  const dark =
    document.documentElement.getAttribute('data-theme') === 'dark' ||
    (!document.documentElement.getAttribute('data-theme') && matchMedia('(prefers-color-scheme: dark)').matches);
  const base = dark ? darkened(option) : option;
  return {
    ...base,
    ...(locale ? localized(base, input, locale) : {}),
    title: { show: false },
    tooltip,
    ...(grid ? { grid: { ...grid, top: 16 } } : {}),
    ...(type === 'pie' ? narrowPie(base, width, locale) : {}),
  };
}

/** The axes in a locale: period labels in its month names, values with its separators. */
function localized(option: Record<string, unknown>, input: ChartInput, locale: string): Record<string, unknown> {
  const xAxis = option.xAxis as Record<string, unknown> | undefined;
  const yAxis = option.yAxis as Record<string, unknown> | undefined;
  if (!xAxis || !yAxis || Array.isArray(xAxis) || Array.isArray(yAxis)) return {};
  const x = input.x_axis;
  const raw = [...new Set(input.rows.map((r) => (r[x] === null || r[x] === undefined || r[x] === '' ? '(none)' : String(r[x]))))];
  const labels = xAxis.type === 'category' ? periodLabelsIn(raw, locale) : undefined;
  // The unit where the locale puts it: "100.000 €" style ("100.000 €" → "100 Tsd. €"), "12,5 %".
  const formatter = axisLabeler(axisFormat(input), locale, (v) => compactIn(v, locale));
  return {
    xAxis: labels ? { ...xAxis, data: labels } : xAxis,
    yAxis: { ...yAxis, axisLabel: { ...(yAxis.axisLabel as object), formatter } },
  };
}

/**
 * On screen the title is the widget's heading: the pie takes the whole box, its shares in the
 * reader's locale ("49,32 %"). A phone is too narrow for a legend beside the pie: it goes under it.
 */
function narrowPie(option: Record<string, unknown>, width: number, locale?: string): Record<string, unknown> {
  const series = (option.series as Record<string, unknown>[]).map((s) => ({
    ...s,
    top: 0,
    label: { ...(s.label as object), formatter: (p: { percent: number }) => shareText(p.percent, locale) },
  }));
  if (width >= 520) return { series: series.map((s) => ({ ...s, center: ['40%', '50%'] })) };
  return {
    legend: { ...(option.legend as object), orient: 'horizontal', left: 'center', right: undefined, top: undefined, bottom: 0 },
    series: series.map((s) => ({ ...s, center: ['50%', '44%'], radius: ['30%', '56%'] })),
  };
}
