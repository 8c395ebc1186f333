// The chart a semantic query's answer is drawn as by default (docs/query.md "Widgets that hold a
// query"): over time a line, by a dimension bars (the second dimension the series), else a table.
// Shared by the server (a query widget's chart_hint) and the web app's Explore page.

/** What of a query decides its chart (SemanticQuery, structurally: no schema import here). */
export interface HintedQuery {
  measures: string[];
  dimensions?: string[];
  time?: { dimension: string; granularity?: string };
  compare?: string;
}

export interface QueryHint {
  type: 'line' | 'bar' | 'table';
  x_axis: string;
  y_axis: string[];
  series?: string;
  title: string;
}

export function queryChartHint(query: HintedQuery, title: string): QueryHint {
  const y = [...query.measures, ...(query.compare ? query.measures.map((m) => `${m}.previous`) : [])];
  const dims = query.dimensions ?? [];
  if (query.time?.granularity)
    return { type: 'line', x_axis: query.time.dimension, y_axis: y, ...(dims[0] ? { series: dims[0] } : {}), title };
  if (dims.length) return { type: 'bar', x_axis: dims[0], y_axis: y, ...(dims[1] ? { series: dims[1] } : {}), title };
  return { type: 'table', x_axis: query.measures[0], y_axis: y, title };
}
