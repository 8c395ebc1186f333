// The starter dashboard ("Start here") as a plan made from the insight catalog, so it suits any
// model, the demo's too: two KPIs, a time series, two breakdowns and a top list — the first
// insights of each kind — each drawn as its insight suggests (docs/web.md "First run").
import type { CatalogEntry } from '../insights/insights.schemas.ts';

export const STARTER_NAME = 'Start here';
export const STARTER_DESCRIPTION =
  'A first look at your data, made from the insight catalog. Change the filters above, click a bar to narrow, or add widgets.';

export interface StarterWidget {
  title: string;
  widget_type: 'kpi' | 'chart' | 'table';
  insight_code: string;
  display_size: 'small' | 'medium' | 'full';
}

/**
 * The widgets of the starter dashboard, in order; empty when the catalog has no insight. `rolling`
 * tells a time series of rolling measures (docs/model.md "Time intelligence"): the first one is
 * shown beside the first plain one, and the first cohort's retention table at the end.
 */
export function starterWidgets(catalog: readonly CatalogEntry[], rolling: (code: string) => boolean = () => false): StarterWidget[] {
  const pick = (kind: string, n: number, keep = (_: CatalogEntry) => true) => catalog.filter((i) => i.kind === kind && keep(i)).slice(0, n);
  const chosen = [
    ...pick('kpi', 2),
    ...pick('timeseries', 1, (i) => !rolling(i.code)),
    ...pick('timeseries', 1, (i) => rolling(i.code)),
    ...pick('breakdown', 2),
    ...pick('top', 1),
    ...pick('cohort', 1),
  ];
  return chosen.map((i) => ({
    title: i.name,
    widget_type: i.kind === 'kpi' ? 'kpi' : i.chart_hint.type === 'table' ? 'table' : 'chart',
    insight_code: i.code,
    display_size: i.kind === 'kpi' ? 'small' : i.kind === 'timeseries' || i.kind === 'cohort' ? 'full' : 'medium',
  }));
}
