// The starter dashboard ("Start here") as a plan made from the insight catalog, so it suits any
// model, the demo's too: two KPIs, a time series, two breakdowns and a top list — the first
// insights of each kind — each drawn as its insight suggests (docs/web.md "First run").
import type { CatalogEntry } from '../../semantic/types.ts';

export const STARTER_NAME = 'Start here';
export const STARTER_DESCRIPTION =
  'A first look at your data, made from the insight catalog. Change the filters above, click a bar to narrow, or add widgets.';

export interface StarterWidget {
  title: string;
  widget_type: 'kpi' | 'chart' | 'table';
  insight_code: string;
  display_size: 'small' | 'medium' | 'full';
}

/** The widgets of the starter dashboard, in order; empty when the catalog has no insight. */
export function starterWidgets(catalog: readonly CatalogEntry[]): StarterWidget[] {
  const pick = (kind: string, n: number) => catalog.filter((i) => i.kind === kind).slice(0, n);
  const chosen = [...pick('kpi', 2), ...pick('timeseries', 1), ...pick('breakdown', 2), ...pick('top', 1)];
  return chosen.map((i) => ({
    title: i.name,
    widget_type: i.kind === 'kpi' ? 'kpi' : i.chart_hint.type === 'table' ? 'table' : 'chart',
    insight_code: i.code,
    display_size: i.kind === 'kpi' ? 'small' : i.kind === 'timeseries' ? 'full' : 'medium',
  }));
}
