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

/** code → name and description, for the LLM's tool description. */
export function catalogDescriptions(): { code: string; name: string; description: string; kind: string; granularities: readonly string[]; filters: readonly string[] }[] {
  return CATALOG.map((d) => ({ code: d.code, name: d.name, description: d.description, kind: d.kind, granularities: d.granularities, filters: d.filters }));
}
