// DuckDB's rollup tables: the standard statements (rollups/ddl.ts), but a table declared column by
// column so that its 128-bit columns are stored uncompressed (docs/performance.md §2).
import { STANDARD_ROLLUP_DDL, type RollupDdl } from '../rollups/ddl.ts';

/** A 128-bit integer type of DuckDB: HUGEINT, UHUGEINT, or a DECIMAL wider than 18 digits. */
const WIDE = /^(U?HUGEINT|INT128|DECIMAL\((19|[2-3]\d),\s*\d+\))$/i;

/**
 * DuckDB: the table is declared column by column with the SELECT's own types, and its 128-bit
 * columns (a sum of money is DECIMAL(38,2), a sum of integers HUGEINT) stored uncompressed. DuckDB
 * bit-packs them otherwise, and unpacking 128-bit values scans ~60× slower than any other column:
 * on 10 M orders, summing the orders.daily rollup's 55,480 revenue figures took 10–60 ms bit-packed,
 * under 1 ms uncompressed, for 16 bytes a row (docs/performance.md). The values and types are the
 * same, so every answer is too.
 */
export function duckDbRollupDdl(columnsOf: (select: string, params: unknown[]) => Promise<{ name: string; type: string }[]>): RollupDdl {
  return {
    ...STANDARD_ROLLUP_DDL,
    createAs: async (table, select, params) => {
      const columns = await columnsOf(select, params);
      const list = columns.map(
        (c) => `"${c.name.replace(/"/g, '""')}" ${c.type}${WIDE.test(c.type) ? ' USING COMPRESSION uncompressed' : ''}`,
      );
      return [{ sql: `CREATE TABLE ${table} (${list.join(', ')})` }, { sql: `INSERT INTO ${table} ${select}`, params }];
    },
  };
}
