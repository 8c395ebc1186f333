// Checks a valid model against the warehouse: every cube's source, tenant column, measure and
// dimension is compiled and run with `WHERE 1 = 0`, so the engine resolves every table and column
// without reading a row. What fails is a warning (data may be loaded later), except a table that
// exists without its cube's tenant column: no load can fix that, and every query of the cube
// would fail, so it is an error.
import { issueAt, type ModelIssue, type PathPart } from './issues.ts';
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

/** A table of the model that lacks its cube's tenant column, in the words check and query use. */
export function tenantColumnMissing(table: string, column: string, cube: string): string {
  return (
    `table ${table} has no column ${column}, which cube ${cube} declares as its tenant_column: ` +
    `name the table's tenant column there (a table loaded while no cube read it has tenant_id), or load the data into a table of a new name`
  );
}

const quoted = (name: string) =>
  name
    .split('.')
    .map((p) => `"${p.replace(/"/g, '""')}"`)
    .join('.');

/** Why the warehouse cannot read a table (the engine's first line), or undefined when it can. */
export async function unreadableTable(warehouse: ProbeTarget, table: string): Promise<string | undefined> {
  try {
    await warehouse.query(`SELECT 1 FROM ${quoted(table)} WHERE 1 = 0`);
    return undefined;
  } catch (err) {
    return firstLine(err);
  }
}

/** Why a table a cube reads cannot be queried: it is missing, or lacks the tenant column; else undefined. */
export async function tableProblem(
  warehouse: ProbeTarget,
  use: { table: string; cube: string; tenantColumn: string },
): Promise<{ missing: boolean; message: string } | undefined> {
  try {
    await warehouse.query(`SELECT ${quoted(use.tenantColumn)} FROM ${quoted(use.table)} WHERE 1 = 0`);
    return undefined;
  } catch (err) {
    if ((await unreadableTable(warehouse, use.table)) !== undefined) return { missing: true, message: firstLine(err) };
    return { missing: false, message: tenantColumnMissing(use.table, use.tenantColumn, use.cube) };
  }
}

function firstLine(err: unknown): string {
  const line = String(err instanceof Error ? err.message : err).split('\n')[0];
  // Two cubes with a column of that name, one of them unnamed in the SQL.
  const ambiguous = /Ambiguous (?:reference to )?column(?: reference)?(?: name)? "([^"]+)"/i.exec(line);
  return ambiguous ? `${line} — write {CUBE}.${ambiguous[1]} for this cube's column, {other}.${ambiguous[1]} for a joined cube's` : line;
}

/**
 * What the warehouse lacks of the model (warnings), and tables without their tenant column
 * (errors); `only` limits the check to some cubes (the insight engine, after a query failed).
 */
export async function probeModel(model: SemanticModel, warehouse: ProbeTarget, only?: ReadonlySet<string>): Promise<ModelIssue[]> {
  const warnings: ModelIssue[] = [];
  const warn = (cube: CubeInfo, path: PathPart[], message: string) =>
    warnings.push(issueAt(cube.src, [...cube.path, ...path], message, 'warning'));
  for (const cube of model.cubes.values()) {
    if (only && !only.has(cube.name)) continue;
    if (cube.def.sql_table) {
      const problem = await tableProblem(warehouse, { table: cube.def.sql_table, cube: cube.name, tenantColumn: cube.def.tenant_column });
      if (problem && !problem.missing) {
        warnings.push(issueAt(cube.src, [...cube.path, 'tenant_column'], problem.message, 'error'));
        continue;
      }
    }
    const reach = new Set<string>();
    const queue = [cube.name];
    while (queue.length)
      for (const t of model.cubes.get(queue.shift()!)!.joins.keys()) if (!reach.has(t) && t !== cube.name) reach.add(t), queue.push(t);
    const own = fromSql(cube, model, new Set());
    try {
      await warehouse.query(`SELECT ${cube.source.tenant} FROM ${own} WHERE 1 = 0`);
    } catch (err) {
      // Without its table nothing else of the cube can be checked.
      warn(cube, [cube.def.sql_table ? 'sql_table' : 'sql'], `the warehouse cannot read it: ${firstLine(err)}`);
      continue;
    }
    // Each join on its own first, so a wrong condition is reported where it is written.
    let joinsRead = true;
    for (const [i, j] of (cube.def.joins ?? []).entries()) {
      const target = model.cubes.get(j.name);
      if (!target?.source.table) continue;
      await warehouse.query(`SELECT 1 FROM ${fromSql(cube, model, new Set([j.name]))} WHERE 1 = 0`).catch((err) => {
        joinsRead = false;
        warn(cube, ['joins', i, 'sql'], firstLine(err));
      });
    }
    const from = fromSql(cube, model, new Set([...reach].filter((r) => model.cubes.get(r)!.source.table)));
    // A join further on is reported by the cube that declares it.
    if (
      !joinsRead ||
      !(await warehouse.query(`SELECT 1 FROM ${from} WHERE 1 = 0`).then(
        () => true,
        () => false,
      ))
    )
      continue;
    for (const d of cube.dimensions.values()) {
      await warehouse
        .query(`SELECT ${d.sql} FROM ${from} WHERE 1 = 0`)
        .catch((err) => warn(cube, [...d.path.slice(cube.path.length), 'sql'], firstLine(err)));
    }
    for (const s of cube.segments.values()) {
      await warehouse
        .query(`SELECT 1 FROM ${from} WHERE ${s.sql} AND 1 = 0`)
        .catch((err) => warn(cube, [...s.path.slice(cube.path.length), 'sql'], firstLine(err)));
    }
    for (const m of cube.measures.values()) {
      if (m.tokens) continue;
      const agg =
        m.def.type === 'count'
          ? m.sql
            ? `count(${m.sql})`
            : 'count(*)'
          : m.def.type === 'count_distinct'
            ? `count(DISTINCT ${m.sql})`
            : `${m.def.type}(${m.sql})`;
      const at = m.path.slice(cube.path.length);
      await warehouse.query(`SELECT ${agg} FROM ${from} WHERE 1 = 0`).catch((err) => warn(cube, [...at, 'sql'], firstLine(err)));
      for (const [j, f] of m.filters.entries()) {
        await warehouse
          .query(`SELECT count(*) FILTER (WHERE ${f}) FROM ${from} WHERE 1 = 0`)
          .catch((err) => warn(cube, [...at, 'filters', j, 'sql'], firstLine(err)));
      }
    }
  }
  return warnings;
}
