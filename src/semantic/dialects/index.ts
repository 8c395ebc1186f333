import { clickhouseDialect } from './clickhouse.ts';
import type { Dialect } from './dialect.ts';
import { duckdbDialect } from './duckdb.ts';
import { postgresDialect } from './postgres.ts';

export type { Dialect, ParamType } from './dialect.ts';
export const DIALECTS: Record<Dialect['name'], Dialect> = {
  duckdb: duckdbDialect,
  postgres: postgresDialect,
  clickhouse: clickhouseDialect,
};
