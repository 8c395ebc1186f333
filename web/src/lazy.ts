// ECharts is most of the app's JavaScript: it is a chunk of its own, asked for as soon as the app
// starts (so it loads while the first API answers are awaited) and never blocks the first page.
let charts: Promise<typeof import('./charts.ts')> | undefined;

export function loadCharts(): Promise<typeof import('./charts.ts')> {
  charts ??= import('./charts.ts');
  return charts;
}
