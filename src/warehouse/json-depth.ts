// How deep a JSON data file nests, measured as its bytes stream past (outside strings). DuckDB's
// JSON reader recurses per level and takes the whole process down (SIGSEGV) on a file nested some
// tens of thousands of levels deep, so a file is measured before DuckDB reads it: data rows are
// flat records, and a value nested deeper than MAX_DATA_DEPTH is refused with its line.
import fs from 'node:fs';
import zlib from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { LoadError } from './load.ts';

/** The deepest nesting a data file may have (a record, its objects and arrays). */
export const MAX_DATA_DEPTH = 64;

/**
 * One pass over JSON bytes (an array of objects, or NDJSON), outside strings: how deep it nests,
 * and its records — objects at the top level, or directly inside a top-level array.
 */
export class JsonDepth {
  depth = 0;
  line = 1;
  records = 0;
  /** The line where the nesting first went deeper than the limit, once it has. */
  tooDeepAt?: number;
  private inString = false;
  private escaped = false;
  private array?: boolean;

  constructor(private readonly max = MAX_DATA_DEPTH) {}

  push(chunk: Buffer): void {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (c === 0x0a) this.line++;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c) this.escaped = true;
        else if (c === 0x22) this.inString = false;
      } else if (c === 0x22) this.inString = true;
      else if (c === 0x7b || c === 0x5b) {
        this.array ??= c === 0x5b;
        if (c === 0x7b && this.depth === (this.array ? 1 : 0)) this.records++;
        if (++this.depth > this.max && this.tooDeepAt === undefined) this.tooDeepAt = this.line;
      } else if (c === 0x7d || c === 0x5d) this.depth--;
    }
  }

  total(): number {
    return this.records;
  }
}

/** Refuses a JSON/NDJSON file (plain or .gz) nested deeper than MAX_DATA_DEPTH, naming the line. */
export async function checkJsonDepth(path: string): Promise<void> {
  const depth = new JsonDepth();
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      depth.push(chunk);
      done(depth.tooDeepAt === undefined ? null : new Error('too deep'));
    },
  });
  const source = fs.createReadStream(path);
  try {
    await (/\.(gz|gzip)$/i.test(path) ? pipeline(source, zlib.createGunzip(), sink) : pipeline(source, sink));
  } catch (err) {
    if (depth.tooDeepAt === undefined) throw err;
  }
  if (depth.tooDeepAt !== undefined) {
    throw new LoadError(
      'row',
      `Line ${depth.tooDeepAt}: values nest objects and arrays more than ${MAX_DATA_DEPTH} levels deep; rows of a data file are records.`,
      { line: depth.tooDeepAt },
    );
  }
}
