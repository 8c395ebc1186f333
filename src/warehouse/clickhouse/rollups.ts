// Rollup tables on ClickHouse (rollups/ddl.ts): no transactions, so a whole build fills a table
// aside and swaps it in with EXCHANGE TABLES (readers see the old rows or the new, never none),
// and a tenant's refresh deletes and inserts only while that tenant's state row is already stale
// (its load bumped the data version first), so no reader takes the half-written rows for current.
// ClickHouse has databases, not schemas: "insights_rollups"."x" is the table insights_rollups__x of
// the warehouse's own database (ClickHouseWarehouse rewrites the qualifier in every statement), so
// services sharing a server in different databases never share rollups.
import { chQuote, createTable, createTableAs, deleteRows, dropTable, exchangeTables, type ClickHouseTopology } from './ddl.ts';
import type { RollupDdl } from '../rollups/ddl.ts';

/** "insights_rollups"."orders__daily" → insights_rollups__orders__daily; `"schema"."name"` in general. */
export function flatRollupName(table: string): string {
  const m = /^"([^"]+)"\."([^"]+)"$/.exec(table);
  return m ? `${m[1]}__${m[2]}` : table.replace(/"/g, '');
}

/** Every `"insights_rollups"."x"` of a statement (outside string literals) as its flat table. */
export function rewriteRollupQualifier(sql: string, schema: string): string {
  if (!sql.includes(`"${schema}".`)) return sql;
  const re = new RegExp(`'(?:[^'\\\\]|\\\\.|'')*'|"${schema}"\\."([^"]+)"`, 'g');
  return sql.replace(re, (m, name?: string) => (name === undefined ? m : chQuote(`${schema}__${name}`)));
}

const KEY = ['__tenant', '__bucket'];

export function clickhouseRollupDdl(t: ClickHouseTopology): RollupDdl {
  const create = (table: string, select: string, params: unknown[], opts: { empty?: boolean; ifNotExists?: boolean } = {}) =>
    createTableAs(t, flatRollupName(table), KEY, '__tenant', select, opts).map((sql) => ({
      sql,
      params: /\{p\d+:|\$\d/.test(sql) ? params : [],
    }));
  return {
    schema: (_schema, state) =>
      createTable(t, {
        name: flatRollupName(state),
        columns: [
          '"rollup" String',
          '"tenant" String',
          '"definition" String',
          '"data_version" String',
          '"version" String',
          '"built_at" DateTime64(6)',
        ],
        orderBy: ['rollup', 'tenant'],
        tenant: false,
      }).join(';\n'),
    problems: (table) =>
      createTable(t, {
        name: flatRollupName(table),
        columns: ['"rollup" String', '"tenant" String', '"problem" String', '"attempts" Int32', '"failed_at" DateTime64(6)'],
        orderBy: ['rollup', 'tenant'],
        tenant: false,
      }).join(';\n'),
    createAs: (table, select, params) => create(table, select, params),
    replace: (building, table, _name, select, params) => [
      ...create(table, select, params, { empty: true, ifNotExists: true }),
      { sql: exchangeTables(t, flatRollupName(building), flatRollupName(table)) },
      ...dropTable(t, flatRollupName(building)).map((sql) => ({ sql })),
    ],
    drop: (table) => dropTable(t, flatRollupName(table)).map((sql) => ({ sql })),
    delete: (table, where, params) => ({ sql: deleteRows(t, flatRollupName(table), where), params }),
  };
}
