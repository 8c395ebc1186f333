// Columns and chart types of results, apart from ECharts (charts.ts) so pages load without it.
import type { ChartHint, ChartType, ChatData, Column, DataRow } from './types.ts';

/** Columns of rows that came without them (snapshots, chat answers): numbers are numbers. */
export function columnsOf(rows: DataRow[]): Column[] {
  const names: string[] = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!names.includes(k)) names.push(k);
  return names.map((name) => {
    const values = rows.map((r) => r[name]).filter((v) => v !== null && v !== undefined);
    const numeric = values.length > 0 && values.every((v) => typeof v === 'number');
    return { name, type: numeric ? 'number' : 'string', label: name.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase()) };
  });
}

/** The type a widget is drawn as: the override wins over the hint (docs/web.md). */
export function resolvedType(hint: ChartHint | null | undefined, override?: ChartType | null): ChartType | undefined {
  return override ?? hint?.type;
}

/**
 * A chat answer's columns, titled in its language by the service; a row key it did not name (or an
 * answer kept from before it named them) gets a column made from the rows.
 */
export function answerColumns(a: ChatData): Column[] {
  const named = (a as { columns?: Column[] }).columns ?? [];
  const known = new Set(named.map((c) => c.name));
  return [...named, ...columnsOf(a.rows).filter((c) => !known.has(c.name))];
}
