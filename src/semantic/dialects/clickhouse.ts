import type { Dialect, ParamType } from './dialect.ts';

// Parameters are ClickHouse's own {name:Type} placeholders, sent beside the query (HTTP param_pN),
// never spliced. Timestamps are read in UTC whatever the server's zone (docs/clickhouse.md "Time").
const TYPES: Record<ParamType, string> = {
  text: 'String',
  int: 'Int64',
  number: 'Float64',
  boolean: 'Bool',
  date: 'Date32',
  timestamp: "DateTime64(6, 'UTC')",
};

export const clickhouseDialect: Dialect = {
  name: 'clickhouse',
  placeholder: (n, type = 'text') => `{p${n}:${TYPES[type]}}`,
  quote: (id) => `"${id.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`,
  // toMonday and toStartOf* take DATE and DateTime alike; on a DateTime they read the column's zone,
  // and the service's columns have none (the session's zone, UTC, applies).
  bucket(g, column) {
    switch (g) {
      case 'day':
        return `toDate32(${column})`;
      case 'week':
        return `toMonday(${column})`;
      case 'month':
        return `toStartOfMonth(${column})`;
      case 'quarter':
        return `toStartOfQuarter(${column})`;
      case 'year':
        return `toStartOfYear(${column})`;
    }
  },
  // A placeholder already typed as wanted stays as it is; a text one (rollup builds) is converted.
  typedParam: (p, type) => (p.endsWith(`:${TYPES[type]}}`) ? p : `CAST(${p} AS ${TYPES[type] === 'Date32' ? 'Date32' : TYPES[type]})`),
  // toFloat64 keeps NULL (an empty window's sum) a NULL, as CAST does on the other engines.
  toDouble: (sql) => `toFloat64(${sql})`,
  contains: (text, p) => `positionCaseInsensitiveUTF8(${text}, ${p}) > 0`,
  startsWith: (text, p) => `startsWith(lowerUTF8(${text}), lowerUTF8(${p}))`,
  nullFigure: 'NULL',
  types: { date: 'Date32', text: 'String' },
};
