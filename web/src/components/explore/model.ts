// What the Explore page knows of the model (GET /api/v1/model, docs/query.md): members by name, the
// cubes reachable from the chosen measures along many_to_one joins, the operators a member takes.
import type { components } from '../../api-types.ts';

type S = components['schemas'];
export type Model = S['ModelDescription'];
export type Cube = Model['cubes'][number];
export type Query = S['SemanticQuery'];
export type QueryFilter = S['QueryFilter'];
export type Operator = QueryFilter['operator'];
export type QueryResult = S['QueryResult'];

export interface Member {
  name: string;
  title: string;
  cube: Cube;
  kind: 'measure' | 'dimension';
  /** time, string, number or boolean for a dimension; number for a measure. */
  type: string;
  listable: boolean;
  values?: string[];
}

/** Every measure and dimension of the model by its full name. */
export function membersOf(model: Model): Map<string, Member> {
  const out = new Map<string, Member>();
  for (const cube of model.cubes) {
    for (const m of cube.measures)
      out.set(m.name, { name: m.name, title: m.title, cube, kind: 'measure', type: 'number', listable: false });
    for (const d of cube.dimensions) out.set(d.name, { ...d, cube, kind: 'dimension', listable: d.values_listable, values: d.values });
  }
  return out;
}

/** A member as a person reads it: "Customers · Country" (titles repeat across cubes). */
export function labelOf(members: Map<string, Member>, name: string): string {
  const m = members.get(name);
  return m ? `${m.cube.title} · ${m.title}` : name;
}

/** A query's title in words: "Orders, Revenue by Country" (for its chart, table and widget). */
export function titleOf(members: Map<string, Member>, q: Query): string {
  const t = (n: string) => members.get(n)?.title ?? n;
  const by = [...(q.time?.granularity ? [q.time.granularity] : []), ...(q.dimensions ?? []).map(t)];
  return `${q.measures.map(t).join(', ')}${by.length ? ` by ${by.join(' and ')}` : ''}`;
}

const cubeOf = (member: string) => member.split('.')[0];

/** The cubes reachable from `cube` (itself included) along the joins, transitively. */
function reachable(model: Model, cube: string): Set<string> {
  const byName = new Map(model.cubes.map((c) => [c.name, c]));
  const seen = new Set([cube]);
  const todo = [cube];
  while (todo.length) {
    for (const j of byName.get(todo.pop()!)?.joins ?? []) {
      if (j.relationship === 'many_to_one' && !seen.has(j.cube)) {
        seen.add(j.cube);
        todo.push(j.cube);
      }
    }
  }
  return seen;
}

/** The cubes whose dimensions every chosen measure reaches (none when no measure is chosen). */
export function reachableCubes(model: Model, measures: string[]): Set<string> {
  if (!measures.length) return new Set();
  const sets = [...new Set(measures.map(cubeOf))].map((c) => reachable(model, c));
  return new Set([...sets[0]].filter((c) => sets.every((s) => s.has(c))));
}

export const isReachable = (cubes: Set<string>, member: string) => cubes.has(cubeOf(member));

export const OPERATOR_WORDS: Record<Operator, string> = {
  equals: 'is',
  not_equals: 'is not',
  contains: 'contains',
  not_contains: 'does not contain',
  starts_with: 'starts with',
  gt: 'greater than',
  gte: 'at least',
  lt: 'less than',
  lte: 'at most',
  between: 'between',
  set: 'has a value',
  not_set: 'has no value',
};

const COMPARING: Operator[] = ['gt', 'gte', 'lt', 'lte', 'between'];

/** The operators that fit a member's type (docs/query.md "Filters"). */
export function operatorsFor(m: Member | undefined): Operator[] {
  if (!m) return ['equals'];
  if (m.kind === 'measure') return ['gt', 'gte', 'lt', 'lte', 'between', 'equals', 'not_equals', 'set', 'not_set'];
  if (m.type === 'string') return ['equals', 'not_equals', 'contains', 'not_contains', 'starts_with', 'set', 'not_set'];
  if (m.type === 'boolean') return ['equals', 'not_equals', 'set', 'not_set'];
  return ['equals', 'not_equals', ...COMPARING, 'set', 'not_set'];
}

/** How many values an operator takes. */
export function arity(op: Operator): 'many' | 'one' | 'two' | 'none' {
  if (op === 'set' || op === 'not_set') return 'none';
  if (op === 'between') return 'two';
  return COMPARING.includes(op) ? 'one' : 'many';
}

/** The values as the API wants them: numbers for measures and number dimensions, true/false for booleans, text otherwise. */
export function typedValues(m: Member | undefined, values: (string | number | boolean)[]): (string | number | boolean)[] {
  const numeric = m && (m.kind === 'measure' || m.type === 'number');
  const typed = (v: string) => {
    if (numeric && Number.isFinite(Number(v))) return Number(v);
    if (m?.type === 'boolean' && (v === 'true' || v === 'false')) return v === 'true';
    return v;
  };
  return values.map((v) => (typeof v === 'string' ? v.trim() : v)).flatMap((v) => (v === '' ? [] : [typeof v === 'string' ? typed(v) : v]));
}

/** The query the form holds, cleaned for the API: empty parts left out, values typed. */
export function cleanQuery(q: Query, members: Map<string, Member>): Query {
  const out: Query = { measures: q.measures };
  if (q.dimensions?.length) out.dimensions = q.dimensions;
  if (q.time?.dimension) {
    const t = q.time;
    out.time = {
      dimension: t.dimension,
      ...(t.granularity ? { granularity: t.granularity } : {}),
      ...(t.date_from ? { date_from: t.date_from } : {}),
      ...(t.date_to ? { date_to: t.date_to } : {}),
    };
  }
  const filters = (q.filters ?? [])
    .filter((f) => f.member)
    .map((f) => {
      const values = typedValues(members.get(f.member), f.values ?? []);
      return arity(f.operator) === 'none' ? { member: f.member, operator: f.operator } : { ...f, values };
    });
  if (filters.length) out.filters = filters;
  if (q.segments?.length) out.segments = q.segments;
  const order = (q.order ?? []).filter((o) => o.member);
  if (order.length) out.order = order;
  if (q.limit) out.limit = q.limit;
  if (q.compare && out.time) out.compare = q.compare;
  return out;
}

/** The page's URL for a query: the query as JSON in `q`, so a link asks the same question. */
export function exploreUrl(q: Query | undefined): string {
  return q ? `/explore?q=${encodeURIComponent(JSON.stringify(q))}` : '/explore';
}

/** The query of the URL's `q`, when it is one (anything else: none). */
export function queryOfSearch(search: string): Query | undefined {
  const raw = new URLSearchParams(search).get('q');
  if (!raw) return undefined;
  try {
    const q = JSON.parse(raw) as Query;
    return q && Array.isArray(q.measures) ? q : undefined;
  } catch {
    return undefined;
  }
}
