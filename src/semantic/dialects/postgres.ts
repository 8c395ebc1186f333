import type { Dialect } from './dialect.ts';

export const postgresDialect: Dialect = {
  name: 'postgres',
  placeholder: (n) => `$${n}`,
  quote: (id) => `"${id.replace(/"/g, '""')}"`,
  // date_trunc(text, date) resolves to the timestamptz overload and so depends on the session
  // time zone; the column goes through timestamp (without zone) instead, a no-op on a TIMESTAMP.
  bucket(g, column) {
    if (g === 'day') return `CAST(${column} AS date)`;
    return `date_trunc('${g}', CAST(${column} AS timestamp))`;
  },
  typedParam: (p, type) => `CAST(${p} AS ${type === 'date' ? 'date' : 'timestamp'})`,
  toDouble: (sql) => `CAST(${sql} AS double precision)`,
  types: { date: 'date', text: 'text' },
};
