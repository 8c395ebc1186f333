// The chosen query of a question in the engine's other words: the insight engine's parameters, the
// query as it ran (the window and granularity the engine chose), and an insight's answer as a
// semantic query (QUERY.md) that a follow-up about time can rewrite.
import type { SemanticQuery } from '../../semantic/query/query.schema.ts';
import type { Granularity, InsightDefinition } from '../../semantic/types.ts';
import type { ExecuteParams, ExecuteResult } from '../insights/insights.service.ts';
import type { StructuredQuery } from './parser/index.ts';

/** A chosen query as the insight engine's parameters (chat runs it; MCP reads its columns). */
export function executeParamsOf(q: StructuredQuery): ExecuteParams {
  return {
    ...q.filters,
    granularity: q.granularity,
    date_from: q.date_from,
    date_to: q.date_to,
    limit: q.limit,
    compare: q.compare,
  };
}

/** The query as it ran: the parser's or the LLM's, with the window and granularity the engine chose. */
export function resolvedQuery(q: StructuredQuery, result: ExecuteResult): StructuredQuery {
  const out: StructuredQuery = { ...q, filters: q.filters && { ...q.filters } };
  if (!out.filters) delete out.filters;
  if (result.granularity) out.granularity = result.granularity as StructuredQuery['granularity'];
  if (Object.keys(result.filters).length) out.filters = { ...result.filters };
  out.date_from = result.period.from;
  out.date_to = result.period.to;
  return out;
}

/**
 * An insight's answer as the semantic query that means it: its headline measure over its time
 * dimension, its dimensions where it groups, its filters as asked; undefined for a cohort or an
 * insight without a time dimension or headline.
 */
export function insightAsSemantic(
  def: InsightDefinition | undefined,
  query: StructuredQuery,
  result: ExecuteResult,
): SemanticQuery | undefined {
  const time = def?.plan.facts[0]?.refs.time;
  const headline = def?.measures.find((m) => m.name === def.chart.y_axis?.[0])?.ref;
  if (!def || !time || !headline || def.kind === 'cohort') return undefined;
  const filters = Object.entries(query.filters ?? {})
    .filter(([, v]) => v !== undefined)
    .map(([name, v]) => ({
      member: def.filterRefs[name],
      operator: 'equals' as const,
      values: (Array.isArray(v) ? v : [v]).map(String),
    }));
  return {
    measures: [headline],
    ...(def.kind === 'breakdown' || def.kind === 'top' ? { dimensions: def.dimensions.map((d) => d.ref!) } : {}),
    time: {
      dimension: time,
      granularity: (result.granularity ?? 'month') as Granularity,
      date_from: result.period.from,
      date_to: result.period.to,
    },
    ...(filters.length ? { filters } : {}),
  };
}
