// Reading a data file with DuckDB's own readers: the reader expression, the detected columns, and
// reader errors turned into a LoadError naming the line and column (see load.ts for the rules).
import { checkJsonDepth } from './json-depth.ts';
import fs from 'node:fs';
import readline from 'node:readline';
import zlib from 'node:zlib';
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  BlankDateInReader,
  canonicalType,
  LoadError,
  quoteIdent,
  quoteLiteral,
  type Column,
  type DataFile,
  type LoadProgress,
} from './rules.ts';
import {
  conversionSql,
  CSV_TYPE_CANDIDATES,
  describeConversion,
  detectDates,
  detectDelimiter,
  detectJsonValues,
  isDateConversion,
  parseDateFormat,
  readingOf,
  rememberReading,
  unreadableValue,
  type DateConversion,
  type FileReading,
} from './formats.ts';

function structLiteral(columns: Column[]): string {
  return `{${columns.map((c) => `${quoteLiteral(c.name)}: ${quoteLiteral(c.type)}`).join(', ')}}`;
}

/**
 * The DuckDB table function reading the file. `types` forces column types (a later load reads the
 * file with the table's types, so a value that does not fit is an error on its line). Text dates
 * found by describeFile are read as text and converted with their column's format (load/formats.ts).
 */
export function readerSql(file: DataFile, types?: Column[]): string {
  const reading = readingOf(file);
  // Types forced on the reader are the table's (a later load): what the rows are stored as.
  if (reading && types) reading.stored = types;
  // A date column is converted only where it is to become a date: a table that took the column as
  // text keeps the text as written.
  const dates = [...(reading?.dates ?? [])].filter(([name, c]) => {
    const wanted = types?.find((t) => t.name === name)?.type;
    if (!wanted || wanted === c.type) return true;
    if (c.type === 'VARCHAR') return false;
    return isDateConversion(c) ? /^(DATE|TIMESTAMP)/.test(wanted) : /^(BIGINT|DOUBLE|DECIMAL)/.test(wanted);
  });
  const asText = new Set(dates.map(([name]) => name));
  let rawTypes = types?.map((c) => (asText.has(c.name) ? { name: c.name, type: 'VARCHAR' } : c));
  // A CSV reader parses dates itself, with the column's format, where every column it reads as
  // DATE (or TIMESTAMP) is written in one format: the same strptime as conversionSql, done as the
  // field is read instead of on its text afterwards. Other columns are converted in SQL.
  const inReader = (file.format === 'csv' || file.format === 'tsv') && !file.datesInSql ? readerDates(dates, rawTypes) : {};
  const parsed = new Set(Object.values(inReader).flatMap((r) => r.columns));
  if (parsed.size) {
    const typed = (name: string) => dates.find(([n]) => n === name)![1].type;
    rawTypes = rawTypes
      ? rawTypes.map((c) => (parsed.has(c.name) ? { name: c.name, type: typed(c.name) } : c))
      : [...parsed].map((name) => ({ name, type: typed(name) }));
  }
  const raw = rawReaderSql(file, rawTypes, {
    ...reading,
    dateFormat: inReader.DATE?.format,
    timestampFormat: inReader.TIMESTAMP?.format,
  });
  const converted = dates.filter(([name]) => !parsed.has(name));
  if (converted.length === 0) return raw;
  return `(SELECT * REPLACE (${converted.map(([name, c]) => `${conversionSql(name, c)} AS ${quoteIdent(name)}`).join(', ')}) FROM ${raw})`;
}

/**
 * The text dates a CSV reader can parse itself: per type (DATE, TIMESTAMP), the columns converted
 * with a strptime format, when they share one and no other column is read as that type (the
 * reader takes one format per type).
 */
function readerDates(
  dates: [string, DateConversion][],
  types: Column[] | undefined,
): Partial<Record<'DATE' | 'TIMESTAMP', { format: string; columns: string[] }>> {
  const out: Partial<Record<'DATE' | 'TIMESTAMP', { format: string; columns: string[] }>> = {};
  for (const type of ['DATE', 'TIMESTAMP'] as const) {
    const of = dates.filter(([, c]) => c.type === type);
    const formats = new Set(of.map(([, c]) => c.format));
    const format = of[0]?.[1].format;
    const converted = new Set(dates.map(([name]) => name));
    const others = types?.some((c) => c.type === type && !converted.has(c.name));
    if (format && formats.size === 1 && !others) out[type] = { format, columns: of.map(([name]) => name) };
  }
  return out;
}

/** How a file is read: what describeFile decided, and the date formats its CSV reader parses. */
type ReaderOptions = Pick<FileReading, 'delimiter' | 'decimalComma'> & { dateFormat?: string; timestampFormat?: string };

function rawReaderSql(file: DataFile, types: Column[] | undefined, how: ReaderOptions): string {
  const p = quoteLiteral(file.path);
  switch (file.format) {
    case 'csv':
    case 'tsv': {
      const delim = quoteLiteral(how.delimiter ?? delimiterOf(file));
      const decimal = how.decimalComma ? `, decimal_separator = ','` : '';
      const formats =
        (how.dateFormat ? `, dateformat = ${quoteLiteral(how.dateFormat)}` : '') +
        (how.timestampFormat ? `, timestampformat = ${quoteLiteral(how.timestampFormat)}` : '');
      // The quote is fixed too: sniffed, a file with an unclosed quote is read with none, and the
      // quote and what follows it would be loaded as text.
      const typed = types ? `, types = ${structLiteral(types)}` : '';
      const options = `header = true, delim = ${delim}${decimal}, quote = '"'${formats}`;
      return `read_csv(${p}, ${options}, auto_type_candidates = ${CSV_TYPE_CANDIDATES}${typed})`;
    }
    case 'ndjson':
    case 'json': {
      const format = file.format === 'ndjson' ? 'newline_delimited' : 'auto';
      return `read_json(${p}, format = '${format}'${types ? `, columns = ${structLiteral(types)}` : ''})`;
    }
    case 'parquet':
      return `read_parquet(${p})`;
  }
}

/** The delimiter known before the header is read: the user's, a tab for TSV, else `,`. */
function delimiterOf(file: DataFile): string {
  return file.delimiter ?? readingOf(file)?.delimiter ?? (file.format === 'tsv' ? '\t' : ',');
}

/**
 * The file's columns and detected types, or a LoadError saying why it cannot be read. Also decides
 * how the file is read (delimiter, text dates), for readerSql and for fileColumns.
 */
export async function describeFile(conn: DuckDBConnection, file: DataFile): Promise<Column[]> {
  const stat = await fs.promises.stat(file.path).catch(() => undefined);
  if (!stat?.isFile()) throw new LoadError('input', `No such file: ${file.path}`);
  if (stat.size === 0) throw new LoadError('input', 'The file is empty.');
  const text = file.format === 'csv' || file.format === 'tsv';
  // Before DuckDB's JSON reader sees it: a file nested thousands of levels deep crashes the process.
  if ((file.format === 'json' || file.format === 'ndjson') && !file.depthMeasured) await checkJsonDepth(file.path);
  const headerLine = text ? ((await lineOf(file.path, 1)) ?? '') : '';
  const delimiter =
    file.delimiter ?? (file.format === 'tsv' ? '\t' : text ? detectDelimiter(headerLine.replace(/^\uFEFF/, '')) : undefined);
  // Before DuckDB's reader: a NUL in the header stops its parser with an error that names nothing.
  if (headerLine.includes('\u0000')) {
    const field = headerLine.split(delimiter ?? ',').find((f) => f.includes('\u0000')) ?? headerLine;
    const shown = JSON.stringify(field.trim()).slice(1, -1);
    throw new LoadError('columns', `The column name "${shown}" holds a NUL character; rename it in the file's header.`, { column: shown });
  }
  rememberReading(file, { delimiter, dates: new Map(), columns: [] });
  const preferred = file.dateFormat ? parseDateFormat(file.dateFormat) : undefined;
  let columns: Column[];
  let dates: Map<string, DateConversion>;
  let decimalComma = false;
  try {
    const describe = async (how: Pick<FileReading, 'delimiter' | 'decimalComma'>) =>
      (await conn.runAndReadAll(`DESCRIBE SELECT * FROM ${rawReaderSql(file, undefined, how)}`))
        .getRowObjectsJson()
        .map((r) => ({ name: String(r.column_name), type: String(r.column_type) }));
    columns = await describe({ delimiter });
    if (delimiter === ';' && columns.some((c) => c.type === 'VARCHAR')) {
      // `;` is how a spreadsheet set to a decimal comma separates fields: read `1,5` as 1.5 where
      // that makes more columns numbers (a file with decimal points keeps them).
      const numbers = (cs: Column[]) => cs.filter((c) => /INT|DOUBLE|DECIMAL/.test(c.type)).length;
      const withComma = await describe({ delimiter, decimalComma: true });
      if (numbers(withComma) > numbers(columns)) [columns, decimalComma] = [withComma, true];
    }
    const raw = rawReaderSql(file, undefined, { delimiter, decimalComma });
    if (file.format === 'json' || file.format === 'ndjson') {
      // Mixed JSON values are read as text here, and so are the dates and numbers among them.
      const textual = columns.map((c) => (c.type === 'JSON' ? { name: c.name, type: 'VARCHAR' } : c));
      const asText = rawReaderSql(file, textual, {});
      dates = new Map([...(await detectJsonValues(conn, asText, columns)), ...(await detectDates(conn, asText, textual, preferred))]);
    } else {
      dates = file.format === 'parquet' ? new Map() : await detectDates(conn, raw, columns, preferred);
    }
  } catch (err) {
    throw await explainReadError(conn, file, err as Error);
  }
  if (text) {
    // On rows of unequal length the sniffer may take another line for the header rather than fail.
    const header = headerFields(file, headerLine);
    if (header.length !== columns.length) {
      throw (await strictCsvError(conn, file, header.length)) ?? new LoadError('input', RAGGED_CSV);
    }
  }
  columns = columns.map((c) => ({ name: c.name, type: dates.get(c.name)?.type ?? c.type }));
  rememberReading(file, { delimiter, decimalComma, dates, columns });
  return columns;
}

/** A column as a load shows it: its stored type, and how its text dates were written. */
export interface FileColumn {
  name: string;
  type: string;
  date_format?: string;
}

/**
 * The columns of a described file as they are stored (column → type), with the date format read
 * where text dates were detected: what a load shows its user.
 */
export function fileColumns(file: DataFile): FileColumn[] {
  const reading = readingOf(file);
  if (!reading) return [];
  const stored = new Map(reading.stored?.map((c) => [c.name, c.type]));
  return reading.columns.map((c) => {
    const type = stored.get(c.name) ?? canonicalType(c.type) ?? c.type;
    // ISO dates are what every reader takes: only other ways of writing them are worth a note.
    const date = reading.dates.get(c.name);
    // A column stored as a timestamp takes text dates converted as dates too (readerSql).
    const converted = date && (date.type === type || (isDateConversion(date) && /^(DATE|TIMESTAMP)/.test(type)));
    if (!date || !converted || !isDateConversion(date) || !date.format || date.format.startsWith('%Y-%m-%d')) return { name: c.name, type };
    return { name: c.name, type, date_format: describeConversion(date) };
  });
}

const RAGGED_CSV = 'The file is not readable as CSV with a header row: its rows do not have a consistent number of fields.';

/** The fields of a CSV/TSV header line (quotes honoured). */
function headerFields(file: DataFile, line: string): string[] {
  const delim = delimiterOf(file);
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  const text = line.replace(/^\uFEFF/, '');
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delim) {
      fields.push(field);
      field = '';
    } else field += ch;
  }
  fields.push(field);
  return fields;
}

/** Reads the file strictly as `width` text columns: the error, if any, names the first bad line. */
async function strictCsvError(conn: DuckDBConnection, file: DataFile, width: number): Promise<Error | undefined> {
  const columns = Array.from({ length: width }, (_, i) => ({ name: `c${i}`, type: 'VARCHAR' }));
  const delim = quoteLiteral(delimiterOf(file));
  try {
    await conn.run(
      `SELECT count(*) FROM read_csv(${quoteLiteral(file.path)}, header = true, auto_detect = false, delim = ` +
        `${delim}, quote = '"', escape = '"', columns = ${structLiteral(columns)})`,
    );
    return undefined;
  } catch (err) {
    return /CSV Error on Line/.test((err as Error).message) ? explainReadError(conn, file, err as Error, undefined, true) : undefined;
  }
}

/** Reads one line of a (possibly gzipped) text file, 1-based; undefined past the end. */
async function lineOf(path: string, wanted: number): Promise<string | undefined> {
  const raw = fs.createReadStream(path);
  const input = /\.(gz|gzip)$/i.test(path) ? raw.pipe(zlib.createGunzip()) : raw;
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  try {
    for await (const line of lines) if (++n === wanted) return line;
    return undefined;
  } finally {
    lines.close();
    raw.destroy();
  }
}

/**
 * Turns a DuckDB reader error into a LoadError naming the line and, where one is to blame, the
 * column. CSV errors carry both; JSON errors carry the line, and the column is found by trying each
 * value of that line against its type. `strict`: the error is a strict read's (strictCsvError).
 */
export async function explainReadError(
  conn: DuckDBConnection,
  file: DataFile,
  err: Error,
  types?: Column[],
  strict = false,
): Promise<Error> {
  const explained = await explain(conn, file, err, types, strict);
  // A refusal never shows where the server keeps the file (its temp path, over the API).
  if (explained instanceof LoadError) explained.message = withoutPath(explained.message, file.path);
  return explained;
}

/** The file's path, and any temp file of ours, named as "the file" instead. */
export function withoutPath(message: string, filePath: string): string {
  return message
    .split(filePath)
    .join('the file')
    .replace(/"?(?:[A-Za-z]:)?[^\s"']*insights-(?:upload|load|tmp)-[^\s"']*"?/g, 'the file');
}

async function explain(conn: DuckDBConnection, file: DataFile, err: Error, types: Column[] | undefined, strict: boolean): Promise<Error> {
  const message = err.message;
  const unreadable = unreadableValue(message);
  if (unreadable) return unreadableDateError(file, unreadable.column, unreadable.value);
  const csvLine = /CSV Error on Line: (\d+)/.exec(message);
  if (csvLine) {
    const line = Number(csvLine[1]);
    const tooLong = /Maximum line size of (\d+) bytes exceeded/.exec(message);
    if (tooLong) {
      // The sniffer counts a too-long row as line 1 wherever it is; a strict read finds its line.
      const located = strict ? undefined : await strictCsvError(conn, file, headerFields(file, (await lineOf(file.path, 1)) ?? '').length);
      if (located) return located;
      return new LoadError(
        'row',
        `Line ${line}: the row is longer than ${Number(tooLong[1]).toLocaleString('en')} bytes, the most one row may hold.`,
        { line },
      );
    }
    if (/unterminated quote/.test(message))
      return new LoadError('row', `Line ${line}: a quoted value is never closed (a " without its closing ").`, { line });
    const conversion = /Error when converting column "(.+?)"\. Could not convert string "(.*?)" to '(.+?)'/.exec(message);
    // A text date the reader parsed with its column's format (readerSql): told as conversionSql's are.
    const date = conversion && readingOf(file)?.dates.get(conversion[1]);
    if (conversion && date?.format && date.type === conversion[3]) {
      const unreadable = await unreadableDateError(file, conversion[1], conversion[2]);
      return conversion[2].trim() === '' ? new BlankDateInReader('row', unreadable.message, unreadable.where) : unreadable;
    }
    if (conversion) {
      return new LoadError('row', `Line ${line}, column ${conversion[1]}: "${conversion[2]}" is not a valid ${conversion[3]}.`, {
        line,
        column: conversion[1],
      });
    }
    const count = /Expected Number of Columns: (\d+) Found: (\d+)/.exec(message);
    if (count) return new LoadError('row', `Line ${line}: expected ${count[1]} fields, found ${count[2]}.`, { line });
    const first = message.split('\n').find((l) => l.trim() && !l.startsWith('Original Line')) ?? message;
    return new LoadError(
      'row',
      `Line ${line}: ${first.replace(/^.*?Error: CSV Error on Line: \d+\s*/, '').trim() || 'the row cannot be read'}.`,
      { line },
    );
  }
  if (/Error when sniffing file/.test(message) && (file.format === 'csv' || file.format === 'tsv')) {
    // The sniffer gives up on rows of unequal length without saying where; a strict read of the
    // header's columns as text finds the line.
    const header = await lineOf(file.path, 1);
    const strict = header === undefined ? undefined : await strictCsvError(conn, file, headerFields(file, header).length);
    return strict ?? new LoadError('input', RAGGED_CSV);
  }
  const jsonLine = /in file ".*?", (?:at byte \d+ )?in line (\d+): (.*)/.exec(message);
  if (jsonLine) {
    const line = Number(jsonLine[1]);
    const reason = jsonLine[2].split('\n')[0].trim();
    if (/Malformed JSON/.test(message)) {
      const bad = await firstInvalidJsonLine(file.path, line);
      return new LoadError('row', `Line ${bad}: not valid JSON (${reason.replace(/\.$/, '')}).`, { line: bad });
    }
    const column = types ? await jsonColumnAt(conn, file, line, types) : undefined;
    if (column)
      return new LoadError('row', `Line ${line}, column ${column.name}: ${JSON.stringify(column.value)} is not a valid ${column.type}.`, {
        line,
        column: column.name,
      });
    return new LoadError('row', `Line ${line}: ${reason.replace(/\.$/, '')}.`, { line });
  }
  if (/Conversion Error|Invalid Input Error|IO Error/.test(message)) {
    return new LoadError(
      'input',
      message
        .split('\n')[0]
        .replace(/^[A-Za-z ]+Error: /, '')
        .trim(),
    );
  }
  return err;
}

/** A text date that does not read with its column's format, at the first line holding it. */
async function unreadableDateError(file: DataFile, column: string, value: string): Promise<LoadError> {
  const conversion = readingOf(file)?.dates.get(column);
  const how =
    conversion && isDateConversion(conversion)
      ? ` (its dates read as ${describeConversion(conversion)}; name the format with --date-format or date_format)`
      : '';
  const line = await lineHolding(file, column, value);
  const type = conversion?.type ?? 'DATE';
  const where = line === undefined ? `Column ${column}` : `Line ${line}, column ${column}`;
  return new LoadError('row', `${where}: ${JSON.stringify(value)} is not a valid ${type}${how}.`, { line, column });
}

/** The first line (1-based, the header counted) whose value of `column` is `value`. */
async function lineHolding(file: DataFile, column: string, value: string): Promise<number | undefined> {
  const raw = fs.createReadStream(file.path);
  const input = /\.(gz|gzip)$/i.test(file.path) ? raw.pipe(zlib.createGunzip()) : raw;
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  const key = JSON.stringify(column);
  let n = 0;
  let index = -1;
  try {
    for await (const line of lines) {
      n++;
      if (file.format === 'csv' || file.format === 'tsv') {
        const fields = headerFields(file, line);
        if (n === 1) index = fields.indexOf(column);
        else if (index >= 0 && fields[index]?.trim() === value.trim()) return n;
      } else if (file.format === 'ndjson') {
        try {
          if (String((JSON.parse(line) as Record<string, unknown>)[column]).trim() === value.trim()) return n;
        } catch {
          // a line that is not one object (a JSON array's bracket) cannot hold it
        }
      } else if (line.includes(key) && line.includes(JSON.stringify(value))) return n;
    }
    return undefined;
  } finally {
    lines.close();
    raw.destroy();
  }
}

/** DuckDB 1.5 reports malformed JSON one line late; the line it names or the one before is the bad one. */
async function firstInvalidJsonLine(path: string, reported: number): Promise<number> {
  for (const candidate of [reported - 1, reported]) {
    if (candidate < 1) continue;
    const text = await lineOf(path, candidate);
    if (text === undefined) continue;
    try {
      JSON.parse(text);
    } catch {
      return candidate;
    }
  }
  return reported;
}

async function jsonColumnAt(
  conn: DuckDBConnection,
  file: DataFile,
  line: number,
  types: Column[],
): Promise<{ name: string; type: string; value: unknown } | undefined> {
  const text = await lineOf(file.path, line);
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(text ?? '');
  } catch {
    return undefined;
  }
  for (const c of types) {
    const value = record[c.name];
    if (value === null || value === undefined) continue;
    const asText = typeof value === 'string' ? value : JSON.stringify(value);
    const ok = await conn.runAndReadAll(`SELECT TRY_CAST($1::VARCHAR AS ${c.type}) IS NOT NULL AS ok`, [asText]);
    if (!ok.getRowObjectsJson()[0].ok) return { name: c.name, type: c.type, value };
  }
  return undefined;
}

/** Calls onProgress with DuckDB's progress of the statement running on conn, every 250 ms, until stopped. */
export function watchProgress(conn: DuckDBConnection, step: LoadProgress['step'], onProgress?: (p: LoadProgress) => void): () => void {
  if (!onProgress) return () => {};
  onProgress({ step });
  const timer = setInterval(() => {
    const pct = Number(conn.progress.percentage);
    if (pct >= 0) onProgress({ step, fraction: Math.min(1, pct / 100) });
  }, 250);
  return () => clearInterval(timer);
}
