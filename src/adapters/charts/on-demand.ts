// The chart stack (ECharts, resvg and its fonts) costs ~40 MB of resident memory once loaded, and
// most processes never draw a chart: it is loaded on the first report that has one
// (docs/footprint.md). ChartRenderer itself stays synchronous for callers that hold one.
import type { ReportSection } from '../../lib/report.ts';
import type { ChartRenderer, RenderedChart } from './renderer.ts';

/** What report transports need from charts: the PNG of a section, if it has a chart. */
export interface ReportCharts {
  forSection(section: ReportSection): RenderedChart | undefined | Promise<RenderedChart | undefined>;
}

export function chartsOnFirstUse(): ReportCharts {
  let renderer: Promise<ChartRenderer> | undefined;
  return {
    async forSection(section) {
      renderer ??= import('./renderer.ts').then((m) => new m.ChartRenderer());
      return (await renderer).forSection(section);
    },
  };
}
