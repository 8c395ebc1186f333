// What the question parser and the LLM tool know of the insight catalog, derived from the
// semantic layer's definitions so that a new insight is known to chat without a second list.
import { CATALOG } from '../../semantic/catalog.ts';
import type { ParserInsight } from './parser/index.ts';

export function parserCatalog(): ParserInsight[] {
  return CATALOG.map((d) => ({
    code: d.code,
    kind: d.kind,
    granularities: d.granularities,
    filters: d.filters,
    maxLimit: d.limit?.max ?? null,
  }));
}
