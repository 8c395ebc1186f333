// Server-side charts for reports, with no browser: ECharts renders SVG in SSR mode, resvg turns
// it into PNG with the font the project ships (system fonts are never loaded, so every machine
// draws the same picture).
import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart, ScatterChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TitleComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
import type { ReportSection } from '../../lib/report.ts';
import { FALLBACK_FONT_FILES, FONT_FAMILY, FONT_FILES, measureText, needsFallback } from './font.ts';
import { kpiOf, kpiSvg } from './kpi.ts';
import { chartInputOf, chartOption, type ChartInput } from '../../lib/charts/options.ts';
import { isCohortResult } from '../../lib/charts/retention.ts';

echarts.use([BarChart, LineChart, PieChart, ScatterChart, GridComponent, LegendComponent, TitleComponent, SVGRenderer]);
echarts.setPlatformAPI({ measureText: measureText as never });

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface ChartSize {
  width: number;
  height: number;
}

export interface RenderedChart {
  png: Buffer;
  width: number;
  height: number;
}

function resvgOptions(svg: string, scale: number): ResvgRenderOptions {
  const files = [FONT_FILES.regular, FONT_FILES.bold];
  if (needsFallback(svg)) files.push(FALLBACK_FONT_FILES.regular, FALLBACK_FONT_FILES.bold);
  return {
    font: { loadSystemFonts: false, fontFiles: files, defaultFontFamily: FONT_FAMILY, sansSerifFamily: FONT_FAMILY },
    fitTo: scale === 1 ? { mode: 'original' } : { mode: 'zoom', value: scale },
    background: '#ffffff',
    logLevel: 'off',
  };
}

export class ChartRenderer {
  // A section is rendered once per report even when it goes to several channels.
  private readonly cache = new WeakMap<ReportSection, RenderedChart | null>();
  private chart: echarts.ECharts | undefined;

  /**
   * size is the layout size in CSS pixels; scale multiplies the PNG's pixels (2 = crisper on
   * high-density screens, ~3x the render time).
   */
  constructor(
    private readonly size: ChartSize = { width: 800, height: 400 },
    private readonly scale = 1,
  ) {}

  private rasterize(svg: string): RenderedChart {
    const image = new Resvg(svg, resvgOptions(svg, this.scale)).render();
    return { png: image.asPng(), width: image.width, height: image.height };
  }

  /** The SVG for a chart input, or undefined when there is nothing to draw (a table, no rows). */
  svg(input: ChartInput): string | undefined {
    if (input.type === 'kpi') {
      const kpi = kpiOf(input.columns, input.rows, input.y_axis, input.title);
      return kpi ? kpiSvg(kpi, this.size.width, Math.round(this.size.height * 0.6), input.subtitle) : undefined;
    }
    const option = chartOption(input, this.size.width, this.size.height);
    if (!option) return undefined;
    // One ECharts instance is reused (rendering is synchronous, so calls never interleave):
    // replacing the option is about twice as fast as init + dispose per chart.
    this.chart ??= echarts.init(null, null, { renderer: 'svg', ssr: true, width: this.size.width, height: this.size.height });
    try {
      this.chart.setOption(option, { notMerge: true });
      return this.chart.renderToSVGString();
    } catch (err) {
      this.chart.dispose();
      this.chart = undefined;
      throw err;
    } finally {
      // Every refresh restarts zrender's animation loop, which runs on timers and would keep the
      // process alive; SSR rendering is synchronous and needs no loop.
      (this.chart?.getZr() as unknown as { animation: { stop(): void } } | undefined)?.animation.stop();
    }
  }

  png(input: ChartInput): RenderedChart | undefined {
    const svg = this.svg(input);
    return svg ? this.rasterize(svg) : undefined;
  }

  /** The PNG of a report section (KPI sections use the section's own kpi when composed with one). */
  forSection(section: ReportSection): RenderedChart | undefined {
    const cached = this.cache.get(section);
    if (cached !== undefined) return cached ?? undefined;
    let rendered: RenderedChart | undefined;
    // A cohort's rows are drawn as a triangle (charts/retention.ts) by each rendering, never as a chart.
    if (isCohortResult(section.columns)) rendered = undefined;
    else if (section.chart_hint?.type === 'kpi' && section.kpi) {
      rendered = this.rasterize(kpiSvg(section.kpi, this.size.width, Math.round(this.size.height * 0.6), section.subtitle));
    } else {
      const input = chartInputOf(section);
      rendered = input ? this.png(input) : undefined;
    }
    this.cache.set(section, rendered ?? null);
    return rendered;
  }
}
