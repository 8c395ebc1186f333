// The warehouse reads of the data module: which tables there are and what the caller's tenant has
// in each. Tenant scoping happens here.
import { isTimeType, quoteIdent } from '../../warehouse/load/rules.ts';
import type { Warehouse } from '../../warehouse/warehouse.ts';
import type { TenantColumnOf } from '../../semantic/tenancy.ts';

export interface TableSummary {
  name: string;
  columns: { name: string; type: string }[];
  rowCount: number;
  timeRanges: { column: string; min: string | null; max: string | null }[];
}

export class DataRepository {
  constructor(
    private readonly warehouse: Warehouse,
    /** The model's tenant column per table (tenant_id where no cube reads it). */
    private readonly tenantColumnOf?: TenantColumnOf,
  ) {}

  /** The tables named, in that order; one not in the warehouse yet is listed empty. */
  async listTables(tenantId: string, names: readonly string[]): Promise<TableSummary[]> {
    const asText = (sql: string) => this.warehouse.timeText(sql);
    const out: TableSummary[] = [];
    const existing = new Map((await this.warehouse.tables(this.tenantColumnOf)).map((t) => [t.name, t]));
    for (const name of names) {
      const table = existing.get(name);
      if (!table) {
        out.push({ name, columns: [], rowCount: 0, timeRanges: [] });
        continue;
      }
      const times = table.columns.filter((c) => isTimeType(c.type));
      const ranges = times.flatMap((c, i) => [
        `${asText(`min(${quoteIdent(c.name)})`)} AS min_${i}`,
        `${asText(`max(${quoteIdent(c.name)})`)} AS max_${i}`,
      ]);
      const [row] = await this.warehouse.query(
        `SELECT ${['count(*) AS row_count', ...ranges].join(', ')} FROM ${quoteIdent(table.name)} WHERE ` +
          `${quoteIdent(table.tenantColumn)} = $1`,
        [tenantId],
        { tenant: tenantId },
      );
      out.push({
        name: table.name,
        columns: table.columns,
        rowCount: Number(row.row_count),
        timeRanges: times.map((c, i) => ({
          column: c.name,
          min: (row[`min_${i}`] as string | null) ?? null,
          max: (row[`max_${i}`] as string | null) ?? null,
        })),
      });
    }
    return out;
  }
}
