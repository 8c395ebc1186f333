// PGlite's statements as kept prepared statements, one call into PostgreSQL each
// (docs/performance.md §18). PGlite's own `query` makes six calls into its WASM PostgreSQL per
// statement (parse, describe the statement, bind, describe the portal, execute, sync), each with its
// own promise, buffers and message parsing, and PostgreSQL parses and plans the text every time:
// ~300 µs of the main thread for `SELECT $1`, the largest share of the mixed traffic's CPU. Here a
// text is parsed once into a named statement and described once (the parameters' types, which
// PGlite's own serializers turn values into text by, exactly as its `query` does) with its rows'
// columns; every later run sends bind, execute and sync in one call: ~70 µs for the same statement.
//
// The caller holds PGlite's locks: the transaction lock and the query lock for a statement of its
// own, the query lock alone inside a transaction (which holds the other).
import type { PGlite } from '@electric-sql/pglite';

/** What of PGlite's module this needs (loaded with PGlite, never at import). */
export interface PGliteProtocol {
  protocol: typeof import('@electric-sql/pglite').protocol;
  parse: typeof import('@electric-sql/pglite').parse;
}

/** How many statement texts are kept; beyond, the least recently used is closed. */
const KEPT = 256;

type BackendMessage = Parameters<PGliteProtocol['parse']['parseResults']>[0][number];

interface Kept {
  name: string;
  /** The parameters' types (OIDs), as PostgreSQL inferred them from the text. */
  types: number[];
  /**
   * The rows' columns (names and types) as the statement was described, for a statement that
   * returns rows: a run does not ask again, so PostgreSQL does not encode them, nor PGlite decode
   * them, for every run (a plan whose columns change fails instead, and is prepared again).
   */
  columns?: BackendMessage;
}

const concat = (parts: Uint8Array[]): Uint8Array => {
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

export class PGliteStatements {
  private readonly kept = new Map<string, Kept>();
  /** Statements to close with the next call: evicted, or forgotten after a failed run. */
  private closing: string[] = [];
  private named = 0;

  constructor(
    private readonly pg: PGlite,
    private readonly lib: PGliteProtocol,
  ) {}

  /** One statement's rows, typed as the caller's Row (db/index.ts). */
  async run<T extends Record<string, any>>(sql: string, params: unknown[]): Promise<T[]> {
    const { serialize } = this.lib.protocol;
    const statement = this.kept.get(sql) ?? (await this.prepare(sql));
    // Most recently used last: the first entry is the one to close when too many are kept.
    this.kept.delete(sql);
    this.kept.set(sql, statement);
    if (this.kept.size > KEPT) {
      const [oldest, old] = this.kept.entries().next().value!;
      this.kept.delete(oldest);
      this.closing.push(old.name);
    }
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = this.pg.serializers[statement.types[i]];
      return serializer ? serializer(value) : String(value);
    });
    const closed = this.closing;
    this.closing = [];
    const closes = closed.map((name) => serialize.close({ type: 'S', name }));
    let messages;
    try {
      messages = await this.pg.execProtocolStream(
        concat([...closes, serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()]),
        { syncToFs: false },
      );
    } catch (err) {
      // Most failures leave the statement as it was (a constraint, a value), but one made stale by a
      // table changed under it fails every run: it is prepared again next time, never run again.
      if (this.kept.get(sql) === statement) this.kept.delete(sql);
      // Closing a statement that is gone is no error: those of this call are closed again.
      this.closing.push(...closed, statement.name);
      throw Object.assign(err as Error, { query: sql });
    }
    const described = statement.columns ? [statement.columns, ...messages] : messages;
    return this.lib.parse.parseResults(described, this.pg.parsers)[0].rows as T[];
  }

  private async prepare(sql: string): Promise<Kept> {
    const { serialize } = this.lib.protocol;
    const name = `insights_${++this.named}`;
    try {
      const described = await this.pg.execProtocolStream(
        concat([serialize.parse({ name, text: sql, types: [] }), serialize.describe({ type: 'S', name }), serialize.sync()]),
        { syncToFs: false },
      );
      const columns = described.find((m) => m.name === 'rowDescription');
      return { name, types: this.lib.parse.parseDescribeStatementResults(described), ...(columns ? { columns } : {}) };
    } catch (err) {
      // A text that does not parse was never kept; the name may exist if only the describe failed.
      this.closing.push(name);
      throw Object.assign(err as Error, { query: sql });
    }
  }
}
