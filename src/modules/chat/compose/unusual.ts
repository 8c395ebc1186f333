// "Anything unusual in revenue by country last week?" (docs/chat.md "Unusual values"): the question's
// measure, grouping and filters read as series over the period asked and the history before it, one
// query, judged by the anomaly detector that alerts use (src/modules/anomalies). Only what the
// detector can judge exactly as asked is answered: one measure that is not itself a window, at most
// one grouping, no condition on a measure, no comparison (the caller refuses a ranking, which the
// query as run carries as a default order). Anything else is undefined, and chat refuses by name.
import type { AuthContext } from '../../../auth/context.ts';
import { AppError } from '../../../lib/errors.ts';
import { addDays, addPeriods, bucketStart, daysBetween } from '../../../semantic/periods.ts';
import type { SemanticModel } from '../../../semantic/model.ts';
import type { SemanticQuery } from '../../../semantic/query/query.schema.ts';
import type { Granularity } from '../../../semantic/types.ts';
import { PLAIN_HISTORY, WEEKDAY_HISTORY } from '../../anomalies/detector.ts';
import { unusualIn } from '../../anomalies/unusual.ts';
import type { QueryResult, QueryService } from '../../query/query.service.ts';
import { phrases } from '../language/phrases.ts';
import type { ChartHint } from '../../../lib/chart.schemas.ts';

/** The most series judged in one answer (a grouping by customer would be thousands). */
export const MAX_UNUSUAL_SERIES = 50;
/** The days before today looked at when the question names no period. */
const DEFAULT_DAYS = 7;
/** The most rows of the series query: periods × series, history included. */
const MAX_ROWS = 10_000;

export interface UnusualAsked {
  auth: AuthContext;
  today: string;
  /** The question's own query (measure, grouping, filters, window), as composed or as its insight ran. */
  base: SemanticQuery;
  /** Whether the window of `base` is the question's own (not a default the service filled in). */
  periodAsked: boolean;
}

/** Days for a stretch of up to a month, weeks up to half a year, months beyond. */
function grainOf(from: string, to: string): Granularity {
  const days = daysBetween(from, to) + 1;
  return days <= 31 ? 'day' : days <= 183 ? 'week' : 'month';
}

/** Where the history before `from` starts: eight weeks of days (each weekday's own), else twelve periods. */
function historyStart(from: string, grain: Granularity): string {
  return grain === 'day' ? addDays(from, -7 * WEEKDAY_HISTORY) : addPeriods(from, grain, -PLAIN_HISTORY);
}

/** A composed answer (composer.ts), written out here: the composer imports this file. */
export interface UnusualAnswer {
  reply_text: string;
  chart_hint: ChartHint;
  rows: QueryResult['rows'];
  columns: QueryResult['columns'];
  query: SemanticQuery;
}

export async function answerUnusual(model: SemanticModel, queries: QueryService, asked: UnusualAsked): Promise<UnusualAnswer | undefined> {
  const { base } = asked;
  if (base.measures.length !== 1 || (base.dimensions?.length ?? 0) > 1 || base.compare) return undefined;
  const [cubeName, measureName] = base.measures[0].split('.');
  const measure = model.cubes.get(cubeName)?.measures.get(measureName);
  if (!measure || measure.rolling) return undefined;
  const isMeasure = (ref: string) => {
    const [c, m] = ref.split('.');
    return Boolean(model.cubes.get(c)?.measures.has(m));
  };
  if ((base.filters ?? []).some((f) => isMeasure(f.member))) return undefined;
  const timeDim = base.time?.dimension;
  if (!timeDim) return undefined;
  const scope = { tenantId: asked.auth.tenantId, attributes: asked.auth.attributes };

  // The stretch judged: the question's own, else the last week of the data up to today.
  let to = asked.periodAsked ? base.time?.date_to : undefined;
  let from = asked.periodAsked ? base.time?.date_from : undefined;
  const defaulted = !from || !to;
  if (defaulted) {
    const span = await queries.dataSpan(scope, timeDim);
    if (!span) return undefined;
    to = span.to < asked.today ? span.to : asked.today;
    from = addDays(to, -(DEFAULT_DAYS - 1));
  }
  const grain = grainOf(from!, to!);
  from = bucketStart(from!, grain);
  const query: SemanticQuery = {
    measures: base.measures,
    ...(base.dimensions?.length ? { dimensions: base.dimensions } : {}),
    time: { dimension: timeDim, granularity: grain, date_from: historyStart(from, grain), date_to: to },
    ...(base.filters?.length ? { filters: base.filters } : {}),
    ...(base.segments?.length ? { segments: base.segments } : {}),
    limit: MAX_ROWS,
  };
  let result: Awaited<ReturnType<QueryService['run']>>;
  try {
    result = await queries.run(scope, query, 'query');
  } catch (err) {
    if (err instanceof AppError && err.status < 500) return undefined;
    throw err;
  }
  // A cut series would be judged on part of its history: refuse rather than guess.
  if (result.total_rows > result.rows.length) return undefined;
  const ref = base.measures[0];
  const dim = base.dimensions?.[0];
  const series = new Map<string, { period: string; value: number | null }[]>();
  for (const r of result.rows) {
    const key = dim ? String(r[dim] ?? '–') : '';
    const points = series.get(key) ?? [];
    points.push({ period: String(r[timeDim]), value: typeof r[ref] === 'number' ? (r[ref] as number) : null });
    series.set(key, points);
  }
  if (series.size > MAX_UNUSUAL_SERIES) return undefined;
  const column = result.columns.find((c) => c.name === ref);
  const label = column?.label ?? measureName;
  const p = phrases('en');
  const unusual = unusualIn({
    label,
    series: [...series].map(([key, points]) => ({ key, points })),
    from,
    to: to!,
    daily: grain === 'day',
    format: (n) => p.number(n, column),
  });
  const note = defaulted
    ? p.note([`no period was named, so the last ${DEFAULT_DAYS} days of the data, each compared with its history`])
    : '';
  // The rows are the stretch asked about, as the same query over it alone would give them.
  const asRun: SemanticQuery = { ...query, time: { ...query.time!, date_from: from } };
  return {
    reply_text: `${unusual.text}${note}`,
    chart_hint: { type: 'line', x_axis: timeDim, y_axis: [ref], ...(dim ? { series: dim } : {}) },
    rows: result.rows.filter((r) => String(r[timeDim]) >= from!),
    columns: result.columns,
    query: asRun,
  };
}
