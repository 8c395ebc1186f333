// The fact plans of an insight (resolve.ts): for each cube whose measures it aggregates, where
// that cube finds the insight's time, filter and grouping dimensions, its segments, and the
// many_to_one joins to the cubes they live on, parents first, so joined rows never multiply the fact.
import { reachable, type CubeInfo, type DimensionInfo, type MeasureInfo, type SegmentInfo } from './cubes.ts';
import type { PathPart } from './issues.ts';
import type { FactPlan, JoinStep, TableUse } from './types.ts';

export type Err = (p: PathPart[], message: string, ref?: string) => void;

/** What planning needs of the model and the report. */
export interface FactInputs {
  cubes: Map<string, CubeInfo>;
  err: Err;
  /** A measure already found (its reference was checked). */
  measureInfo: (ref: string) => MeasureInfo;
  /**
   * A query's members must be reachable through joins; an insight may also name a dimension that a
   * fact cube does not reach when that cube has a dimension of the same name and type (its own).
   */
  strict?: boolean;
}

/** "cube.member": how a plan names the dimensions and measures it reads. */
export const refOf = (m: { cube: string; def: { name: string } }) => `${m.cube}.${m.def.name}`;

/** The insight's references, looked up in the order its problems are reported. */
export interface References {
  /** The measures it shows (a kpi shows its first). */
  used: string[];
  /** The result's measure columns: the ones shown, then the parts number measures are computed from. */
  columns: string[];
  /** The aggregated measures under them. */
  leaves: string[];
  timeDims: DimensionInfo[];
  keys: (DimensionInfo | undefined)[];
  keyPath: (i: number) => PathPart[];
  filterDims: (DimensionInfo | undefined)[];
  segments: (SegmentInfo | undefined)[];
  /** Where each reference was written, for the report (an insight's keys unless given). */
  paths?: { time: PathPart[]; filter: (i: number) => PathPart[]; segment: (i: number) => PathPart[] };
}

/** One fact per cube owning leaf measures, in order of first use, and the tables they read. */
export function planFacts(step: FactInputs, refs: References): { facts: FactPlan[]; tables: Map<string, TableUse> } {
  const factCubes: string[] = [];
  for (const l of refs.leaves) if (!factCubes.includes(l.split('.')[0])) factCubes.push(l.split('.')[0]);
  const facts: FactPlan[] = [];
  const tables = new Map<string, TableUse>();
  for (const f of factCubes) {
    const fact = planFact(step, refs, f, tables);
    if (fact) facts.push(fact);
  }
  return { facts, tables };
}

/**
 * The plan of one fact cube: where it finds the time, filter and grouping dimensions (on a cube it
 * reaches, else one of the same name on itself), its segments and measures, and the joins to the
 * cubes they need; the tables read are added to `tables`. Undefined when its time dimension cannot be placed.
 */
export function planFact(
  { cubes, err, measureInfo, strict }: FactInputs,
  { leaves, timeDims, keys, keyPath, filterDims, segments, paths }: References,
  f: string,
  tables: Map<string, TableUse>,
): FactPlan | undefined {
  const fact = cubes.get(f)!;
  const reach = reachable(f, cubes);
  const needed = new Set<string>([f]);
  const chosenRefs = new Map<string, string>();
  const place = (d: DimensionInfo | undefined, p: PathPart[], what: string): string | undefined => {
    if (!d) return undefined;
    let chosen: DimensionInfo | undefined = reach.has(d.cube) ? d : strict ? undefined : fact.dimensions.get(d.def.name);
    if (chosen && chosen.def.type !== d.def.type) chosen = undefined;
    if (!chosen) {
      err(
        p,
        strict
          ? `${refOf(d)} is not reachable from cube ${f} (of measure ${leaves.find((l) => l.startsWith(`${f}.`))}) ` +
              `through many_to_one joins`
          : `cube ${f} (measures of this insight) cannot reach ${d.cube}.${d.def.name} through many_to_one joins and ` +
              `has no ${what} dimension named ${d.def.name}`,
        'joins',
      );
      return undefined;
    }
    needed.add(chosen.cube);
    chosen.refs.forEach((r) => needed.add(r));
    chosenRefs.set(chosen.sql, `${chosen.cube}.${chosen.def.name}`);
    return chosen.sql;
  };
  let time: string | undefined;
  const timePath = paths?.time ?? ['time_dimension'];
  const direct = timeDims.find((d) => reach.has(d.cube));
  if (direct) time = place(direct, timePath, 'time');
  else if (timeDims[0]) time = place(timeDims[0], timePath, 'time');
  const filters: Record<string, string> = {};
  filterDims.forEach((d, i) => {
    const sql = place(d, paths?.filter(i) ?? ['filters', i], 'such');
    if (d && sql) filters[refOf(d)] = sql;
  });
  const factKeys = keys.map((d, i) => ({ name: d ? refOf(d) : '', sql: place(d, keyPath(i), 'such') ?? '' }));
  const segs: string[] = [];
  segments.forEach((s, i) => {
    if (!s) return;
    if (!reach.has(s.cube))
      return err(
        paths?.segment(i) ?? ['segments', i],
        `cube ${f} (measures of this ${strict ? 'query' : 'insight'}) cannot reach cube ${s.cube} through many_to_one joins`,
        'joins',
      );
    needed.add(s.cube);
    s.refs.forEach((r) => needed.add(r));
    segs.push(s.sql);
  });
  const measures = leaves
    .filter((l) => l.startsWith(`${f}.`))
    .map((l) => {
      const m = measureInfo(l);
      m.refs.forEach((r) => needed.add(r));
      return {
        name: m.def.name,
        ref: l,
        agg: m.def.type as FactPlan['measures'][number]['agg'],
        sql: m.sql,
        filters: m.filters,
        ...(m.rolling ? { rolling: m.rolling } : {}),
      };
    });
  // Every cube on the way to a needed one is joined too, parents first (BFS order).
  for (const c of [...needed]) for (let p = reach.get(c); p; p = reach.get(p)) needed.add(p);
  const joins: JoinStep[] = [];
  for (const c of reach.keys()) {
    if (c === f || !needed.has(c)) continue;
    const parent = cubes.get(reach.get(c)!)!;
    joins.push({ source: cubes.get(c)!.source, on: parent.joins.get(c)! });
  }
  for (const c of needed) {
    const info = cubes.get(c);
    if (info?.source.table)
      tables.set(info.def.sql_table!, { table: info.def.sql_table!, cube: info.name, tenantColumn: info.def.tenant_column });
    for (const part of info?.source.derived ?? []) {
      const read = typeof part === 'string' ? undefined : [...cubes.values()].find((x) => x.source.table === part.table);
      if (read) tables.set(read.def.sql_table!, { table: read.def.sql_table!, cube: read.name, tenantColumn: read.def.tenant_column });
    }
  }
  const refs = {
    time: chosenRefs.get(time ?? '') ?? '',
    filters: Object.fromEntries(Object.entries(filters).map(([name, sql]) => [name, chosenRefs.get(sql) ?? ''])),
    keys: factKeys.map((k) => chosenRefs.get(k.sql) ?? ''),
  };
  // A fact whose time dimension could not be placed is reported; one asked for no time has none.
  if (timeDims.length && !time) return undefined;
  return { cube: f, source: fact.source, joins, ...(time ? { time } : {}), filters, keys: factKeys, segments: segs, measures, refs };
}
