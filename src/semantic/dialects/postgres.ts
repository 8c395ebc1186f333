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
  // strpos and left, not LIKE: a caller's % or _ is text to find, never a wildcard.
  contains: (text, p) => `strpos(lower(${text}), lower(CAST(${p} AS text))) > 0`,
  startsWith: (text, p) => `left(lower(${text}), length(CAST(${p} AS text))) = lower(CAST(${p} AS text))`,
  nullFigure: 'CAST(NULL AS numeric)',
  types: { date: 'date', text: 'text' },
};
