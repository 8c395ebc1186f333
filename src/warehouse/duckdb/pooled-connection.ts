// One connection of the DuckDB read pool, keeping its reads as prepared statements
// (docs/performance.md §14). A read used to be five round trips through libuv's thread pool, each
// resumed by the main thread's event loop: extract the statement, prepare it (DuckDB parses, binds
// and plans), execute, fetch a chunk, fetch the empty chunk that says there are no more. Under
// mixed traffic the event loop is busy and every round trip waited for it. Now a text seen before
// is executed at once (one round trip) and its chunks are taken from the materialized result
// without another: DuckDB re-binds a kept statement itself when a table it reads was replaced
// (a rollup build's swap).
//
// A statement whose execution failed is destroyed, never run again: a failed or interrupted
// execution (out of memory) leaves it in a state the next run must not meet. The pool runs one
// read at a time on a connection, so a kept statement is never used by two reads at once.
import {
  type DuckDBConnection,
  type DuckDBPreparedStatement,
  type DuckDBValue,
  JsonDuckDBValueConverter,
  type Json,
} from '@duckdb/node-api';

/** How many statement texts a connection keeps (the least recently used is destroyed beyond). */
const KEPT = 64;

/** A read's answer: its columns (names as DuckDB gives them, types as SQL names) and rows as JSON values. */
export interface PooledRead {
  names: string[];
  types: string[];
  rows: Record<string, Json>[];
}

export class PooledConnection {
  /** Prepared statements by text, least recently used first. */
  private readonly kept = new Map<string, DuckDBPreparedStatement>();

  constructor(private readonly conn: DuckDBConnection) {}

  /** One SELECT with its parameters. */
  async read(sql: string, params?: DuckDBValue[]): Promise<PooledRead> {
    let statement = this.kept.get(sql);
    if (statement) this.kept.delete(sql);
    else statement = await this.conn.prepare(sql);
    let answer: PooledRead;
    try {
      if (params) statement.bind(params);
      const result = await statement.run();
      const names = result.columnNames();
      const keys = result.deduplicatedColumnNames();
      const rows: Record<string, Json>[] = [];
      for (let c = 0, chunks = result.chunkCount; c < chunks; c++) {
        const chunk = result.getChunk(c);
        for (let r = 0, n = chunk.rowCount; r < n; r++) {
          const row: Record<string, Json> = {};
          chunk.visitRowValues(r, (value, _row, column, type) => {
            row[keys[column]] = JsonDuckDBValueConverter(value, type, JsonDuckDBValueConverter);
          });
          rows.push(row);
        }
      }
      answer = { names, types: result.columnTypes().map(String), rows };
    } catch (err) {
      statement.destroySync();
      throw err;
    }
    this.kept.set(sql, statement);
    if (this.kept.size > KEPT) {
      const [oldest, old] = this.kept.entries().next().value!;
      this.kept.delete(oldest);
      old.destroySync();
    }
    return answer;
  }

  close(): void {
    // Closing the connection destroys the statements it prepared.
    this.kept.clear();
    this.conn.closeSync();
  }
}
