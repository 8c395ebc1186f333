// What the question parser knows of the insight catalog, taken from the semantic model's
// insights, so that an insight of the model is known to chat without a second list.
import type { InsightDefinition } from '../../semantic/types.ts';
import type { ParserInsight } from './parser/index.ts';

export function parserCatalog(insights: readonly InsightDefinition[]): ParserInsight[] {
  return insights.map((d) => ({
    code: d.code,
    kind: d.kind,
    granularities: d.granularities,
    filters: d.filters,
    maxLimit: d.limit?.max ?? null,
  }));
}
