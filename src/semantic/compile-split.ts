// When a breakdown or top list groups a fact by the columns of a joined dimension cube (top products:
// order items grouped by the product's id, name, category and brand), the fact can be aggregated by
// the join's key first and the small aggregate joined to the dimension and grouped again: the join
// then copies a product's columns once per product instead of once per order item. That is exact
// only where the measures can be aggregated again (sum, count, min, max: not a distinct count, and
// not avg, which would need its two parts) and nothing but the keys and the filters reads the
// dimension. This module decides whether a fact's plan can be split that way (docs/insights.md).
import type { FactPlan, JoinStep, LeafMeasure } from './types.ts';

/** How a measure's first aggregate is aggregated again over the pre-aggregated rows. */
export const REAGGREGATE: Partial<Record<LeafMeasure['agg'], 'sum' | 'min' | 'max'>> = {
  sum: 'sum',
  count: 'sum',
  min: 'min',
  max: 'max',
};

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether SQL text reads a column of the cube aliased `alias` (`"products".x` or `products.x`). */
export function mentions(sql: string, alias: string): boolean {
  return new RegExp(`(?<![\\w"])${escapeRe(alias)}\\.`).test(sql);
}

export interface OuterJoin {
  join: JoinStep;
  /** The ON's equalities: [the fact side's expression, the dimension side's expression]. */
  keys: [string, string][];
}

export interface JoinSplit {
  /** The joins read while aggregating the fact (those its measures, time and segments need). */
  inner: JoinStep[];
  /** The dimension joins made after: only the keys and filters read them. */
  outer: OuterJoin[];
  /** Whether an expression reads any of the outer joins' cubes. */
  outside(sql: string): boolean;
}

/** The ON of a dimension join as equalities between the fact's side and the dimension's, or undefined. */
function equalities(on: string, alias: string, outerAliases: string[]): [string, string][] | undefined {
  // Literals or OR could hide an AND or an = that is not the condition's own.
  if (/'|\bOR\b/i.test(on)) return undefined;
  const out: [string, string][] = [];
  for (const part of on.split(/\s+AND\s+/i)) {
    const sides = part.split(/\s=\s/);
    if (sides.length !== 2) return undefined;
    const [a, b] = sides.map((s) => s.trim());
    const onlyOwn = (s: string) => mentions(s, alias) && !outerAliases.some((o) => o !== alias && mentions(s, o));
    const noOuter = (s: string) => !outerAliases.some((o) => mentions(s, o));
    if (onlyOwn(a) && noOuter(b)) out.push([b, a]);
    else if (onlyOwn(b) && noOuter(a)) out.push([a, b]);
    else return undefined;
  }
  return out.length ? out : undefined;
}

/**
 * The split of a breakdown's or top list's fact into the part aggregated first and the dimension
 * joins made after, or undefined where the plan must stay one join-then-aggregate: a measure that
 * cannot be aggregated again, no key of a joined cube, a cube whose access filters apply, or any
 * expression (time, segment, measure, key, a filter `conditions` holds) reading both sides, or
 * keys of more than one joined cube.
 */
export function splitJoins(f: FactPlan, conditions: readonly string[]): JoinSplit | undefined {
  if (!f.joins.length || f.measures.some((m) => !REAGGREGATE[m.agg])) return undefined;
  const fixed = [f.time ?? '', ...f.segments, ...f.measures.flatMap((m) => [m.sql ?? '', ...m.filters])];
  const candidates = f.joins.filter(
    (j) =>
      !j.source.access?.length &&
      f.keys.some((k) => mentions(k.sql, j.source.alias)) &&
      !fixed.some((s) => mentions(s, j.source.alias)) &&
      // A cube joined through this one (a child) would have to move with it: not split.
      !f.joins.some((o) => o !== j && mentions(o.on, j.source.alias)),
  );
  // One dimension join at most: aggregated first by the keys of two (order items by product and by
  // customer), the fact has a group for nearly every combination of their values (at 10 M orders,
  // millions of groups spilled past the memory ceiling, 1.9 × slower than joining first); by one
  // key, at most that cube's rows.
  if (candidates.length !== 1) return undefined;
  const outerAliases = candidates.map((j) => j.source.alias);
  const innerAliases = [f.source.alias, ...f.joins.filter((j) => !candidates.includes(j)).map((j) => j.source.alias)];
  const outside = (s: string) => outerAliases.some((a) => mentions(s, a));
  const mixed = (s: string) => outside(s) && innerAliases.some((a) => mentions(s, a));
  if ([...f.keys.map((k) => k.sql), ...conditions].some(mixed)) return undefined;
  const outer: OuterJoin[] = [];
  for (const join of candidates) {
    const keys = equalities(join.on, join.source.alias, outerAliases);
    if (!keys) return undefined;
    outer.push({ join, keys });
  }
  return { inner: f.joins.filter((j) => !candidates.includes(j)), outer, outside };
}
