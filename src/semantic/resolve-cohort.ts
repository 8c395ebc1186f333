// A cohort insight (docs/model.md "Time intelligence"): an entity (a dimension such as a customer
// id) followed through time. Its first period with rows, ever, is its cohort; the answer is one row
// per cohort and period since: the cohort's size, the entities active in that period, and the
// retention in percent. Planned as one fact, the entity's cube, keyed by the entity, reaching the
// time dimension, the filters and the segments as any insight's fact does.
import { humanize, type CubeInfo } from './cubes.ts';
import type { InsightDef } from './model.schema.ts';
import { synonymsIn } from './model.schema.ts';
import { filterRules, type lookup, resolveFilters, resolveTimeDimensions } from './resolve-members.ts';
import { planFact, refOf, type Err } from './resolve-facts.ts';
import type { InsightDefinition, TableUse } from './types.ts';

export const COHORT_GRANULARITIES = ['week', 'month', 'quarter', 'year'] as const;

export function resolveCohort(
  def: InsightDef,
  cubes: Map<string, CubeInfo>,
  err: Err,
  find: ReturnType<typeof lookup>,
): InsightDefinition | undefined {
  if (def.measures) err(['measures'], 'a cohort insight counts entities: it takes no measures');
  for (const key of ['dimension', 'dimensions', 'granularities', 'default_granularity', 'default_limit', 'max_limit'] as const)
    if (def[key] !== undefined)
      err([key], `a cohort insight takes no ${key} (entity, time_dimension and granularity say what it groups by)`);
  if (!def.entity) err(['entity'], 'a cohort insight needs an entity: the dimension whose values are followed, such as a customer id');
  const granularity = def.granularity ?? 'month';
  if (!(COHORT_GRANULARITIES as readonly string[]).includes(granularity))
    err(['granularity'], `must be one of: ${COHORT_GRANULARITIES.join(', ')} (a cohort of a day is too small to follow)`);
  const entity = def.entity ? find.dimension(def.entity, ['entity']) : undefined;
  if (entity?.def.type === 'time') err(['entity'], `${def.entity} is a time dimension; an entity is what is followed (a customer id)`);
  const timeDims = resolveTimeDimensions({ def, err, find });
  const filterDims = resolveFilters({ def, err, find });
  const segments = (def.segments ?? []).map((ref, i) => find.segment(ref, ['segments', i]));
  if (!entity || !timeDims.length) return undefined;

  const tables = new Map<string, TableUse>();
  const fact = planFact(
    { cubes, err, measureInfo: () => undefined as never },
    { used: [], columns: [], leaves: [], timeDims, keys: [entity], keyPath: () => ['entity'], filterDims, segments },
    entity.cube,
    tables,
  );
  if (!fact) return undefined;
  const name = def.name ?? humanize(def.code);
  return {
    code: def.code,
    name,
    description: def.description ?? '',
    kind: 'cohort',
    granularities: [granularity],
    defaultGranularity: granularity,
    filters: filterDims.filter((d) => d !== undefined).map((d) => d.def.name),
    filterRefs: Object.fromEntries(filterDims.filter((d) => d !== undefined).map((d) => [d.def.name, refOf(d)])),
    filterRules: filterRules(filterDims),
    chart: { type: 'table', x_axis: 'period', y_axis: ['retention'], series: 'cohort', title: def.chart?.title ?? name },
    measures: [
      { name: 'retention', type: 'percent', label: 'Retention (%)', decimals: 1 },
      { name: 'active', type: 'integer', label: 'Active' },
      { name: 'size', type: 'integer', label: 'Cohort size' },
    ],
    dimensions: [
      { name: 'cohort', type: 'date', label: 'Cohort' },
      { name: 'period', type: 'integer', label: 'Periods since' },
    ],
    ratios: [],
    cohort: { entity: refOf(entity), granularity },
    synonyms: synonymsIn(def.synonyms),
    ...(def.synonyms && !Array.isArray(def.synonyms) ? { localizedSynonyms: def.synonyms } : {}),
    localizedTitles: {},
    tables: [...tables.values()],
    plan: { facts: [fact], numbers: [], headline: 'retention' },
  };
}
