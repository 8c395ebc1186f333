// The few places where DuckDB and PostgreSQL SQL differ. Everything else the compiler emits is
// common SQL (FILTER clauses, FULL JOIN, LEFT JOIN, COALESCE, CAST).
import type { Granularity } from '../types.ts';

export interface Dialect {
  readonly name: 'duckdb' | 'postgres';
  /** The n-th bound parameter (1-based). */
  placeholder(n: number): string;
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
}
