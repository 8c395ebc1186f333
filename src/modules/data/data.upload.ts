// An upload body goes to a temp file as it arrives (decompressed, if it was gzip), never whole into
// memory, and stops at the byte and row limits. DuckDB then reads the file with its own readers.
import { filled, JsonDepth, MAX_DATA_DEPTH } from '../../warehouse/load/json-depth.ts';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { tempFile } from '../../lib/temp-dir.ts';
import { AppError } from '../../lib/errors.ts';
import type { DataFormat } from '../../warehouse/load/rules.ts';

/** The media types an upload may have, and the file format each is. */
export const UPLOAD_MEDIA_TYPES = {
  'text/csv': 'csv',
  'text/tab-separated-values': 'tsv',
  'application/x-ndjson': 'ndjson',
  'application/json': 'json',
} as const satisfies Record<string, DataFormat>;

export type UploadMediaType = keyof typeof UPLOAD_MEDIA_TYPES;

/** A body saved to disk; remove() deletes it (the route does, however the request ends). */
export class Upload {
  constructor(
    readonly path: string,
    readonly format: DataFormat,
    readonly bytes: number,
  ) {}

  remove(): Promise<void> {
    return fs.promises.rm(this.path, { force: true });
  }
}

export function tooLarge(maxBytes: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `The upload exceeds the limit of ${maxBytes} bytes (INSIGHTS_DATA_MAX_BYTES).`);
}

export function decompressedTooLarge(maxBytes: number): AppError {
  return new AppError(
    'DATA_DECOMPRESSED_TOO_LARGE',
    `The upload decompresses to more than ${maxBytes} bytes (INSIGHTS_DATA_MAX_BYTES counts the data after ` +
      `decompression). Nothing was loaded.`,
  );
}

export function tooDeep(line: number): AppError {
  return new AppError(
    'BODY_TOO_DEEP',
    `The data nests objects and arrays more than ${MAX_DATA_DEPTH} levels deep (line ${line}); rows of a data file ` +
      `are records. Nothing was loaded.`,
    {
      errors: [{ path: '/body', message: `nests more than ${MAX_DATA_DEPTH} levels deep (line ${line})` }],
    },
  );
}

export function tooManyRows(maxRows: number): AppError {
  return new AppError(
    'DATA_TOO_MANY_ROWS',
    `The upload has more than ${maxRows} rows (INSIGHTS_DATA_MAX_ROWS); split it into several loads (mode=append). Nothing was loaded.`,
  );
}

export interface SaveOptions {
  mediaType: UploadMediaType;
  /** The Content-Encoding: identity, or gzip (decompressed as it arrives, so its size is known). */
  encoding?: string;
  /** The most bytes of the body as sent, and of the data after decompression. */
  maxBytes: number;
  /** The most rows (records after a CSV/TSV header, or non-empty NDJSON lines). */
  maxRows: number;
  /** The Content-Length, when sent: a body declared too large is refused before it is read. */
  declaredLength?: number;
  dir?: string;
}

// The bytes the CSV count stops at (a quote, a line break); every other byte is skipped in a tight
// loop, since the count runs on the event loop as the upload arrives.
const STOPS = new Uint8Array(256);
STOPS[0x22] = 1;
STOPS[0x0a] = 1;

/**
 * Counts the records of CSV/TSV (newlines outside double quotes; a doubled quote toggles twice,
 * so escapes need no special case) as the data streams past, without parsing it: the rows cap is
 * enforced before anything is loaded. (NDJSON's rows are counted by JsonDepth, in its one pass.)
 */
export class RecordCounter {
  records = 0;
  private quoted = false;
  private lineHasData = false;

  push(chunk: Buffer): void {
    let { records, quoted, lineHasData } = this;
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      const from = i;
      while (i < n && STOPS[chunk[i]] === 0) i++;
      if (!lineHasData && filled(chunk, from, i)) lineHasData = true;
      if (i === n) break;
      if (chunk[i++] === 0x22) {
        quoted = !quoted;
        lineHasData = true;
      } else if (!quoted) {
        if (lineHasData) records++;
        lineHasData = false;
      }
    }
    this.records = records;
    this.quoted = quoted;
    this.lineHasData = lineHasData;
  }

  /** Records after the header line, the last one unterminated included. */
  total(): number {
    return Math.max(0, this.records + (this.lineHasData ? 1 : 0) - 1);
  }
}

export async function saveUpload(body: Readable, options: SaveOptions): Promise<Upload> {
  const encoding = (options.encoding ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && encoding !== 'gzip') {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Content-Encoding ${encoding} is not supported; send the data plain or gzip-compressed.`);
  }
  if (options.declaredLength !== undefined && options.declaredLength > options.maxBytes) throw tooLarge(options.maxBytes);
  const format = UPLOAD_MEDIA_TYPES[options.mediaType];
  // A gzip body is stored decompressed: its size after decompression is what the cap bounds (a
  // megabyte of gzip can hold a gigabyte of rows), and the loader reads plain text faster.
  const file = options.dir
    ? path.join(options.dir, `insights-upload-${crypto.randomUUID()}.${format}`)
    : tempFile('insights-upload', format);
  const out = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
  const gunzip = encoding === 'gzip' ? zlib.createGunzip() : undefined;
  // JSON is measured as it arrives, as other JSON bodies are (DuckDB's reader must never see a
  // file nested too deep); the same pass counts its rows (a JSON array's records, NDJSON's
  // non-blank lines). One scan of every byte, on the event loop: its cost is the upload's.
  const depth = format === 'json' || format === 'ndjson' ? new JsonDepth() : undefined;
  const csv = depth ? undefined : new RecordCounter();
  const rows = {
    push: (chunk: Buffer) => (depth ?? csv!).push(chunk),
    seen: () => (csv ? csv.records : format === 'json' ? depth!.records : depth!.filledLines),
    total: () => (csv ? csv.total() : format === 'json' ? depth!.total() : depth!.totalLines()),
  };
  let received = 0;
  let bytes = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      const stop = (err?: Error) => {
        if (settled) return;
        settled = true;
        body.off('data', onBody).off('end', onEnd).off('error', stop).off('close', onClose);
        gunzip?.off('data', onData).off('end', onDataEnd).off('error', onGzipError);
        if (!err) {
          out.end(() => resolve());
          return;
        }
        out.destroy();
        gunzip?.destroy();
        // The rest of the body is read and dropped, so the client still gets the problem response.
        body.resume();
        reject(err);
      };
      const write = (chunk: Buffer, source: Readable) => {
        bytes += chunk.length;
        if (bytes > options.maxBytes) return stop(gunzip ? decompressedTooLarge(options.maxBytes) : tooLarge(options.maxBytes));
        rows.push(chunk);
        if (rows.seen() > options.maxRows + 1) return stop(tooManyRows(options.maxRows));
        if (depth?.tooDeepAt !== undefined) return stop(tooDeep(depth.tooDeepAt));
        if (!out.write(chunk)) {
          source.pause();
          out.once('drain', () => source.resume());
        }
      };
      const onData = (chunk: Buffer) => write(chunk, gunzip!);
      const onBody = (chunk: Buffer) => {
        received += chunk.length;
        if (received > options.maxBytes) return stop(tooLarge(options.maxBytes));
        if (!gunzip) return write(chunk, body);
        if (!gunzip.write(chunk)) {
          body.pause();
          gunzip.once('drain', () => body.resume());
        }
      };
      const onDataEnd = () => (rows.total() > options.maxRows ? stop(tooManyRows(options.maxRows)) : stop());
      const onEnd = () => {
        if (!gunzip) return onDataEnd();
        body.off('close', onClose);
        gunzip.end();
      };
      const onGzipError = () => stop(new AppError('BAD_REQUEST', 'The body is not valid gzip data (Content-Encoding: gzip).'));
      const onClose = () => stop(new AppError('BAD_REQUEST', 'The upload ended before its body was complete.'));
      gunzip?.on('data', onData).on('end', onDataEnd).on('error', onGzipError);
      body.on('data', onBody).on('end', onEnd).on('error', stop).on('close', onClose);
      out.on('error', stop);
    });
  } catch (err) {
    await fs.promises.rm(file, { force: true });
    throw err;
  }
  return new Upload(file, format, bytes);
}
