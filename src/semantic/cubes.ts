// The cubes of a model, indexed and checked as a whole: names, joins, references between SQL
// fragments, number measures, and the tenancy of derived cubes. SQL fragments are qualified here
// once ({CUBE} → "orders", a bare column → "orders"."revenue"), so the compiler only assembles.
import { issueAt, type ModelIssue, type ModelSource, type PathPart } from './issues.ts';
import type { CubeDef, DimensionDef, MeasureDef, SegmentDef } from './model.schema.ts';
import { didYouMean } from './shape.ts';
import type { AccessFilter, CubeSource, DerivedSql, Granularity, NumberToken, RollingWindow } from './types.ts';

export interface Located {
  src: ModelSource;
  path: PathPart[];
}

export interface MeasureInfo extends Located {
  cube: string;
  def: MeasureDef;
  /** Qualified SQL of the aggregated expression (not for count(*) and number). */
  sql?: string;
  filters: string[];
  /** Cubes the SQL and filters read besides their own. */
  refs: Set<string>;
  /** number measures: text and measure references (cube-qualified). */
  tokens?: NumberToken[];
  /** A moving window (rolling_window). */
  rolling?: RollingWindow;
}

export interface DimensionInfo extends Located {
  cube: string;
  def: DimensionDef;
  sql: string;
  refs: Set<string>;
}

export interface SegmentInfo extends Located {
  cube: string;
  def: SegmentDef;
  sql: string;
  refs: Set<string>;
}

export interface CubeInfo extends Located {
  def: CubeDef;
  name: string;
  source: CubeSource;
  /** Target cube → the qualified ON condition. */
  joins: Map<string, string>;
  measures: Map<string, MeasureInfo>;
  dimensions: Map<string, DimensionInfo>;
  segments: Map<string, SegmentInfo>;
}

export const quote = (id: string) => `"${id.replace(/"/g, '""')}"`;
const BARE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const REF = /\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)\}/g;

/** {CUBE} and {other} replaced by quoted aliases; a bare column name qualified by the cube. */
function qualify(sql: string, cube: string): { sql: string; refs: Set<string> } {
  const refs = new Set<string>();
  if (BARE.test(sql.trim())) return { sql: `${quote(cube)}.${quote(sql.trim())}`, refs };
  const out = sql.replace(REF, (_m, name: string) => {
    if (name === 'CUBE') return quote(cube);
    refs.add(name);
    return quote(name);
  });
  return { sql: out.trim(), refs };
}

/** Tables a derived cube's SQL reads without going through {cube}: they would be read whole. */
function directTableReads(sql: string, cubeRefsToo = false): string[] {
  const found: string[] = [];
  const re = cubeRefsToo
    ? /\b(?:FROM|JOIN)\s+(?!LATERAL\b|UNNEST\b)(\{?"?[A-Za-z_(][\w$]*"?\}?(?:\."?[A-Za-z_][\w$]*"?)?)/gi
    : /\b(?:FROM|JOIN)\s+(?!\(|\{|LATERAL\b|UNNEST\b)("?[A-Za-z_][\w$]*"?(?:\."?[A-Za-z_][\w$]*"?)?)/gi;
  for (let m = re.exec(sql); m; m = re.exec(sql)) {
    // FROM inside a function call (extract(year FROM x), substring(s FROM 2)) reads no table.
    let depth = 0;
    let open = -1;
    for (let i = m.index - 1; i >= 0; i--) {
      if (sql[i] === ')') depth++;
      else if (sql[i] === '(') {
        if (depth === 0) {
          open = i;
          break;
        }
        depth--;
      }
    }
    if (open >= 0 && /[\w]\s*$/.test(sql.slice(0, open)) && !/\bSELECT\b/i.test(sql.slice(open, m.index))) continue;
    found.push(m[1]);
  }
  // A comma join: FROM {orders} o, customers c.
  const comma = new RegExp(
    String.raw`\bFROM\s+(?:\{\w+\}|\([^()]*\)|"?[\w.]+"?)(?:\s+(?:AS\s+)?(?!WHERE\b|GROUP\b|ORDER\b|JOIN\b|LEFT\b|INNER\b|ON\b)\w+)?` +
      String.raw`\s*,\s*(?!\(|\{|LATERAL\b|UNNEST\b)("?[A-Za-z_][\w$]*"?)`,
    'gi',
  );
  for (const m of sql.matchAll(comma)) if (!/^(SELECT|WHERE|GROUP|ORDER)$/i.test(m[1])) found.push(m[1]);
  return found;
}

export function humanize(name: string): string {
  const s = name.replace(/_/g, ' ').trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Builds the cube index; every problem found goes to `issues`. */
export function indexCubes(sources: ModelSource[], issues: ModelIssue[]): Map<string, CubeInfo> {
  const cubes = new Map<string, CubeInfo>();
  const err = (src: ModelSource, path: PathPart[], message: string, ref?: string) => issues.push(issueAt(src, path, message, 'error', ref));

  for (const src of sources) {
    (src.data.cubes ?? []).forEach((def, ci) => {
      const path: PathPart[] = ['cubes', ci];
      if (cubes.has(def.name)) return err(src, [...path, 'name'], `cube "${def.name}" is declared twice`);
      if (Boolean(def.sql_table) === Boolean(def.sql)) err(src, path, 'needs exactly one of sql_table and sql');
      const alias = quote(def.name);
      const source: CubeSource = { alias, tenant: `${alias}.${quote(def.tenant_column)}` };
      if (def.sql_table) source.table = def.sql_table.split('.').map(quote).join('.');
      const access = accessFilters(def, [...path], (p, m) => err(src, p, m));
      if (access.length) source.access = access;
      cubes.set(def.name, {
        src,
        path,
        def,
        name: def.name,
        source,
        joins: new Map(),
        measures: new Map(),
        dimensions: new Map(),
        segments: new Map(),
      });
    });
  }

  for (const cube of cubes.values()) {
    const { src, def } = cube;
    const at = (...p: PathPart[]) => [...cube.path, ...p];
    // A member's SQL is an expression over the rows of its query; a subquery in it would read a
    // table without the tenant predicate, so reading rows is what derived cubes are for.
    const noReads = (sql: string, p: PathPart[]) => {
      for (const t of directTableReads(sql, true))
        err(src, at(...p), `reads ${t} in a subquery, which would see every tenant's rows; use a derived cube (sql:) instead`);
    };
    (def.joins ?? []).forEach((j, i) => noReads(j.sql, ['joins', i, 'sql']));
    (def.dimensions ?? []).forEach((d, i) => noReads(d.sql, ['dimensions', i, 'sql']));
    (def.segments ?? []).forEach((x, i) => noReads(x.sql, ['segments', i, 'sql']));
    (def.measures ?? []).forEach((m, i) => {
      if (m.sql) noReads(m.sql, ['measures', i, 'sql']);
      (m.filters ?? []).forEach((f, j) => noReads(f.sql, ['measures', i, 'filters', j, 'sql']));
    });
    if (def.sql) cube.source.derived = derivedSql(cube, cubes, (p, m, ref) => err(src, at(...p), m, ref));
    const names = new Set<string>();
    const unique = (name: string, p: PathPart[]) => {
      if (names.has(name)) err(src, p, `"${name}" is declared twice in cube ${def.name} (measures, dimensions and segments share names)`);
      names.add(name);
    };
    (def.joins ?? []).forEach((j, i) => {
      // Unnamed sides make the condition's columns ambiguous (or silently the wrong table's).
      if (!/\{CUBE\}/.test(j.sql))
        err(src, at('joins', i, 'sql'), `must name both cubes, as in {CUBE}.column = {${j.name}}.column: {CUBE} is missing`);
      if (!cubes.has(j.name))
        return err(src, at('joins', i, 'name'), `"${j.name}" is not a cube${didYouMean(j.name, [...cubes.keys()])}`, j.name);
      if (j.name === def.name) return err(src, at('joins', i, 'name'), 'a cube cannot join itself');
      if (cube.joins.has(j.name)) return err(src, at('joins', i, 'name'), `cube ${j.name} is joined twice`);
      const q = qualify(j.sql, def.name);
      for (const r of q.refs) if (r !== j.name) err(src, at('joins', i, 'sql'), `{${r}} is neither {CUBE} nor the joined cube {${j.name}}`);
      if (!q.refs.has(j.name))
        err(src, at('joins', i, 'sql'), `must name both cubes, as in {CUBE}.column = {${j.name}}.column: {${j.name}} is missing`);
      cube.joins.set(j.name, q.sql);
    });
    (def.dimensions ?? []).forEach((d, i) => {
      unique(d.name, at('dimensions', i, 'name'));
      const q = qualify(d.sql, def.name);
      if (d.pattern !== undefined) {
        try {
          new RegExp(d.pattern);
        } catch {
          err(src, at('dimensions', i, 'pattern'), 'is not a valid regular expression');
        }
      }
      cube.dimensions.set(d.name, { src, path: at('dimensions', i), cube: def.name, def: d, sql: q.sql, refs: q.refs });
    });
    (def.segments ?? []).forEach((s, i) => {
      unique(s.name, at('segments', i, 'name'));
      const q = qualify(s.sql, def.name);
      cube.segments.set(s.name, { src, path: at('segments', i), cube: def.name, def: s, sql: q.sql, refs: q.refs });
    });
    (def.measures ?? []).forEach((m, i) => {
      unique(m.name, at('measures', i, 'name'));
      const info: MeasureInfo = { src, path: at('measures', i), cube: def.name, def: m, filters: [], refs: new Set() };
      if (m.rolling_window) {
        if (m.type === 'number')
          err(src, at('measures', i, 'rolling_window'), 'a number measure combines other measures: give those the rolling_window');
        else info.rolling = rollingWindow(m.rolling_window);
      }
      if (m.type === 'number') {
        if (!m.sql) err(src, at('measures', i, 'sql'), 'a number measure needs sql, an expression over other measures');
        if (m.filters?.length) err(src, at('measures', i, 'filters'), 'a number measure takes no filters: filter the measures it combines');
        info.tokens = numberTokens(m.sql ?? '', def.name);
      } else {
        if (m.type !== 'count' && !m.sql) err(src, at('measures', i, 'sql'), `a ${m.type} measure needs sql`);
        if (m.sql) {
          const q = qualify(m.sql, def.name);
          info.sql = q.sql;
          q.refs.forEach((r) => info.refs.add(r));
        }
        for (const f of m.filters ?? []) {
          const q = qualify(f.sql, def.name);
          info.filters.push(q.sql);
          q.refs.forEach((r) => info.refs.add(r));
        }
      }
      cube.measures.set(m.name, info);
    });
  }

  // References: joined cubes must be reachable along many_to_one joins; number measures must
  // name measures; no cycles among number measures.
  for (const cube of cubes.values()) {
    const reach = reachable(cube.name, cubes);
    const checkRefs = (refs: Set<string>, path: PathPart[]) => {
      for (const r of refs) {
        if (r.includes('.')) err(cube.src, path, `{${r}}: only {CUBE} and {cube} references are allowed here`);
        else if (!cubes.has(r)) err(cube.src, path, `{${r}} is not a cube`, r);
        else if (!reach.has(r)) err(cube.src, path, `cube ${r} is not reachable from ${cube.name} through many_to_one joins`, 'joins');
      }
    };
    for (const m of cube.measures.values()) {
      if (m.tokens) {
        for (const t of m.tokens) {
          if (typeof t === 'string') continue;
          const [c, name] = t.measure.split('.');
          const target = cubes.get(c);
          if (!target?.measures.has(name))
            err(
              cube.src,
              [...m.path, 'sql'],
              `{${t.measure.startsWith(`${cube.name}.`) ? name : t.measure}} is not a ` +
                `measure${target ? didYouMean(name, [...target.measures.keys()]) : ''}`,
              t.measure,
            );
        }
      } else checkRefs(m.refs, [...m.path, m.def.sql ? 'sql' : 'filters']);
    }
    for (const d of cube.dimensions.values()) checkRefs(d.refs, [...d.path, 'sql']);
    for (const s of cube.segments.values()) checkRefs(s.refs, [...s.path, 'sql']);
  }
  for (const cube of cubes.values()) {
    for (const m of cube.measures.values()) {
      if (m.tokens && leafMeasures(`${cube.name}.${m.def.name}`, cubes, new Set()) === undefined) {
        err(cube.src, [...m.path, 'sql'], 'number measures refer to each other in a cycle');
      }
    }
  }
  return cubes;
}

/**
 * A cube's access filters, each on one of its own dimensions whose SQL reads only its own columns:
 * the predicate must hold on the cube's rows wherever they are read (as a fact, joined, inside a
 * derived cube, or as a rollup's column), so it cannot depend on another cube's join.
 */
function accessFilters(def: CubeDef, path: PathPart[], err: (p: PathPart[], message: string) => void): AccessFilter[] {
  const out: AccessFilter[] = [];
  (def.access_filters ?? []).forEach((a, i) => {
    const at = [...path, 'access_filters', i];
    const d = (def.dimensions ?? []).find((x) => x.name === a.dimension);
    if (!d)
      return err(
        [...at, 'dimension'],
        `"${a.dimension}" is not a dimension of cube ${def.name}${didYouMean(
          a.dimension,
          (def.dimensions ?? []).map((x) => x.name),
        )}`,
      );
    if (d.type === 'time')
      return err(
        [...at, 'dimension'],
        `${a.dimension} is a time dimension; an access filter compares a dimension with the caller's attribute values`,
      );
    const q = qualify(d.sql, def.name);
    if (q.refs.size)
      return err(
        [...at, 'dimension'],
        `${a.dimension} reads another cube ({${[...q.refs][0]}}); an access filter needs a dimension over the cube's own columns`,
      );
    if (out.some((x) => x.ref === `${def.name}.${a.dimension}` && x.attribute === a.attribute))
      return err(at, `the access filter ${a.dimension} = ${a.attribute} is declared twice`);
    out.push({ attribute: a.attribute, sql: q.sql, ref: `${def.name}.${a.dimension}` });
  });
  return out;
}

/** A rolling_window as the compiler reads it ("3 month", "unbounded", to_date). */
function rollingWindow(w: NonNullable<MeasureDef['rolling_window']>): RollingWindow {
  if ('type' in w) return { kind: 'to_date', granularity: w.granularity };
  const t = w.trailing.trim();
  if (t === 'unbounded') return { kind: 'unbounded' };
  const [, n, unit] = /^(\d+)\s+(day|week|month|quarter|year)s?$/.exec(t)!;
  return { kind: 'trailing', n: Number(n), unit: unit as Granularity };
}

/** `{m}` is a measure of the same cube, `{cube.m}` one of another cube. */
function numberTokens(sql: string, cube: string): NumberToken[] {
  const tokens: NumberToken[] = [];
  let last = 0;
  for (const m of sql.matchAll(REF)) {
    tokens.push(sql.slice(last, m.index));
    tokens.push({ measure: m[1].includes('.') ? m[1] : `${cube}.${m[1]}` });
    last = m.index! + m[0].length;
  }
  tokens.push(sql.slice(last));
  return tokens.filter((t) => t !== '');
}

/**
 * The leaf (non-number) measures a measure is computed from, in the order they are named;
 * undefined when number measures form a cycle.
 */
export function leafMeasures(ref: string, cubes: Map<string, CubeInfo>, visiting: Set<string>): string[] | undefined {
  const [c, name] = ref.split('.');
  const m = cubes.get(c)?.measures.get(name);
  if (!m) return [];
  if (!m.tokens) return [ref];
  if (visiting.has(ref)) return undefined;
  visiting.add(ref);
  const out: string[] = [];
  for (const t of m.tokens) {
    if (typeof t === 'string') continue;
    const leaves = leafMeasures(t.measure, cubes, visiting);
    if (!leaves) return undefined;
    for (const l of leaves) if (!out.includes(l)) out.push(l);
  }
  visiting.delete(ref);
  return out;
}

/** Cubes reachable from `from` along many_to_one joins, each with the cube it is joined from. */
export function reachable(from: string, cubes: Map<string, CubeInfo>): Map<string, string | null> {
  const parent = new Map<string, string | null>([[from, null]]);
  const queue = [from];
  while (queue.length) {
    const c = queue.shift()!;
    for (const target of cubes.get(c)?.joins.keys() ?? []) {
      if (!parent.has(target)) {
        parent.set(target, c);
        queue.push(target);
      }
    }
  }
  return parent;
}

/**
 * A derived cube reads other cubes as {cube}; each becomes a read of that cube's table restricted
 * to the caller's tenant, so its SQL never sees another tenant's rows. Reading a table directly
 * would bypass that, so it is refused.
 */
function derivedSql(cube: CubeInfo, cubes: Map<string, CubeInfo>, err: (p: PathPart[], m: string, ref?: string) => void): DerivedSql {
  const sql = cube.def.sql!;
  const parts: DerivedSql = [];
  let last = 0;
  for (const m of sql.matchAll(REF)) {
    parts.push(sql.slice(last, m.index));
    last = m.index! + m[0].length;
    const target = cubes.get(m[1]);
    if (!target) err(['sql'], `{${m[1]}} is not a cube`, m[1]);
    else if (!target.def.sql_table) err(['sql'], `{${m[1]}} is a derived cube; a derived cube reads table cubes only`);
    else if (target.source.access)
      parts.push({
        table: target.source.table!,
        tenantColumn: quote(target.def.tenant_column),
        alias: target.source.alias,
        access: target.source.access,
      });
    else parts.push({ table: target.source.table!, tenantColumn: quote(target.def.tenant_column) });
  }
  parts.push(sql.slice(last));
  for (const t of directTableReads(sql))
    err(['sql'], `reads ${t} directly; read cubes as {cube} so only the caller's tenant's rows are read`);
  if (!new RegExp(`\\b${cube.def.tenant_column}\\b`).test(sql))
    err(['tenant_column'], `the derived SQL must select ${cube.def.tenant_column}`);
  return parts.filter((p) => p !== '');
}
