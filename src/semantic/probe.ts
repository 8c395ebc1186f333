// Checks a valid model against the warehouse: every cube's source, tenant column, measure and
// dimension is compiled and run with `WHERE 1 = 0`, so the engine resolves every table and column
// without reading a row. What fails is a warning, never an error: data may be loaded later.
import type { ModelIssue, PathPart } from './load.ts';
import { issueAt } from './load.ts';
import type { SemanticModel } from './model.ts';
import type { CubeInfo } from './cubes.ts';

export interface ProbeTarget {
  query(sql: string, params?: unknown[]): Promise<unknown[]>;
}

function fromSql(cube: CubeInfo, model: SemanticModel, reach: Set<string>): string {
  const s = cube.source;
  let sql = s.table
    ? s.table === s.alias
      ? s.table
      : `${s.table} AS ${s.alias}`
    : `(${s.derived!.map((p) => (typeof p === 'string' ? p : `(SELECT * FROM ${p.table} WHERE 1 = 0)`)).join('')}) AS ${s.alias}`;
  // Joined cubes are part of the FROM, so members that read them ({orders}.status) resolve too.
  for (const target of reach) {
    const t = model.cubes.get(target)!;
    const on = [...model.cubes.values()].find((c) => c.joins.has(target) && (c === cube || reach.has(c.name)))?.joins.get(target);
    if (!on || !t.source.table) continue;
    sql += ` LEFT JOIN ${t.source.table === t.source.alias ? t.source.table : `${t.source.table} AS ${t.source.alias}`} ON ${on}`;
  }
  return sql;
}

function firstLine(err: unknown): string {
  return String(err instanceof Error ? err.message : err).split('\n')[0];
}

export async function probeModel(model: SemanticModel, warehouse: ProbeTarget): Promise<ModelIssue[]> {
  const warnings: ModelIssue[] = [];
  const warn = (cube: CubeInfo, path: PathPart[], message: string) => warnings.push(issueAt(cube.src, [...cube.path, ...path], message, 'warning'));
  for (const cube of model.cubes.values()) {
    const reach = new Set<string>();
    const queue = [cube.name];
    while (queue.length) for (const t of model.cubes.get(queue.shift()!)!.joins.keys()) if (!reach.has(t) && t !== cube.name) (reach.add(t), queue.push(t));
    let from: string;
    try {
      from = fromSql(cube, model, new Set([...reach].filter((r) => model.cubes.get(r)!.source.table)));
      await warehouse.query(`SELECT ${cube.source.tenant} FROM ${from} WHERE 1 = 0`);
    } catch (err) {
      // Without its table (or its tenant column) nothing else of the cube can be checked.
      warn(cube, [cube.def.sql_table ? 'sql_table' : 'sql'], `the warehouse cannot read it: ${firstLine(err)}`);
      continue;
    }
    for (const d of cube.dimensions.values()) {
      await warehouse.query(`SELECT ${d.sql} FROM ${from} WHERE 1 = 0`).catch((err) => warn(cube, [...d.path.slice(cube.path.length), 'sql'], firstLine(err)));
    }
    for (const s of cube.segments.values()) {
      await warehouse.query(`SELECT 1 FROM ${from} WHERE ${s.sql} AND 1 = 0`).catch((err) => warn(cube, [...s.path.slice(cube.path.length), 'sql'], firstLine(err)));
    }
    for (const m of cube.measures.values()) {
      if (m.tokens) continue;
      const agg = m.def.type === 'count' ? (m.sql ? `count(${m.sql})` : 'count(*)') : m.def.type === 'count_distinct' ? `count(DISTINCT ${m.sql})` : `${m.def.type}(${m.sql})`;
      const filter = m.filters.length ? ` FILTER (WHERE ${m.filters.map((f) => `(${f})`).join(' AND ')})` : '';
      await warehouse.query(`SELECT ${agg}${filter} FROM ${from} WHERE 1 = 0`).catch((err) => warn(cube, [...m.path.slice(cube.path.length), 'sql'], firstLine(err)));
    }
  }
  return warnings;
}
