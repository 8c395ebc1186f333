// Rows + a chart hint → an ECharts option. Static images have no tooltips or zoom, so what a
// reader needs must be on the picture: a title, readable axis labels in compact numbers, a legend
// when there is more than one series, percentages on pie slices.
// Pure (no Node modules): the web app draws its charts with this same builder (web/src/charts.ts).
import type { ReportColumn, ReportSection } from '../report.ts';
import type { ChartType, DataRow } from '../chart.schemas.ts';
import { FONT_STACK } from './font-stack.ts';
import { formatValue, unitAffixes, type ValueFormat } from './number-format.ts';

export const PALETTE = ['#4f6bed', '#f59e0b', '#10b981', '#ef4444', '#8b5cf6', '#06b6d4', '#ec4899', '#84cc16', '#f97316', '#64748b'];

/** What a chart is drawn from: a section with its resolved chart type. */
export interface ChartInput {
  type: ChartType;
  title: string;
  subtitle?: string;
  x_axis: string;
  y_axis?: string[];
  series?: string;
  columns: ReportColumn[];
  rows: DataRow[];
}

export function chartInputOf(section: ReportSection): ChartInput | undefined {
  const hint = section.chart_hint;
  if (!hint) return undefined;
  return {
    type: hint.type,
    title: hint.title || section.title,
    subtitle: section.subtitle,
    x_axis: hint.x_axis,
    y_axis: hint.y_axis,
    series: hint.series,
    columns: section.columns,
    rows: section.rows,
  };
}

export function toNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/** 1234567 → "1.23M", 0.5 → "0.5"; keeps axis labels short. */
export function compactNumber(n: number): string {
  const abs = Math.abs(n);
  const fmt = (v: number, suffix: string) => `${Number(v.toPrecision(3))}${suffix}`;
  if (abs >= 1e12) return fmt(n / 1e12, 'T');
  if (abs >= 1e9) return fmt(n / 1e9, 'B');
  if (abs >= 1e6) return fmt(n / 1e6, 'M');
  if (abs >= 1e3) return fmt(n / 1e3, 'k');
  return String(Number(n.toFixed(2)));
}

/**
 * The format the value axis reads in: the measures' own when they share it (all money in one
 * currency, all percent), else none (a plain compact figure).
 */
export function axisFormat(input: ChartInput): ValueFormat | undefined {
  const measures = input.series ? measuresOf(input).slice(0, 1) : measuresOf(input);
  const cols = measures.map((m) => input.columns.find((c) => c.name === m));
  const first = cols[0];
  if (!first || cols.some((c) => c?.type !== first.type || c?.currency !== first.currency)) return undefined;
  return first.type === 'percent' || (first.type === 'money' && first.currency)
    ? { type: first.type, currency: first.currency }
    : undefined;
}

/** A value axis label with its unit: "€100k", "12.5%"; `compact` writes the figure (a locale's on screen). */
export function axisLabeler(format: ValueFormat | undefined, locale?: string, compact: (n: number) => string = compactNumber) {
  const { prefix, suffix } = unitAffixes(format, locale);
  return (v: number) => (v < 0 ? `−${prefix}${compact(-v)}${suffix}` : `${prefix}${compact(v)}${suffix}`);
}

/** A slice's share as the locale writes a percent: "49.32%", "49,32 %" (de). */
export const shareText = (pct: number, locale?: string) => formatValue(pct, { type: 'percent', decimals: 2 }, locale);

const labelOf = (columns: ReportColumn[], name: string) => columns.find((c) => c.name === name)?.label || name;
const typeOf = (columns: ReportColumn[], name: string) => columns.find((c) => c.name === name)?.type;

/** The measures to draw: the hint's y_axis, else every numeric column but the x axis and series. */
export function measuresOf(input: ChartInput): string[] {
  const declared = (input.y_axis ?? []).filter((y) => input.columns.some((c) => c.name === y) || input.rows.some((r) => y in r));
  if (declared.length) return declared;
  const skip = new Set([input.x_axis, input.series]);
  const numeric = input.columns
    .filter((c) => !skip.has(c.name) && input.rows.some((r) => typeof r[c.name] === 'number'))
    .map((c) => c.name);
  return numeric;
}

function categoryLabel(v: unknown): string {
  if (v === null || v === undefined || v === '') return '(none)';
  return String(v);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * Period starts as short axis labels: "Oct 1" within one year, "Oct 2026" for month starts,
 * unchanged otherwise (mixed or non-date categories).
 */
export function periodLabels(categories: string[]): string[] {
  const dates = categories.map((c) => /^(\d{4})-(\d{2})-(\d{2})$/.exec(c));
  if (!dates.length || dates.some((d) => !d)) return categories;
  const years = new Set(dates.map((d) => d![1]));
  if (dates.every((d) => d![3] === '01')) return dates.map((d) => `${MONTHS[Number(d![2]) - 1]} ${d![1]}`);
  if (years.size === 1) return dates.map((d) => `${MONTHS[Number(d![2]) - 1]} ${Number(d![3])}`);
  return categories;
}

interface Series {
  name: string;
  data: (number | null)[];
  percent: boolean;
}

/** One series per measure, or, with a `series` column, one per distinct value of it (first measure). */
function seriesOf(input: ChartInput): { categories: string[]; series: Series[] } {
  const categories: string[] = [];
  const index = new Map<string, number>();
  for (const row of input.rows) {
    const c = categoryLabel(row[input.x_axis]);
    if (!index.has(c)) {
      index.set(c, categories.length);
      categories.push(c);
    }
  }
  const measures = measuresOf(input);
  if (input.series && input.series !== input.x_axis && measures.length) {
    const measure = measures[0];
    const bySeries = new Map<string, (number | null)[]>();
    for (const row of input.rows) {
      const name = categoryLabel(row[input.series]);
      let data = bySeries.get(name);
      if (!data) bySeries.set(name, (data = categories.map(() => null)));
      data[index.get(categoryLabel(row[input.x_axis]))!] = toNumber(row[measure]);
    }
    const percent = typeOf(input.columns, measure) === 'percent';
    return { categories, series: [...bySeries].map(([name, data]) => ({ name, data, percent })) };
  }
  return {
    categories,
    series: measures.map((m) => {
      const data: (number | null)[] = categories.map(() => null);
      for (const row of input.rows) data[index.get(categoryLabel(row[input.x_axis]))!] = toNumber(row[m]);
      return { name: labelOf(input.columns, m), data, percent: typeOf(input.columns, m) === 'percent' };
    }),
  };
}

const textStyle = { fontFamily: FONT_STACK, color: '#334155' };

/** What every chart shares: no animation (images are drawn once), the page, palette, type and title. */
function frame(input: ChartInput) {
  return {
    animation: false,
    backgroundColor: '#ffffff',
    color: PALETTE,
    textStyle,
    title: {
      text: input.title,
      subtext: input.subtitle ?? '',
      left: 16,
      top: 10,
      textStyle: { ...textStyle, fontSize: 16, fontWeight: 'bold' as const, color: '#0f172a' },
      subtextStyle: { ...textStyle, fontSize: 12, color: '#64748b' },
    },
  };
}

function cartesian(input: ChartInput, width: number, height?: number) {
  const { categories: raw, series } = seriesOf(input);
  const categories = periodLabels(raw);
  const legend = series.length > 1;
  // Label every category when they fit, else let ECharts thin them out and tilt long ones.
  const longest = categories.reduce((n, c) => Math.max(n, c.length), 0);
  const crowded = categories.length * Math.max(longest, 4) * 7 > width - 120;
  const kind = input.type;
  // A scatter over numeric x values gets a value axis and [x, y] points; otherwise categories.
  const numericX = kind === 'scatter' && categories.every((c) => toNumber(c) !== null);
  return {
    ...frame(input),
    legend: legend ? { show: true, bottom: 8, textStyle, type: 'plain' as const } : { show: false },
    grid: { left: 16, right: 24, top: input.subtitle ? 78 : 60, bottom: legend ? 44 : 20, outerBoundsMode: 'same' as const },
    xAxis: {
      type: numericX ? ('value' as const) : ('category' as const),
      data: categories,
      boundaryGap: kind === 'bar' || kind === 'stacked_bar',
      axisLabel: { ...textStyle, fontSize: 11, rotate: crowded && longest > 8 ? 35 : 0, hideOverlap: true },
      axisLine: { lineStyle: { color: '#cbd5e1' } },
      axisTick: { show: false },
    },
    yAxis: {
      type: 'value' as const,
      // A low chart (a PDF cell) gets fewer, airier ticks.
      ...(height !== undefined && height < 320 ? { splitNumber: 3 } : {}),
      axisLabel: { ...textStyle, fontSize: 11, formatter: axisLabeler(axisFormat(input)) },
      splitLine: { lineStyle: { color: '#e2e8f0' } },
    },
    series: series.map((s) => {
      const base = { name: s.name, data: numericX ? s.data.map((v, i) => [Number(categories[i]), v]) : s.data };
      switch (kind) {
        case 'bar':
          return { ...base, type: 'bar' as const, barMaxWidth: 48 };
        case 'stacked_bar':
          return { ...base, type: 'bar' as const, stack: 'total', barMaxWidth: 48 };
        case 'area':
          return {
            ...base,
            type: 'line' as const,
            areaStyle: { opacity: 0.25 },
            stack: series.length > 1 ? 'total' : undefined,
            showSymbol: false,
            lineStyle: { width: 2 },
          };
        case 'scatter':
          return { ...base, type: 'scatter' as const, symbolSize: 8 };
        default:
          return {
            ...base,
            type: 'line' as const,
            showSymbol: categories.length <= 31,
            symbolSize: 5,
            lineStyle: { width: 2.5 },
            connectNulls: false,
          };
      }
    }),
  };
}

const PIE_SLICES = 8;

/**
 * Below this width a pie's names do not fit beside it: the slices carry only their share, the
 * legend (names) goes underneath, and the pie is centred (a 1-column cell of the dashboard PDF).
 */
const NARROW_PIE_W = 480;

function pie(input: ChartInput, width: number) {
  const narrow = width < NARROW_PIE_W;
  const measure = measuresOf(input)[0];
  const slices = input.rows
    .map((r) => ({ name: categoryLabel(r[input.x_axis]), value: measure ? (toNumber(r[measure]) ?? 0) : 0 }))
    .filter((s) => s.value > 0)
    .sort((a, b) => b.value - a.value);
  // Beyond a handful of slices a pie is unreadable: the tail becomes "Other".
  const shown =
    slices.length > PIE_SLICES
      ? [...slices.slice(0, PIE_SLICES - 1), { name: 'Other', value: slices.slice(PIE_SLICES - 1).reduce((s, x) => s + x.value, 0) }]
      : slices;
  return {
    ...frame(input),
    legend: narrow
      ? // Two names a line, each cut to fit (the full name is in the data and the table).
        {
          show: true,
          orient: 'horizontal' as const,
          left: 'center' as const,
          bottom: 4,
          itemGap: 8,
          textStyle: { ...textStyle, width: Math.floor(width / 2) - 48, overflow: 'truncate' as const },
        }
      : { show: true, orient: 'vertical' as const, right: 16, top: 'middle' as const, textStyle },
    series: [
      {
        type: 'pie' as const,
        name: measure ? labelOf(input.columns, measure) : '',
        // The pie is laid out below the title, so neither its slices nor their labels run into it.
        top: input.subtitle ? 78 : 52,
        radius: narrow ? ['30%', '56%'] : ['36%', '64%'],
        center: narrow ? ['50%', '40%'] : ['40%', '50%'],
        data: shown,
        // The names are in the legend: a slice carries its share, which is never cut off.
        label: { ...textStyle, fontSize: 12, formatter: (p: { percent: number }) => shareText(p.percent) },
        itemStyle: { borderColor: '#ffffff', borderWidth: 2 },
      },
    ],
  };
}

/** The ECharts option for an input, or undefined when it has nothing a chart can show. */
export function chartOption(input: ChartInput, width: number, height?: number): Record<string, unknown> | undefined {
  if (!input.rows.length) return undefined;
  if (input.type === 'pie') return pie(input, width);
  if (['line', 'bar', 'stacked_bar', 'area', 'scatter'].includes(input.type)) {
    return measuresOf(input).length ? cartesian(input, width, height) : undefined;
  }
  return undefined;
}
