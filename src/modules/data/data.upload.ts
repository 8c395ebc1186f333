// An upload body goes to a temp file as it arrives, never whole into memory, and stops at the byte
// limit. DuckDB then reads the file with its own readers (gzip included).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { AppError } from '../../lib/errors.ts';
import type { DataFormat } from '../../warehouse/load.ts';

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

export interface SaveOptions {
  mediaType: UploadMediaType;
  /** The Content-Encoding: only gzip (kept compressed; DuckDB reads .gz). */
  encoding?: string;
  maxBytes: number;
  /** The Content-Length, when sent: a body declared too large is refused before it is read. */
  declaredLength?: number;
  dir?: string;
}

export async function saveUpload(body: Readable, options: SaveOptions): Promise<Upload> {
  const encoding = (options.encoding ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && encoding !== 'gzip') {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Content-Encoding ${encoding} is not supported; send the data plain or gzip-compressed.`);
  }
  if (options.declaredLength !== undefined && options.declaredLength > options.maxBytes) throw tooLarge(options.maxBytes);
  const format = UPLOAD_MEDIA_TYPES[options.mediaType];
  const file = path.join(options.dir ?? os.tmpdir(), `insights-upload-${crypto.randomUUID()}.${format}${encoding === 'gzip' ? '.gz' : ''}`);
  const out = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
  let bytes = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      const stop = (err?: Error) => {
        if (settled) return;
        settled = true;
        body.off('data', onData).off('end', onEnd).off('error', stop).off('close', onClose);
        if (!err) {
          out.end(() => resolve());
          return;
        }
        out.destroy();
        // The rest of the body is read and dropped, so the client still gets the problem response.
        body.resume();
        reject(err);
      };
      const onData = (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > options.maxBytes) return stop(tooLarge(options.maxBytes));
        if (!out.write(chunk)) {
          body.pause();
          out.once('drain', () => body.resume());
        }
      };
      const onEnd = () => stop();
      const onClose = () => stop(new AppError('BAD_REQUEST', 'The upload ended before its body was complete.'));
      body.on('data', onData).on('end', onEnd).on('error', stop).on('close', onClose);
      out.on('error', stop);
    });
  } catch (err) {
    await fs.promises.rm(file, { force: true });
    throw err;
  }
  return new Upload(file, format, bytes);
}
