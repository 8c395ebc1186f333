// npm run bench -- charts [warm-runs]: PNG render time of report charts, per chart type.
// cold = the first render of the process (module load excluded, font metrics and the ECharts
// instance created on the way); warm = median and p95 of the next renders. Target: warm < 30 ms.
import type { ChartInput } from '../src/lib/charts/options.ts';

const days = Array.from({ length: 30 }, (_, i) => `2026-10-${String(i + 1).padStart(2, '0')}`);
const money = (name: string, label: string) => ({ name, type: 'money', label });

const INPUTS: ChartInput[] = [
  {
    type: 'line',
    title: 'Revenue per day',
    subtitle: '2026-10-01 – 2026-10-30 · by day',
    x_axis: 'period',
    y_axis: ['revenue'],
    columns: [{ name: 'period', type: 'date', label: 'Period' }, money('revenue', 'Revenue')],
    rows: days.map((d, i) => ({ period: d, revenue: 12000 + 4000 * Math.sin(i / 4) + i * 150 })),
  },
  {
    type: 'bar',
    title: 'Revenue by country',
    x_axis: 'country',
    y_axis: ['revenue'],
    columns: [{ name: 'country', type: 'string', label: 'Country' }, money('revenue', 'Revenue')],
    rows: ['US', 'DE', 'FR', 'GB', 'ES', 'IT', 'NL', 'PL'].map((c, i) => ({ country: c, revenue: 90000 - i * 9000 })),
  },
  {
    type: 'stacked_bar',
    title: 'Revenue by channel per month',
    x_axis: 'period',
    y_axis: ['revenue'],
    series: 'channel',
    columns: [
      { name: 'period', type: 'date', label: 'Period' },
      { name: 'channel', type: 'string', label: 'Channel' },
      money('revenue', 'Revenue'),
    ],
    rows: ['2026-07-01', '2026-08-01', '2026-09-01', '2026-10-01'].flatMap((p, i) =>
      ['web', 'mobile', 'marketplace', 'retail'].map((c, j) => ({ period: p, channel: c, revenue: 10000 + i * 1000 + j * 3000 })),
    ),
  },
  {
    type: 'area',
    title: 'Orders per day',
    x_axis: 'period',
    y_axis: ['orders'],
    columns: [
      { name: 'period', type: 'date', label: 'Period' },
      { name: 'orders', type: 'integer', label: 'Orders' },
    ],
    rows: days.map((d, i) => ({ period: d, orders: 300 + (i % 7) * 20 })),
  },
  {
    type: 'pie',
    title: 'Revenue by channel',
    x_axis: 'channel',
    y_axis: ['revenue'],
    columns: [{ name: 'channel', type: 'string', label: 'Channel' }, money('revenue', 'Revenue')],
    rows: [
      { channel: 'web', revenue: 52000 },
      { channel: 'mobile', revenue: 31000 },
      { channel: 'marketplace', revenue: 12000 },
      { channel: 'retail', revenue: 6000 },
    ],
  },
  {
    type: 'kpi',
    title: 'Revenue',
    subtitle: 'October 2026',
    x_axis: 'period_from',
    y_axis: ['value'],
    columns: [money('value', 'Revenue')],
    rows: [{ period_from: '2026-10-01', value: 412345.67, previous_value: 380000, change_pct: 8.51 }],
  },
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export async function run(args: string[]): Promise<void> {
  const runs = Number(args[0] ?? 40);
  const loadStart = performance.now();
  const { ChartRenderer } = await import('../src/adapters/charts/renderer.ts');
  const loadMs = performance.now() - loadStart;
  const renderer = new ChartRenderer();
  const rows: string[][] = [];
  let allWarm: number[] = [];
  for (const input of INPUTS) {
    const t0 = performance.now();
    const first = renderer.png(input);
    const cold = performance.now() - t0;
    if (!first) throw new Error(`${input.type}: nothing rendered`);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      renderer.png(input);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    allWarm = allWarm.concat(times);
    rows.push([
      input.type,
      cold.toFixed(1),
      percentile(times, 50).toFixed(1),
      percentile(times, 95).toFixed(1),
      `${first.width}x${first.height}`,
      `${(first.png.length / 1024).toFixed(0)} KiB`,
    ]);
  }
  allWarm.sort((a, b) => a - b);
  const median = percentile(allWarm, 50);
  const header = ['chart', 'cold ms', 'warm p50 ms', 'warm p95 ms', 'size', 'png'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join('  ');
  console.log(`Chart PNG rendering (ECharts SSR SVG → resvg), ${runs} warm runs each; module load ${loadMs.toFixed(0)} ms`);
  console.log(line(header));
  for (const r of rows) console.log(line(r));
  console.log(`warm median over all types: ${median.toFixed(1)} ms (target < 30 ms: ${median < 30 ? 'met' : 'NOT met'})`);
}
