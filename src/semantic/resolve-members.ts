// What an insight names, found in the model: its members (each missing one reported at its path,
// with "did you mean"), its time dimensions and its filter dimensions, and the rules a filter's
// values follow. Shared by the insight kinds (resolve.ts) and cohorts (resolve-cohort.ts).
import type { CubeInfo, DimensionInfo } from './cubes.ts';
import type { PathPart } from './issues.ts';
import { humanize } from './cubes.ts';
import { plainText, type InsightDef } from './model.schema.ts';
import type { Err } from './resolve-facts.ts';
import { didYouMean } from './shape.ts';
import type { FilterRule } from './types.ts';

/** What the member steps read of an insight being resolved. */
export interface MemberStep {
  def: InsightDef;
  err: Err;
  find: ReturnType<typeof lookup>;
}

/** Finds what an insight names, reporting each reference to something the model lacks. */
export function lookup(cubes: Map<string, CubeInfo>, err: Err) {
  const member = (ref: string) => {
    const [c, name] = ref.split('.');
    return { cube: cubes.get(c), c, name };
  };
  const find = <T>(
    ref: string,
    p: PathPart[],
    kind: 'measure' | 'dimension' | 'segment',
    get: (cube: CubeInfo, name: string) => T | undefined,
  ): T | undefined => {
    const { cube, c, name } = member(ref);
    if (!cube) return void err(p, `"${c}" is not a cube${didYouMean(c, [...cubes.keys()])}`, c);
    const found = get(cube, name);
    if (!found) err(p, `"${name}" is not a ${kind} of cube ${c}${didYouMeanMember(name, cube, kind)}`, ref);
    return found;
  };
  return {
    member,
    measure: (ref: string, p: PathPart[]) => find(ref, p, 'measure', (cube, name) => cube.measures.get(name)),
    dimension: (ref: string, p: PathPart[]) => find(ref, p, 'dimension', (cube, name) => cube.dimensions.get(name)),
    segment: (ref: string, p: PathPart[]) => find(ref, p, 'segment', (cube, name) => cube.segments.get(name)),
  };
}

function didYouMeanMember(name: string, cube: CubeInfo, kind: 'measure' | 'dimension' | 'segment'): string {
  const own = [...(kind === 'measure' ? cube.measures : kind === 'dimension' ? cube.dimensions : cube.segments).keys()];
  const hint = didYouMean(name, own);
  if (hint) return hint;
  // Named as the other kind: a measure where a dimension belongs, or the other way round.
  if (kind !== 'segment' && (kind === 'measure' ? cube.dimensions : cube.measures).has(name))
    return ` (${name} is a ${kind === 'measure' ? 'dimension' : 'measure'})`;
  return '';
}

/** Time dimensions: one per fact cube, reachable from it, or of the same name on it. */
export function resolveTimeDimensions({ def, err, find }: MemberStep): DimensionInfo[] {
  const timeRefs = Array.isArray(def.time_dimension) ? def.time_dimension : [def.time_dimension];
  const timeDims: DimensionInfo[] = [];
  timeRefs.forEach((ref, i) => {
    const p = Array.isArray(def.time_dimension) ? ['time_dimension', i] : ['time_dimension'];
    const d = find.dimension(ref, p);
    if (d && d.def.type !== 'time') err(p, `${ref} is a ${d.def.type} dimension, not a time dimension`);
    else if (d) timeDims.push(d);
  });
  return timeDims;
}

/** The filter dimensions: each a parameter of its own name, never a time dimension. */
export function resolveFilters({ def, err, find }: MemberStep): (DimensionInfo | undefined)[] {
  const filterDims = (def.filters ?? []).map((ref, i) => find.dimension(ref, ['filters', i]));
  const filterNames = new Set<string>();
  filterDims.forEach((d, i) => {
    if (!d) return;
    if (d.def.type === 'time') err(['filters', i], 'a time dimension is filtered by date_from and date_to');
    if (filterNames.has(d.def.name)) err(['filters', i], `two filters are named ${d.def.name}`);
    if (['granularity', 'date_from', 'date_to', 'limit'].includes(d.def.name))
      err(['filters', i], `"${d.def.name}" is an execute parameter of its own`);
    filterNames.add(d.def.name);
  });
  return filterDims;
}

/** What a filter's values must look like (case, allowed values, pattern), by parameter name. */
export function filterRules(filterDims: (DimensionInfo | undefined)[]): Record<string, FilterRule> {
  const rules: Record<string, FilterRule> = {};
  for (const d of filterDims) {
    if (!d) continue;
    rules[d.def.name] = {
      name: d.def.name,
      label: plainText(d.def.title) ?? humanize(d.def.name),
      ...(d.def.case ? { case: d.def.case } : {}),
      ...(d.def.values ? { values: d.def.values } : {}),
      ...(d.def.pattern ? { pattern: new RegExp(d.def.pattern) } : {}),
    };
  }
  return rules;
}
