// The tables a load may go into, the same on every engine: each engine lists its columns as
// (table, column, canonical type) rows, and these rules decide which tables carry a tenant column
// and whether a load's target may take tenants' rows.
import { LoadError, TENANT_COLUMN, type Column, type WarehouseTable } from './rules.ts';
import type { TenantColumnOf } from '../../semantic/tenancy.ts';

/** Every table of the warehouse: those with their tenant column, and the names of all. */
export interface FoundTables {
  tables: WarehouseTable[];
  all: Set<string>;
}

/**
 * Groups (table, column, type) rows into the tables a tenant can load into or read: those with
 * their tenant column (the model's for that table, tenant_id by default; matched without regard to
 * case, as the engines do).
 */
export function groupTables(
  rows: { table: string; column: string; type: string }[],
  tenantColumnOf: TenantColumnOf = () => TENANT_COLUMN,
): FoundTables {
  const byName = new Map<string, Column[]>();
  for (const r of rows) {
    let columns = byName.get(r.table);
    if (!columns) byName.set(r.table, (columns = []));
    columns.push({ name: r.column, type: r.type });
  }
  const tables: WarehouseTable[] = [];
  for (const [name, columns] of byName) {
    if (name.startsWith('warehouse_')) continue;
    const wanted = tenantColumnOf(name);
    const tenant = columns.find((c) => c.name === wanted) ?? columns.find((c) => c.name.toLowerCase() === wanted.toLowerCase());
    if (tenant) tables.push({ name, columns: columns.filter((c) => c !== tenant), tenantColumn: tenant.name });
  }
  return { tables, all: new Set(byName.keys()) };
}

/** Finds the table a load goes into; a table without its tenant column cannot take tenant rows. */
export function targetTable(table: string, found: FoundTables, tenantColumn: string = TENANT_COLUMN): WarehouseTable | undefined {
  const existing = found.tables.find((t) => t.name === table);
  if (!existing && found.all.has(table)) {
    throw new LoadError(
      'input',
      `Table ${table} exists without a ${tenantColumn} column (the model's tenant_column for it), so it cannot hold ` +
        `tenants' rows; name its tenant column in the model, or load into another table.`,
      { table: true },
    );
  }
  return existing;
}
