// How a result is handed to an agent: columns with units, and a one-paragraph summary. Every number
// and date the summary states is a cell of the rows, written as the cell holds it, so an agent (or
// a test) can find each one there; nothing is totalled, averaged or counted here. Text the tenant
// wrote (names, titles, values of its data) is written as a JSON string (asData), so an agent can
// tell it from the summary's own words and never reads it as instructions.
import type { Cell, ExecuteResult, InsightDefinition } from '../insights/insights.service.ts';
import type { Column, InsightResult } from './mcp.schemas.ts';

type Row = Record<string, Cell>;

const UNITS: Record<string, string> = { percent: '%', money: 'currency' };

export function withUnits(columns: readonly { name: string; label: string; type: string }[]): Column[] {
  return columns.map((c) => (UNITS[c.type] ? { ...c, unit: UNITS[c.type] } : { ...c }));
}

/** The REST API's ExecuteResponse.data, as a tool result. */
export function insightResult(r: ExecuteResult, kind: string, today: string): InsightResult {
  return {
    insight_code: r.insight_code,
    insight_name: r.insight_name,
    kind,
    granularity: r.granularity,
    filters: r.filters,
    period: r.period,
    ...(r.compare ? { compare: r.compare, previous_period: r.previous_period } : {}),
    columns: withUnits(r.columns),
    rows: r.rows,
    chart_hint: r.chart_hint as InsightResult['chart_hint'],
    row_count: r.row_count,
    generated_at: r.generated_at,
    today,
  };
}

/** Tenant-written text as data: a JSON string (quoted, its quotes and line breaks escaped); other cells as they are. */
export const asData = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : String(v));

const isNumber = (v: Cell | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/** A cell as it is written in the rows (no grouping, no rounding), with its unit. */
function figure(v: Cell | undefined, column?: Column): string {
  if (!isNumber(v)) return String(v);
  return column?.unit === '%' ? `${v} %` : String(v);
}

function filterText(filters: Record<string, string | string[]>, series?: string): string {
  const parts = Object.entries(filters)
    .filter(([name]) => name !== series)
    .map(([name, v]) => `${name} ${Array.isArray(v) ? v.join(' or ') : v}`);
  return parts.length ? ` for ${parts.join(', ')}` : '';
}

function compareText(compare?: string): string {
  return compare === 'previous_year' ? 'the year before' : 'the period before';
}

/** The figure of a row and, with compare, its previous figure and change. */
function withPrevious(row: Row, measure: Column, columns: Column[], compare?: string): string {
  const base = figure(row[measure.name], measure);
  const previous = row[`${measure.name}_previous`];
  if (!compare || !isNumber(previous)) return base;
  const change = row[`${measure.name}_change_pct`];
  const pct = columns.find((c) => c.name === `${measure.name}_change_pct`);
  return `${base} (${compareText(compare)}: ${figure(previous, measure)}${isNumber(change) ? `, change ${figure(change, pct)}` : ''})`;
}

function timeseries(r: Summarizable, measure: Column): string {
  const head = `${r.insight_name}${r.granularity ? ` by ${r.granularity}` : ''}${filterText(r.filters, r.chart_hint.series)}`;
  const rows = r.rows;
  if (!rows.length) return `${head}: no periods in the window.`;
  const series = r.chart_hint.series;
  const first = rows[0].period;
  const last = rows[rows.length - 1].period;
  if (series) {
    const latest = rows
      .filter((x) => x.period === last)
      .map((x) => `${asData(x[series])} ${withPrevious(x, measure, r.columns, r.compare)}`);
    return `${head}, one series per ${series}, periods starting ${first} to ${last}. Latest period (${last}): ${latest.join('; ')}.`;
  }
  const values = rows.filter((x) => isNumber(x[measure.name]));
  const high = values.reduce((a, b) => ((b[measure.name] as number) > (a[measure.name] as number) ? b : a), values[0]);
  const low = values.reduce((a, b) => ((b[measure.name] as number) < (a[measure.name] as number) ? b : a), values[0]);
  const latest = rows[rows.length - 1];
  const extremes =
    high && low
      ? ` Highest ${figure(high[measure.name], measure)} (period starting ${high.period}), lowest ` +
        `${figure(low[measure.name], measure)} (${low.period}).`
      : '';
  const compared = r.compare ? `, each compared with ${compareText(r.compare)}` : '';
  return (
    `${head}, periods starting ${first} to ${last}${compared}.${extremes} Latest period (${latest.period}): ` +
    `${withPrevious(latest, measure, r.columns, r.compare)}.`
  );
}

function ranking(r: Summarizable, measure: Column): string {
  const key = r.columns.find((c) => c.name === r.chart_hint.x_axis) ?? r.columns.find((c) => c.type === 'string') ?? r.columns[0];
  const head = `${r.insight_name}${filterText(r.filters)}`;
  const ranked = r.rows.filter((x) => isNumber(x[measure.name])).sort((a, b) => (b[measure.name] as number) - (a[measure.name] as number));
  if (!ranked.length) return `${head}: no rows in the window.`;
  const [lead, ...rest] = ranked.slice(0, 5).map((x) => `${asData(x[key.name])} ${withPrevious(x, measure, r.columns, r.compare)}`);
  return `${head}, highest first: ${lead} leads${rest.length ? `, then ${rest.join(', ')}` : ''}.`;
}

/** A cohort insight: its cohorts, and the best and worst kept one period after their start. */
function cohort(r: Summarizable): string {
  const head = `${r.insight_name}${filterText(r.filters)}`;
  const col = (name: string) => r.columns.find((c) => c.name === name);
  const cohorts = r.rows.filter((x) => x.period === 0);
  if (!cohorts.length) return `${head}: no cohort starts in the window.`;
  const span = `cohorts from ${cohorts[0].cohort} to ${cohorts[cohorts.length - 1].cohort}`;
  const next = r.rows
    .filter((x) => x.period === 1 && isNumber(x.retention))
    .sort((a, b) => (b.retention as number) - (a.retention as number));
  if (!next.length) return `${head}: ${span}, none followed for a period since.`;
  const kept = (x: Row) => `the ${x.cohort} cohort ${figure(x.retention, col('retention'))} of ${figure(x.size, col('size'))}`;
  const [best, worst] = [next[0], next[next.length - 1]];
  return (
    `${head}: ${span}; one period after their start, ${kept(best)} came back (the ` +
    `most)${next.length > 1 ? `, ${kept(worst)} (the least)` : ''}.`
  );
}

function kpi(r: Summarizable, measure: Column): string {
  const row = r.rows[0];
  if (!row) return `${r.insight_name}: no figure.`;
  const pct = r.columns.find((c) => c.name === 'change_pct');
  const change = isNumber(row.change_pct)
    ? `, change ${figure(row.change, measure)} (${figure(row.change_pct, pct)})`
    : `, change ${figure(row.change, measure)}`;
  return (
    `${r.insight_name}${filterText(r.filters)} from ${row.period_from} to ${row.period_to}: ${figure(row.value, measure)}; ` +
    `from ${row.previous_period_from} to ${row.previous_period_to}: ${figure(row.previous_value, measure)}${change}.`
  );
}

/** What a summary reads of a result (an insight's, a chat answer's, a widget's). */
export interface Summarizable {
  insight_name: string;
  granularity: string | null;
  filters: Record<string, string | string[]>;
  compare?: string;
  columns: Column[];
  rows: Row[];
  chart_hint: { x_axis: string; y_axis?: string[]; series?: string };
}

/**
 * One paragraph on a result, by the insight's kind (its definition when known, else the shape of
 * the rows): the trend of a time series, the leaders of a breakdown, a KPI against its previous window.
 */
export function summarize(r: Summarizable, def?: Pick<InsightDefinition, 'kind'>): string {
  const measureName = r.chart_hint.y_axis?.[0] ?? r.columns.find((c) => c.name === 'value')?.name;
  const measure = r.columns.find((c) => c.name === measureName) ?? r.columns.find((c) => c.type !== 'date' && c.type !== 'string');
  const kind =
    def?.kind ??
    (r.columns.some((c) => c.name === 'period') ? 'timeseries' : r.columns.some((c) => c.name === 'previous_value') ? 'kpi' : 'breakdown');
  if (kind === 'cohort') return cohort(r);
  if (!measure) return `${r.insight_name}: rows without a figure.`;
  if (kind === 'kpi' && r.columns.some((c) => c.name === 'previous_value')) return kpi(r, measure);
  if (kind === 'timeseries' && r.columns.some((c) => c.name === 'period')) return timeseries(r, measure);
  return ranking(r, measure);
}
