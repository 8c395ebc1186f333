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
