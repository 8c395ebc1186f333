// Which column holds the tenant in a warehouse table: the model's words, not the loader's. A cube
// names its table's tenant column (`tenant_column: store`); a table no cube reads yet gets
// `tenant_id` when it is first loaded (docs/model.md "Tenancy", docs/data.md).
import type { SemanticModel } from './model.ts';

/** The tenant column of a table that no cube of the model reads. */
export const DEFAULT_TENANT_COLUMN = 'tenant_id';

/** A table's name → the column its tenant's id goes into. */
export type TenantColumnOf = (table: string) => string;

/** The last part of a cube's sql_table (`analytics.sales` → `sales`): the loader names tables without a schema. */
const tableName = (sqlTable: string) => sqlTable.split('.').pop()!;

/**
 * The tenant column of each table as the model declares it: the tenant_column of the (first) cube
 * whose sql_table is that table, else `tenant_id`. Derived cubes read other cubes, not tables.
 */
export function tenantColumns(model: Pick<SemanticModel, 'cubes'>): TenantColumnOf {
  const byTable = new Map<string, string>();
  for (const cube of model.cubes.values()) {
    if (!cube.def.sql_table) continue;
    const name = tableName(cube.def.sql_table).toLowerCase();
    if (!byTable.has(name)) byTable.set(name, cube.def.tenant_column);
  }
  return (table) => byTable.get(table.toLowerCase()) ?? DEFAULT_TENANT_COLUMN;
}

/** A column a model reads from a table, with the canonical type an API load creates it with. */
export interface ModelColumn {
  name: string;
  /** TIMESTAMP, DOUBLE, BOOLEAN or VARCHAR (the canonical names of src/warehouse/load.ts). */
  type: string;
  /** Written unquoted in the model: a file column of any case matches it (the engines fold it). */
  folded: boolean;
}

/** A table's name → the columns the model reads from it, or undefined where no cube reads it. */
export type ModelColumnsOf = (table: string) => ModelColumn[] | undefined;

const DIMENSION_TYPES: Record<string, string> = { time: 'TIMESTAMP', number: 'DOUBLE', boolean: 'BOOLEAN', string: 'VARCHAR' };
/** The measures that aggregate numbers: a column they read is a number. */
const NUMERIC_MEASURES = new Set(['sum', 'avg', 'min', 'max']);
/** How a model names a column of a cube in its qualified SQL (cubes.ts: `"cube"."Col"` or `"cube".col`). */
const columnRefs = (cube: string) =>
  new RegExp(`"${cube.replace(/"/g, '""').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"\\.(?:"((?:[^"]|"")+)"|([A-Za-z_][A-Za-z0-9_$]*))`, 'g');

/** A column compared with a text literal (`{CUBE}.status = 'done'`, `IN ('a', …)`) holds text. */
const comparedToText = (sql: string, end: number) => /^\s*(?:=|<>|!=|(?:NOT\s+)?(?:I?LIKE|IN))\s*\(?\s*'/i.test(sql.slice(end));

/**
 * The columns the model reads from each table and the type it reads them as (docs/data.md "The
 * schema belongs to the model"). Only the model decides, never the data of whichever tenant loads
 * first:
 * - a dimension whose SQL is one column: the dimension's type (time → TIMESTAMP, number → DOUBLE,
 *   boolean → BOOLEAN, string → VARCHAR); this wins over everything below;
 * - a sum, avg, min or max measure or a number dimension: the columns its SQL names are DOUBLE
 *   (one compared with a text literal stays VARCHAR); a time dimension's expression: TIMESTAMP;
 * - any other column the SQL names as `{CUBE}.column` or `{cube}.column` (filters, segments, joins,
 *   count_distinct, string and boolean expressions): VARCHAR.
 */
export function modelColumns(model: Pick<SemanticModel, 'cubes'>): ModelColumnsOf {
  const tableOfCube = new Map<string, string>();
  for (const cube of model.cubes.values()) if (cube.def.sql_table) tableOfCube.set(cube.name, tableName(cube.def.sql_table).toLowerCase());
  const found = new Map<string, Map<string, { type: string; rank: number; folded: boolean }>>();
  for (const table of tableOfCube.values()) found.set(table, new Map());
  /** `type` is what the fragment is read as: DOUBLE (numbers), TIMESTAMP (times), else VARCHAR. */
  const note = (sql: string | undefined, type: string, declared?: string) => {
    if (!sql) return;
    for (const [cube, table] of tableOfCube) {
      for (const m of sql.matchAll(columnRefs(cube))) {
        const name = m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2].toLowerCase();
        let seen: { type: string; rank: number };
        if (declared && sql.trim() === m[0]) seen = { type: declared, rank: 3 };
        else if (type === 'VARCHAR' || comparedToText(sql, m.index! + m[0].length)) seen = { type: 'VARCHAR', rank: 0 };
        else seen = { type, rank: type === 'DOUBLE' ? 2 : 1 };
        const columns = found.get(table)!;
        const had = columns.get(name);
        if (!had || had.rank < seen.rank) columns.set(name, { ...seen, folded: m[1] === undefined });
      }
    }
  };
  for (const cube of model.cubes.values()) {
    for (const d of cube.dimensions.values()) {
      const type = DIMENSION_TYPES[d.def.type] ?? 'VARCHAR';
      note(d.sql, type === 'BOOLEAN' ? 'VARCHAR' : type, type);
    }
    for (const m of cube.measures.values()) {
      note(m.sql, NUMERIC_MEASURES.has(m.def.type) ? 'DOUBLE' : 'VARCHAR');
      for (const f of m.filters) note(f, 'VARCHAR');
    }
    for (const s of cube.segments.values()) note(s.sql, 'VARCHAR');
    for (const on of cube.joins.values()) note(on, 'VARCHAR');
  }
  // A join key takes the type the other side of its `=` has (text = number fails on PostgreSQL).
  const ref = `"((?:[^"]|"")+)"\\.(?:"((?:[^"]|"")+)"|([A-Za-z_][A-Za-z0-9_$]*))`;
  const entry = (m: string[], at: number) => {
    const table = tableOfCube.get(m[at].replace(/""/g, '"'));
    const name = m[at + 1] !== undefined ? m[at + 1].replace(/""/g, '"') : m[at + 2]?.toLowerCase();
    return table && name ? found.get(table)?.get(name) : undefined;
  };
  for (const cube of model.cubes.values())
    for (const on of cube.joins.values())
      for (const m of on.matchAll(new RegExp(`${ref}\\s*=\\s*${ref}`, 'g'))) {
        const [a, b] = [entry(m, 1), entry(m, 4)];
        if (a && b && a.rank === 0 && b.rank > 0) Object.assign(a, { type: b.type, rank: 1 });
        else if (a && b && b.rank === 0 && a.rank > 0) Object.assign(b, { type: a.type, rank: 1 });
      }
  const byTable = new Map<string, ModelColumn[]>();
  for (const [table, columns] of found)
    byTable.set(
      table,
      [...columns].map(([name, c]) => ({ name, type: c.type, folded: c.folded })),
    );
  return (table) => byTable.get(table.toLowerCase());
}
