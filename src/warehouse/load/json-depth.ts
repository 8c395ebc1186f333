// How deep a JSON data file nests, measured as its bytes stream past (outside strings). DuckDB's
// JSON reader recurses per level and takes the whole process down (SIGSEGV) on a file nested some
// tens of thousands of levels deep, so a file is measured before DuckDB reads it: data rows are
// flat records, and a value nested deeper than MAX_DATA_DEPTH is refused with its line.
import fs from 'node:fs';
import zlib from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { LoadError } from './rules.ts';

/** The deepest nesting a data file may have (a record, its objects and arrays). */
export const MAX_DATA_DEPTH = 64;

// The bytes the scan stops at: outside a string (a line break, a quote, a bracket), and inside one
// (a line break, the closing quote, a backslash). Every other byte is skipped in a tight loop: the
// scan runs on the server's event loop as an upload arrives, so its cost per byte is the upload's.
const OUTSIDE = new Uint8Array(256);
for (const b of [0x0a, 0x22, 0x5b, 0x5d, 0x7b, 0x7d]) OUTSIDE[b] = 1;
const INSIDE = new Uint8Array(256);
for (const b of [0x0a, 0x22, 0x5c]) INSIDE[b] = 1;
/** Bytes that leave a line blank (a line of only these is no record). */
export const blank = (b: number) => b === 0x0d || b === 0x20 || b === 0x09;

/** Whether chunk[from, to) holds a byte that is not blank (the bytes a scanner skipped in one go). */
export function filled(chunk: Buffer, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (!blank(chunk[k])) return true;
  return false;
}

/**
 * One pass over JSON bytes (an array of objects, or NDJSON), outside strings: how deep it nests,
 * its records — objects at the top level, or directly inside a top-level array — and its
 * non-blank lines (an NDJSON file's rows, as data.upload.ts's limit counts them).
 */
export class JsonDepth {
  depth = 0;
  line = 1;
  records = 0;
  /** Lines holding anything but spaces, tabs and carriage returns, ended by a line break. */
  filledLines = 0;
  /** The line where the nesting first went deeper than the limit, once it has. */
  tooDeepAt?: number;
  private inString = false;
  private escaped = false;
  private lineHasData = false;
  private array?: boolean;

  constructor(private readonly max = MAX_DATA_DEPTH) {}

  push(chunk: Buffer): void {
    // The state lives in locals while the chunk is scanned (fields are read and written once).
    let { depth, line, records, filledLines, inString, escaped, lineHasData } = this;
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      if (escaped) {
        // The byte after a backslash inside a string, whatever it is.
        escaped = false;
        const b = chunk[i++];
        if (b === 0x0a) {
          line++;
          if (lineHasData) filledLines++;
          lineHasData = false;
        } else if (!blank(b)) lineHasData = true;
        continue;
      }
      const table = inString ? INSIDE : OUTSIDE;
      const from = i;
      while (i < n && table[chunk[i]] === 0) i++;
      if (!lineHasData && filled(chunk, from, i)) lineHasData = true;
      if (i === n) break;
      const c = chunk[i++];
      if (c === 0x0a) {
        line++;
        if (lineHasData) filledLines++;
        lineHasData = false;
        continue;
      }
      lineHasData = true;
      if (inString) {
        if (c === 0x22) inString = false;
        else escaped = true;
      } else if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) {
        this.array ??= c === 0x5b;
        if (c === 0x7b && depth === (this.array ? 1 : 0)) records++;
        if (++depth > this.max && this.tooDeepAt === undefined) this.tooDeepAt = line;
      } else depth--;
    }
    this.depth = depth;
    this.line = line;
    this.records = records;
    this.filledLines = filledLines;
    this.inString = inString;
    this.escaped = escaped;
    this.lineHasData = lineHasData;
  }

  total(): number {
    return this.records;
  }

  /** Non-blank lines in all, the last one unterminated included: an NDJSON file's rows. */
  totalLines(): number {
    return this.filledLines + (this.lineHasData ? 1 : 0);
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
