// Rollups (`pre_aggregations` of a cube, docs/rollups.md): resolved from the model, matched to a
// fact query only when the answer is exactly the raw one, and compiled to the SQL that builds
// them. Knows no engine and no tenant state: which rollups are built and current for a tenant is
// the warehouse's (src/warehouse/rollups.ts), passed in with the query.
import crypto from 'node:crypto';
import { leafMeasures, reachable, quote, type CubeInfo } from './cubes.ts';
import { issueAt, type ModelIssue, type PathPart } from './load.ts';
import type { Dialect } from './dialects/dialect.ts';
import { addDays, bucketStart, type Window } from './periods.ts';
import {
  GRANULARITIES,
  type FactPlan,
  type Granularity,
  type JoinStep,
  type LeafMeasure,
  type RollupDefinition,
  type RollupPartial,
} from './types.ts';

/** The warehouse schema of the service's own rollup tables (and their state table). */
export const ROLLUP_SCHEMA = 'insights_rollups';

const SECONDS: Record<string, number> = { second: 1, minute: 60, hour: 3600, day: 86400 };

/** Partial aggregates that combine exactly: avg is kept as a sum and a count; count_distinct never. */
function partialsOf(m: LeafMeasure): RollupPartial[] | undefined {
  switch (m.agg) {
    case 'sum':
    case 'min':
    case 'max':
      return [{ column: `${m.name}__${m.agg}`, agg: m.agg }];
    case 'count':
      return [{ column: `${m.name}__count`, agg: 'count' }];
    case 'avg':
      return [
        { column: `${m.name}__sum`, agg: 'sum' },
        { column: `${m.name}__count`, agg: 'count' },
      ];
    default:
      return undefined;
  }
}

export function resolveRollups(cubes: Map<string, CubeInfo>, issues: ModelIssue[]): RollupDefinition[] {
  const out: RollupDefinition[] = [];
  for (const cube of cubes.values()) {
    const reach = reachable(cube.name, cubes);
    const names = new Set<string>();
    (cube.def.pre_aggregations ?? []).forEach((pa, i) => {
      const at = (...p: PathPart[]) => [...cube.path, 'pre_aggregations', i, ...p];
      const before = issues.length;
      const err = (p: PathPart[], message: string) => issues.push(issueAt(cube.src, p, message));
      if (names.has(pa.name)) err(at('name'), `rollup "${pa.name}" is declared twice in cube ${cube.name}`);
      names.add(pa.name);
      if (!cube.source.table) err(at(), 'rollups are built for table cubes (sql_table) only: a derived cube is computed per tenant');
      // A member: "name" or "CUBE.name" of this cube, "other.name" of a cube it reaches.
      const member = (ref: string): [string, string] => {
        const [a, b] = ref.includes('.') ? ref.split('.') : ['CUBE', ref];
        return [a === 'CUBE' ? cube.name : a, b];
      };
      const leaves: LeafMeasure[] = [];
      pa.measures.forEach((ref, j) => {
        const [c, name] = member(ref);
        if (c !== cube.name) return err(at('measures', j), `rollups of cube ${cube.name} hold its own measures only, not ${c}.${name}`);
        if (!cube.measures.has(name)) return err(at('measures', j), `"${name}" is not a measure of cube ${cube.name}`);
        for (const leafRef of leafMeasures(`${c}.${name}`, cubes, new Set()) ?? []) {
          const [lc, ln] = leafRef.split('.');
          const info = cubes.get(lc)!.measures.get(ln)!;
          if (lc !== cube.name)
            return err(
              at('measures', j),
              `${name} is computed from ${leafRef}, a measure of another cube; a rollup of ${cube.name} cannot hold it`,
            );
          if (info.def.type === 'count_distinct')
            return err(
              at('measures', j),
              `${leafRef} is a count_distinct: distinct counts do not add up across rows of a rollup, so it is never rolled up`,
            );
          if (!leaves.some((l) => l.name === ln))
            leaves.push({ name: ln, ref: leafRef, agg: info.def.type as LeafMeasure['agg'], sql: info.sql, filters: info.filters });
        }
      });
      const dimension = (ref: string, p: PathPart[], time: boolean) => {
        const [c, name] = member(ref);
        const d = cubes.get(c)?.dimensions.get(name);
        if (!d) return void err(p, `"${ref}" is not a dimension`);
        if (!reach.has(c)) return void err(p, `cube ${c} is not reachable from ${cube.name} through many_to_one joins`);
        if (time !== (d.def.type === 'time'))
          return void err(p, time ? `${ref} is not a time dimension` : `${ref} is a time dimension: it is the rollup's time_dimension`);
        return d;
      };
      const timeDim = dimension(pa.time_dimension, at('time_dimension'), true);
      const dims = (pa.dimensions ?? []).map((ref, j) => dimension(ref, at('dimensions', j), false));
      if (pa.partition_granularity && GRANULARITIES.indexOf(pa.partition_granularity) < GRANULARITIES.indexOf(pa.granularity)) {
        err(
          at('partition_granularity'),
          `partitions (${pa.partition_granularity}) must not be finer than the granularity (${pa.granularity})`,
        );
      }
      if (pa.partition_granularity === 'week' && pa.granularity !== 'week' && pa.granularity !== 'day')
        err(at('partition_granularity'), 'week partitions hold day or week buckets only');
      if (issues.length !== before || !timeDim) return;

      // Joins: every cube the dimensions and measure filters read, with the cubes on the way.
      const needed = new Set<string>();
      for (const d of [timeDim, ...dims]) {
        needed.add(d!.cube);
        d!.refs.forEach((r) => needed.add(r));
      }
      for (const l of leaves) cube.measures.get(l.name)!.refs.forEach((r) => needed.add(r));
      for (const c of [...needed]) for (let p = reach.get(c); p; p = reach.get(p)) needed.add(p);
      const joins: JoinStep[] = [];
      const tables = new Set<string>([cube.def.sql_table!]);
      for (const c of reach.keys()) {
        if (c === cube.name || !needed.has(c)) continue;
        joins.push({ source: cubes.get(c)!.source, on: cubes.get(reach.get(c)!)!.joins.get(c)! });
        if (cubes.get(c)!.def.sql_table) tables.add(cubes.get(c)!.def.sql_table!);
      }
      const measures = new Map(leaves.map((l) => [l.name, { leaf: l, partials: partialsOf(l)! }]));
      const filterSets = [[] as string[], ...leaves.map((l) => l.filters).filter((f) => f.length > 0)];
      const rowCounts: RollupDefinition['rowCounts'] = [];
      for (const f of filterSets) {
        const key = JSON.stringify([...f].sort());
        if (!rowCounts.some((r) => JSON.stringify([...r.filters].sort()) === key))
          rowCounts.push({ filters: f, column: `__rows_${rowCounts.length}` });
      }
      const dimensions = dims.map((d) => ({ ref: `${d!.cube}.${d!.def.name}`, column: `${d!.cube}__${d!.def.name}`, sql: d!.sql }));
      const bare = /^"[^"]+"\."([^"]+)"$/.exec(timeDim.sql);
      const def: Omit<RollupDefinition, 'definitionHash'> = {
        id: `${cube.name}.${pa.name}`,
        cube: cube.name,
        name: pa.name,
        table: `${quote(ROLLUP_SCHEMA)}.${quote(`${cube.name}__${pa.name}`)}`,
        granularity: pa.granularity,
        ...(pa.partition_granularity ? { partitionGranularity: pa.partition_granularity } : {}),
        ...(pa.refresh_every ? { refreshEverySeconds: refreshSeconds(pa.refresh_every) } : {}),
        source: cube.source,
        joins,
        time: {
          ref: `${timeDim.cube}.${timeDim.def.name}`,
          sql: timeDim.sql,
          ...(bare && timeDim.cube === cube.name ? { column: bare[1].replace(/""/g, '"') } : {}),
        },
        dimensions,
        measures,
        rowCounts,
        tables: [...tables],
      };
      const hashed = JSON.stringify([
        def.table,
        def.granularity,
        def.source,
        def.joins,
        def.time,
        def.dimensions,
        [...measures.values()],
        rowCounts,
      ]);
      out.push({ ...def, definitionHash: crypto.createHash('sha256').update(hashed).digest('hex').slice(0, 16) });
    });
  }
  return out;
}

function refreshSeconds(text: string): number {
  const [, n, unit] = /(\d+)\s*(second|minute|hour|day)/.exec(text)!;
  return Number(n) * SECONDS[unit];
}

// --- Matching -------------------------------------------------------------------------------

/** Whether buckets of `coarse` are unions of whole buckets of `fine` (weeks do not fill months). */
export function rollsUpTo(fine: Granularity, coarse: Granularity): boolean {
  if (fine === coarse || fine === 'day') return true;
  if (fine === 'week' || coarse === 'week') return false;
  return GRANULARITIES.indexOf(coarse) > GRANULARITIES.indexOf(fine);
}

/** A window made of whole buckets of `g`: only then does summing buckets give the window's figure. */
function aligned(w: Window, g: Granularity): boolean {
  const after = addDays(w.to, 1);
  return g === 'day' || (bucketStart(w.from, g) === w.from && bucketStart(after, g) === after);
}

export interface RollupQuery {
  /** The time grouping, if any. */
  granularity: Granularity | null;
  /** The dimensions filtered on, as the fact's `filters` name them. */
  filtered: readonly string[];
  windows: Window[];
}

/**
 * The rollup that answers this fact's query exactly, or undefined (the raw rows answer). Exact
 * means: every measure has its partials, every filtered and every grouping dimension is a
 * dimension of the rollup, no segment, the time dimension is the rollup's (a query without one
 * reads every bucket), the granularity is the rollup's or coarser and made of whole rollup buckets,
 * every window is made of whole buckets, the filters the compiler puts in WHERE for these measures
 * have a row count of their own (so the same groups appear), and every access filter's dimension of
 * the cubes read is a dimension of the rollup. Of several, the coarsest with the fewest dimensions
 * (the smallest table).
 */
export function rollupFor(fact: FactPlan, q: RollupQuery, candidates: readonly RollupDefinition[]): RollupDefinition | undefined {
  const shared = sharedFilters(fact);
  let best: RollupDefinition | undefined;
  for (const r of candidates) {
    if (r.cube !== fact.cube || fact.segments.length > 0) continue;
    if (fact.time ? r.time.ref !== fact.refs.time : q.granularity || q.windows.length) continue;
    if (!fact.measures.every((m) => r.measures.get(m.name)?.leaf.agg === m.agg)) continue;
    const dims = new Set(r.dimensions.map((d) => d.ref));
    // Row-level access: only a rollup that keeps the filtered dimension can drop the rows a caller may not see.
    if (![fact.source, ...fact.joins.map((j) => j.source)].every((s) => (s.access ?? []).every((a) => dims.has(a.ref)))) continue;
    if (!q.filtered.every((name) => fact.filters[name] === undefined || dims.has(fact.refs.filters[name]))) continue;
    if (!fact.refs.keys.every((k) => dims.has(k))) continue;
    if (q.granularity && !rollsUpTo(r.granularity, q.granularity)) continue;
    if (!q.windows.every((w) => aligned(w, r.granularity))) continue;
    if (!rowCountFor(r, shared)) continue;
    if (
      !best ||
      GRANULARITIES.indexOf(r.granularity) > GRANULARITIES.indexOf(best.granularity) ||
      (r.granularity === best.granularity && r.dimensions.length < best.dimensions.length)
    ) {
      best = r;
    }
  }
  return best;
}

/** Filters every measure of the fact shares: the compiler's WHERE conditions beside the tenant's. */
export function sharedFilters(fact: FactPlan): string[] {
  // A fact without measures (a cohort's, which counts entities) has none.
  return (fact.measures[0]?.filters ?? []).filter((x) => fact.measures.every((m) => m.filters.includes(x)));
}

export function rowCountFor(r: RollupDefinition, filters: string[]): string | undefined {
  const key = JSON.stringify([...filters].sort());
  return r.rowCounts.find((c) => JSON.stringify([...c.filters].sort()) === key)?.column;
}

/** A leaf measure re-aggregated from its partials. */
export function combinedMeasure(r: RollupDefinition, name: string, d: Dialect, alias: string, filter = ''): string {
  const { leaf, partials } = r.measures.get(name)!;
  const col = (p: RollupPartial) => `${alias}.${d.quote(p.column)}`;
  if (leaf.agg === 'avg') return `${d.toDouble(`sum(${col(partials[0])})${filter}`)} / NULLIF(sum(${col(partials[1])})${filter}, 0)`;
  const p = partials[0];
  return `${p.agg === 'min' ? 'min' : p.agg === 'max' ? 'max' : 'sum'}(${col(p)})${filter}`;
}

// --- Building ---------------------------------------------------------------------------------

const cond = (sql: string) => (/\bOR\b/i.test(sql) ? `(${sql})` : sql);

export interface BuildScope {
  /** One tenant's rows only (a refresh after that tenant's load). */
  tenant?: boolean;
  /** Only buckets in [from, to) (day strings): a refresh of the partitions a load touched. */
  range?: boolean;
}

/**
 * The SELECT that computes a rollup's rows from the raw data: every tenant at once, or one tenant
 * (parameter $1), optionally one time range ($2, $3 after the tenant: from inclusive, to exclusive).
 */
export function rollupSelect(r: RollupDefinition, d: Dialect, scope: BuildScope = {}): string {
  const cols = [
    `${r.source.tenant} AS ${d.quote('__tenant')}`,
    `CAST(${d.bucket(r.granularity, r.time.sql)} AS ${d.types.date}) AS ${d.quote('__bucket')}`,
    ...r.dimensions.map((x) => `${x.sql} AS ${d.quote(x.column)}`),
  ];
  const filtered = (agg: string, filters: string[]) => (filters.length ? `${agg} FILTER (WHERE ${filters.map(cond).join(' AND ')})` : agg);
  for (const { leaf, partials } of r.measures.values()) {
    for (const p of partials) {
      const agg = p.agg === 'count' ? (leaf.sql ? `count(${leaf.sql})` : 'count(*)') : `${p.agg}(${leaf.sql})`;
      cols.push(`${filtered(agg, leaf.filters)} AS ${d.quote(p.column)}`);
    }
  }
  for (const c of r.rowCounts) cols.push(`${filtered('count(*)', c.filters)} AS ${d.quote(c.column)}`);
  const table = r.source.table === r.source.alias ? r.source.table! : `${r.source.table} AS ${r.source.alias}`;
  // Joined rows must be the same tenant's: the ON carries the tenant equality, as the compiler's does.
  const joins = r.joins.map((j) => {
    const src = j.source.table === j.source.alias ? j.source.table! : `${j.source.table} AS ${j.source.alias}`;
    return ` LEFT JOIN ${src} ON ${cond(j.on)} AND ${j.source.tenant} = ${r.source.tenant}`;
  });
  const where: string[] = [];
  let n = 0;
  if (scope.tenant) where.push(`${r.source.tenant} = ${d.placeholder(++n)}`);
  if (scope.range) {
    where.push(
      `${r.time.sql} >= ${d.typedParam(d.placeholder(++n, 'timestamp'), 'timestamp')}`,
      `${r.time.sql} < ${d.typedParam(d.placeholder(++n, 'timestamp'), 'timestamp')}`,
    );
  }
  const groupBy = cols.length - [...r.measures.values()].reduce((s, m) => s + m.partials.length, 0) - r.rowCounts.length;
  return (
    `SELECT ${cols.join(', ')} FROM ` +
    `${table}${joins.join('')}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} GROUP BY ` +
    `${Array.from({ length: groupBy }, (_, i) => i + 1).join(', ')}`
  );
}

/** The table holding a rollup's time dimension (its own, or a joined one), as a FROM item, with its tenant column. */
function timeSource(r: RollupDefinition): { from: string; tenant: string } {
  const owner = quote(r.time.ref.split('.')[0]);
  const src = owner === r.source.alias ? r.source : r.joins.find((j) => j.source.alias === owner)!.source;
  return { from: src.table === src.alias ? src.table! : `${src.table} AS ${src.alias}`, tenant: src.tenant };
}

/**
 * The earliest and latest value of a rollup's time dimension, read from the one table that holds
 * it (no join): a whole build is done slice by slice between them. With `tenant`, one tenant's
 * ($1) rows only.
 */
export function rollupTimeSpanSql(r: RollupDefinition, d: Dialect, scope: { tenant?: boolean; within?: boolean } = {}): string {
  const src = timeSource(r);
  const text = d.types.text;
  const param = (n: number) => d.typedParam(d.placeholder(n, 'timestamp'), 'timestamp');
  // within: only the rows in [$1, $2) (day strings), the span a build slices once tenants with
  // rows outside it are left out.
  const where = scope.tenant
    ? ` WHERE ${src.tenant} = ${d.placeholder(1)}`
    : scope.within
      ? ` WHERE ${r.time.sql} >= ${param(1)} AND ${r.time.sql} < ${param(2)}`
      : '';
  return (
    `SELECT CAST(CAST(min(${r.time.sql}) AS ${d.types.date}) AS ${text}) AS lo, CAST(CAST(max(${r.time.sql}) AS ` +
    `${d.types.date}) AS ${text}) AS hi, count(*) AS n FROM ${src.from}${where}`
  );
}

/**
 * The tenants with values of the time dimension outside [$1, $2) (day strings), with the earliest
 * and latest of them: rows a rollup cannot bucket.
 */
export function rollupOutsideSpanSql(r: RollupDefinition, d: Dialect): string {
  const src = timeSource(r);
  const text = d.types.text;
  const param = (n: number) => d.typedParam(d.placeholder(n, 'timestamp'), 'timestamp');
  return (
    `SELECT ${src.tenant} AS tenant, CAST(CAST(min(${r.time.sql}) AS ${d.types.date}) AS ${text}) AS lo, ` +
    `CAST(CAST(max(${r.time.sql}) AS ${d.types.date}) AS ${text}) AS hi FROM ${src.from} WHERE ${r.time.sql} < ` +
    `${param(1)} OR ${r.time.sql} >= ${param(2)} GROUP BY 1`
  );
}
