// One ECharts chart, sized by its container and redrawn when the container resizes.
import { useEffect, useRef } from 'preact/hooks';
import { echarts, screenOption } from '../charts.ts';
import { fontsLoaded, fontsReady } from '../fonts.ts';
import type { ChartHint, ChartType, Column, DataRow } from '../types.ts';

interface Props {
  hint: ChartHint;
  type: ChartType;
  columns: Column[];
  rows: DataRow[];
  /** Spoken name of the picture, e.g. the widget title. */
  label: string;
  height?: number;
}

export function Chart({ hint, type, columns, rows, label, height = 280 }: Props) {
  const el = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = el.current!;
    const chart = echarts.init(node, null, { renderer: 'svg' });
    const draw = () => {
      const option = screenOption(hint, type, columns, rows, node.clientWidth || 600);
      if (option) chart.setOption(option, { notMerge: true });
      else chart.clear();
    };
    draw();
    // Text was measured with a fallback font if Roboto was still loading: lay it out again.
    let disposed = false;
    if (!fontsLoaded()) void fontsReady.then(() => !disposed && draw());
    let width = node.clientWidth;
    const ro = new ResizeObserver(() => {
      if (node.clientWidth === width) return;
      width = node.clientWidth;
      chart.resize();
      draw();
    });
    ro.observe(node);
    return () => {
      disposed = true;
      ro.disconnect();
      chart.dispose();
    };
  }, [hint, type, columns, rows]);
  return <div ref={el} class="chart" role="img" aria-label={`${label}: ${type.replace('_', ' ')} chart of ${rows.length} rows`} style={{ height: `${height}px` }} />;
}
