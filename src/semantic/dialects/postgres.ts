import type { Dialect } from './dialect.ts';

export const postgresDialect: Dialect = {
  name: 'postgres',
  placeholder: (n) => `$${n}`,
  quote: (id) => `"${id.replace(/"/g, '""')}"`,
  // date_trunc(text, date) resolves to the timestamptz overload and so depends on the session
  // time zone; a DATE column goes through timestamp (without zone) instead.
  bucket(g, column, type) {
    if (g === 'day') return type === 'date' ? column : `CAST(${column} AS date)`;
    return type === 'date' ? `date_trunc('${g}', CAST(${column} AS timestamp))` : `date_trunc('${g}', ${column})`;
  },
  typedParam: (p, type) => `CAST(${p} AS ${type === 'date' ? 'date' : 'timestamp'})`,
};
