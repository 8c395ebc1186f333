import type { Dialect } from './dialect.ts';

export const duckdbDialect: Dialect = {
  name: 'duckdb',
  placeholder: (n) => `$${n}`,
  quote: (id) => `"${id.replace(/"/g, '""')}"`,
  // date_trunc works on TIMESTAMP and DATE alike; casting the column first costs a conversion per
  // row for nothing. A day of a TIMESTAMP needs its one CAST to DATE (a no-op on a DATE).
  bucket(g, column) {
    if (g === 'day') return `CAST(${column} AS DATE)`;
    return `date_trunc('${g}', ${column})`;
  },
  typedParam: (p, type) => `CAST(${p} AS ${type === 'date' ? 'DATE' : 'TIMESTAMP'})`,
  toDouble: (sql) => `CAST(${sql} AS DOUBLE)`,
  contains: (text, p) => `contains(lower(${text}), lower(${p}))`,
  startsWith: (text, p) => `starts_with(lower(${text}), lower(${p}))`,
  nullFigure: 'NULL',
  types: { date: 'DATE', text: 'VARCHAR' },
};
