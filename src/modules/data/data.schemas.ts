import { type Static, Type } from 'typebox';
import { Nullable } from '../../lib/schemas.ts';

export const TableParams = Type.Object({
  table: Type.String({
    pattern: '^[a-z_][a-z0-9_]{0,62}$',
    description: 'The table: a lower-case identifier; warehouse_*, pg_*, duckdb_* and reserved SQL words are refused',
  }),
});

export const LoadQuery = Type.Object(
  {
    mode: Type.Optional(
      Type.Enum(['append', 'replace'], {
        default: 'append',
        description: "append adds the rows; replace first removes the caller's tenant's rows (never another tenant's)",
      }),
    ),
    date_format: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 40,
        description:
          'How text dates are written, tried before detection: D.M.YYYY, M/D/YYYY, D/M/YYYY, MMM D YYYY, YYYY-MM-DD ' +
          'HH:mm… or strptime (%d/%m/%Y). See docs/data.md.',
      }),
    ),
    delimiter: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 3,
        description: 'CSV: the field delimiter (one character, or "tab"); detected from the header row when not given',
      }),
    ),
  },
  { additionalProperties: false },
);

const dataText = (description: string) => ({ schema: Type.String({ description }) });

/** The upload body per media type (read as a stream; see data.routes.ts). */
export const LoadBody = {
  content: {
    'text/csv': dataText('CSV with a header row naming the columns; no tenant_id column. May be sent with Content-Encoding: gzip.'),
    'text/tab-separated-values': dataText('Like text/csv, separated by tabs.'),
    'application/x-ndjson': dataText('One JSON object per line; its keys are the columns. No tenant_id key.'),
    'application/json': dataText('One JSON array of objects (or NDJSON); their keys are the columns. No tenant_id key.'),
  },
};

export const LoadResponse = Type.Object({
  table: Type.String(),
  mode: Type.Enum(['append', 'replace']),
  rows_loaded: Type.Integer({ minimum: 0 }),
  columns: Type.Array(
    Type.Object({
      name: Type.String(),
      type: Type.String({ description: 'As stored: BIGINT, DOUBLE, VARCHAR, DATE, TIMESTAMP, BOOLEAN…' }),
      date_format: Type.Optional(
        Type.String({ description: 'For text dates read as dates: how they were written (M/D/YYYY, MMM D YYYY…)' }),
      ),
    }),
    { description: "The file's columns and the types they were read as" },
  ),
});
export type LoadView = Static<typeof LoadResponse>;

export const TablesResponse = Type.Object({
  tables: Type.Array(
    Type.Object({
      name: Type.String(),
      row_count: Type.Integer({ minimum: 0, description: "The caller's tenant's rows" }),
      columns: Type.Array(
        Type.Object({
          name: Type.String(),
          type: Type.String({ description: 'BIGINT, DOUBLE, DECIMAL(p,s), VARCHAR, DATE, TIMESTAMP, BOOLEAN…' }),
        }),
        {
          description: 'Without the tenant_id column',
        },
      ),
      time_ranges: Type.Array(Type.Object({ column: Type.String(), min: Nullable(Type.String()), max: Nullable(Type.String()) }), {
        description: "The earliest and latest value of each DATE/TIMESTAMP column in the caller's tenant's rows (null when it has none)",
      }),
    }),
  ),
});
export type TableView = Static<typeof TablesResponse>['tables'][number];
