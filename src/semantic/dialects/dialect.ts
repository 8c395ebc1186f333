// The few places where DuckDB, PostgreSQL and ClickHouse SQL differ. Everything else the compiler
// emits is common SQL (FILTER clauses, FULL JOIN, LEFT JOIN, COALESCE, CAST); ClickHouse reads it
// the standard way under the settings its warehouse sends with every query (docs/clickhouse.md).
import type { Granularity } from '../types.ts';

/** What a bound value is: ClickHouse names the type in the placeholder itself. */
export type ParamType = 'text' | 'int' | 'number' | 'boolean' | 'date' | 'timestamp';

export interface Dialect {
  readonly name: 'duckdb' | 'postgres' | 'clickhouse';
  /** The n-th bound parameter (1-based), of a type (text unless said). */
  placeholder(n: number, type?: ParamType): string;
  quote(identifier: string): string;
  /**
   * The bucket start of a time column, DATE or TIMESTAMP. The service reads the first 10
   * characters, so no cast is added where the engine does not need one.
   */
  bucket(g: Granularity, column: string): string;
  /** A bound parameter typed as a DATE or TIMESTAMP constant. */
  typedParam(placeholder: string, type: 'date' | 'timestamp'): string;
  /** A value as a double, so `number` measures divide the same way on every engine. */
  toDouble(sql: string): string;
  /** Whether text contains a bound text, in any case (both sides SQL). */
  contains(text: string, param: string): string;
  /** Whether text starts with a bound text, in any case. */
  startsWith(text: string, param: string): string;
  /**
   * A figure's column that a fact stacked under others (UNION ALL) does not compute. PostgreSQL
   * types the columns of a UNION pairwise, left to right: two untyped NULLs would become text.
   */
  readonly nullFigure: string;
  /** Type names for casts: a day and a text. */
  readonly types: { date: string; text: string };
}
