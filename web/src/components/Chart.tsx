// One ECharts chart, sized by its container and redrawn when the container resizes. ECharts comes
// in its own chunk (lazy.ts), loaded while the page asks the API for the data.
import { useEffect, useRef, useState } from 'preact/hooks';
import { fontsLoaded, fontsReady } from '../fonts.ts';
import { loadCharts } from '../lazy.ts';
import type { ChartHint, ChartType, Column, DataRow } from '../types.ts';

interface Props {
  hint: ChartHint;
  type: ChartType;
  columns: Column[];
  rows: DataRow[];
  /** Spoken name of the picture, e.g. the widget title. */
  label: string;
  height?: number;
  /** Called once the chart is on the page. */
  onDrawn?: () => void;
  /** A click on a bar, slice or point: the x-axis value clicked (and the series', when split by one). */
  onPick?: (pick: Pick) => void;
  /** Numbers and dates in this locale (a chat answer's language). */
  locale?: string;
}

export interface Pick {
  column: string;
  value: string;
  series?: { column: string; value: string };
}

/** The x values in the order the option builder lays them out (distinct, in row order). */
function categories(rows: DataRow[], x: string): string[] {
  const seen = new Set<string>();
  for (const r of rows) seen.add(r[x] === null || r[x] === undefined || r[x] === '' ? '(none)' : String(r[x]));
  return [...seen];
}

export function Chart({ hint, type, columns, rows, label, height = 280, onDrawn, onPick, locale }: Props) {
  const pickRef = useRef(onPick);
  pickRef.current = onPick;
  const el = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    const node = el.current!;
    let disposed = false;
    let cleanup = () => {};
    void loadCharts().then(({ echarts, screenOption }) => {
      if (disposed) return;
      const chart = echarts.init(node, null, { renderer: 'svg' });
      const draw = () => {
        const option = screenOption(hint, type, columns, rows, node.clientWidth || 600, locale);
        if (option) chart.setOption(option, { notMerge: true });
        else chart.clear();
      };
      draw();
      chart.on('click', (p: { name?: string; dataIndex?: number; seriesName?: string }) => {
        const pick = pickRef.current;
        if (!pick) return;
        const value = type === 'pie' ? p.name : categories(rows, hint.x_axis)[p.dataIndex ?? -1];
        // "Other" gathers a pie's tail and "(none)" stands for no value: neither is a value to filter by.
        if (!value || value === 'Other' || value === '(none)') return;
        pick({
          column: hint.x_axis,
          value,
          ...(hint.series && p.seriesName ? { series: { column: hint.series, value: p.seriesName } } : {}),
        });
      });
      setDrawn(true);
      onDrawn?.();
      // Text was measured with a fallback font if Roboto was still loading: lay it out again.
      if (!fontsLoaded()) void fontsReady.then(() => !disposed && draw());
      let width = node.clientWidth;
      const ro = new ResizeObserver(() => {
        if (node.clientWidth === width) return;
        width = node.clientWidth;
        chart.resize();
        draw();
      });
      ro.observe(node);
      // The chart's ink follows the page's light or dark: redraw when the system's setting or the
      // header's theme picker changes it (the option is recoloured per scheme in charts.ts).
      const scheme = matchMedia('(prefers-color-scheme: dark)');
      const redraw = () => !disposed && draw();
      scheme.addEventListener('change', redraw);
      const mo = new MutationObserver(redraw);
      mo.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
      cleanup = () => {
        ro.disconnect();
        mo.disconnect();
        scheme.removeEventListener('change', redraw);
        chart.dispose();
      };
    });
    return () => {
      disposed = true;
      cleanup();
    };
  }, [hint, type, columns, rows, locale]);
  return (
    <div
      ref={el}
      class={`chart${onPick ? ' pickable' : ''}`}
      role="img"
      data-drawn={drawn ? 'true' : undefined}
      aria-label={`${label}: ${type.replace('_', ' ')} chart of ${rows.length} rows`}
      style={{ height: `${height}px` }}
    />
  );
}
