// Files as people export them: the CSV delimiter (`,` or the European `;`), and text dates in the
// ways spreadsheets write them (`2024-03-05`, `3/5/2024`, `5.3.2024`, `Mar 5 2024`…), detected per
// column or named by the user. DuckDB's own sniffer picks one date format per file and reads
// `3/5/2024` as the 3rd of May, so dates are left to this file: detection reads them as text, and
// readerSql (load/reader.ts) has each column read with the format found here (by the CSV reader
// itself where it can, else converted in SQL). docs/data.md tells users the rules.
import type { DuckDBConnection } from '@duckdb/node-api';
import { LoadError, quoteIdent, quoteLiteral, type Column, type DataFile } from './rules.ts';

/**
 * How one column read as text is converted: into dates (a strptime format, or ISO by CAST), into
 * numbers (a JSON column of numbers and `""`), or into text whose `""` is NULL (JSON).
 */
export interface DateConversion {
  type: 'DATE' | 'TIMESTAMP' | 'TIMESTAMPTZ' | 'BIGINT' | 'DOUBLE' | 'VARCHAR';
  /** A strptime format; undefined: read by CAST. */
  format?: string;
}

export const isDateConversion = (c: DateConversion) => /^(DATE|TIMESTAMP)/.test(c.type);

/** What describeFile decided about a file: kept for readerSql and for showing the user. */
export interface FileReading {
  delimiter?: string;
  /** `1,5` is 1.5 (a `;`-separated file from a spreadsheet set to a decimal comma). */
  decimalComma?: boolean;
  dates: Map<string, DateConversion>;
  /** The file's columns as they will be read (dates converted), in the file's order. */
  columns: Column[];
  /** The types of the table the rows went into, once a load forced them on the reader. */
  stored?: Column[];
}

// A DataFile is made per load; what its description found lives as long as it does. The load
// modules pass the same object to describeFile and then readerSql, so they need no new argument.
const readings = new WeakMap<DataFile, FileReading>();
export const readingOf = (file: DataFile) => readings.get(file);
export const rememberReading = (file: DataFile, reading: FileReading) => void readings.set(file, reading);

/** The type candidates of DuckDB's CSV sniffer: no dates, so they come as text and are detected here. */
export const CSV_TYPE_CANDIDATES = `['BOOLEAN', 'BIGINT', 'DOUBLE', 'TIME', 'VARCHAR']`;

const DELIMITERS = [',', ';', '\t', '|'];

/** The delimiter seen most often outside quotes in the header line; `,` when none is. */
export function detectDelimiter(header: string): string {
  const counts = new Map<string, number>();
  let quoted = false;
  for (const ch of header) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && DELIMITERS.includes(ch)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let best = ',';
  for (const d of DELIMITERS) if ((counts.get(d) ?? 0) > (counts.get(best) ?? 0)) best = d;
  return best;
}

/** A user-given delimiter: one character (`tab` and `\t` for a tab). */
export function parseDelimiter(text: string): string {
  const d = text === 'tab' || text === '\\t' ? '\t' : text;
  if (d.length !== 1 || (/[\s"\w]/.test(d) && d !== '\t')) {
    throw new LoadError(
      'input',
      `The delimiter must be one character other than a letter, digit, quote or space (or "tab"), not ${JSON.stringify(text)}.`,
    );
  }
  return d;
}

// Four-digit years only: `1.2.30` is as likely a version as a date (two-digit years need --date-format).
const DATE_FORMATS = [
  '%Y-%m-%d',
  '%m/%d/%Y',
  '%d/%m/%Y',
  '%d.%m.%Y',
  '%d-%m-%Y',
  '%Y/%m/%d',
  '%b %d %Y',
  '%B %d %Y',
  '%b %d, %Y',
  '%B %d, %Y',
  '%d %b %Y',
  '%d %B %Y',
];
const TIME_PARTS = [' %H:%M:%S', ' %H:%M', ' %I:%M:%S %p', ' %I:%M %p'];
/** In order of preference: where a column fits several (`3/5/2024`), the earlier wins — M/D/YYYY before D/M/YYYY. */
const CANDIDATES: DateConversion[] = [
  ...DATE_FORMATS.map((format) => ({ type: 'DATE' as const, format })),
  ...DATE_FORMATS.flatMap((d) => TIME_PARTS.map((t) => ({ type: 'TIMESTAMP' as const, format: d + t }))),
  { type: 'TIMESTAMP', format: undefined },
];

const TOKENS: [RegExp, string][] = [
  [/YYYY/g, '%Y'],
  [/YY/g, '%y'],
  [/MMMM/g, '%B'],
  [/MMM/g, '%b'],
  [/MM?/g, '%m'],
  [/DD?/g, '%d'],
  [/HH?/g, '%H'],
  [/mm/g, '%M'],
  [/ss/g, '%S'],
];

/**
 * A user's date format as strptime: either strptime itself (`%d/%m/%Y`) or the words spreadsheets
 * use (`D.M.YYYY`, `DD/MM/YYYY`, `MMM D YYYY`, `YYYY-MM-DD HH:mm`).
 */
export function parseDateFormat(text: string): DateConversion {
  let format = text.trim();
  if (!format.includes('%')) {
    // Letters are replaced one token at a time through placeholders, so `M` in `%m` is not read again.
    const marks: string[] = [];
    for (const [re, to] of TOKENS) format = format.replace(re, () => `\u0000${marks.push(to) - 1}\u0000`);
    if (/[A-Za-z]/.test(format))
      throw new LoadError(
        'input',
        `Cannot read the date format ${JSON.stringify(text)}: write it with YYYY, YY, MM, M, MMM, DD, D, HH, mm, ss ` +
          `(e.g. D.M.YYYY, M/D/YYYY, MMM D YYYY) or as strptime (%d.%m.%Y).`,
      );
    format = format.replace(/\u0000(\d+)\u0000/g, (_, i) => marks[Number(i)]);
  }
  if (!/%[YyGg]/.test(format) || !/%[mbB]/.test(format))
    throw new LoadError('input', `The date format ${JSON.stringify(text)} names no year or no month.`);
  return { type: /%[HIMS]/.test(format) ? 'TIMESTAMP' : 'DATE', format };
}

/** The SQL turning a text column into its dates; a value that does not read raises an error naming it (see unreadableValue). */
export function conversionSql(column: string, conversion: DateConversion): string {
  if (conversion.type === 'VARCHAR') return `NULLIF(${quoteIdent(column)}, '')`;
  const v = `trim(${quoteIdent(column)})`;
  const read = conversion.format
    ? `CAST(try_strptime(${v}, ${quoteLiteral(conversion.format)}) AS ${conversion.type})`
    : `TRY_CAST(${v} AS ${conversion.type})`;
  return (
    `CASE WHEN NULLIF(${v}, '') IS NULL THEN NULL ELSE coalesce(${read}, error('insights-unreadable ' || ` +
    `to_json([${quoteLiteral(column)}, ${quoteIdent(column)}]))) END`
  );
}

/** The column and value named by a conversionSql error, if the error is one. */
export function unreadableValue(message: string): { column: string; value: string } | undefined {
  const m = /insights-unreadable (\[.*\])/.exec(message);
  if (!m) return undefined;
  try {
    const [column, value] = JSON.parse(m[1]) as [string, string];
    return { column, value };
  } catch {
    return undefined;
  }
}

const WORDS: Record<string, string> = {
  Y: 'YYYY',
  y: 'YY',
  m: 'M',
  d: 'D',
  b: 'MMM',
  B: 'MMMM',
  H: 'HH',
  I: 'hh',
  M: 'mm',
  S: 'ss',
  p: 'AM/PM',
};

/**
 * JSON columns of numbers mixed with `""` (DuckDB reads them as JSON values): numbers, `""` NULL.
 * Text columns: `""` NULL. `sample` reads every such column as VARCHAR.
 */
export async function detectJsonValues(conn: DuckDBConnection, sample: string, columns: Column[]): Promise<Map<string, DateConversion>> {
  const found = new Map<string, DateConversion>();
  const mixed = columns.filter((c) => c.type === 'JSON');
  for (const c of columns) if (c.type === 'VARCHAR' || c.type === 'JSON') found.set(c.name, { type: 'VARCHAR' });
  if (mixed.length === 0) return found;
  const v = (c: Column) => `NULLIF(trim(${quoteIdent(c.name)}), '')`;
  const counts = mixed.map(
    (c, i) =>
      `count(${v(c)}) AS n${i}, count(*) FILTER (WHERE ${v(c)} IS NOT NULL AND TRY_CAST(${v(c)} AS DOUBLE) IS NULL) AS text${i}, ` +
      `count(*) FILTER (WHERE ${v(c)} IS NOT NULL AND TRY_CAST(${v(c)} AS BIGINT) IS NULL) AS frac${i}`,
  );
  const row = (
    await conn.runAndReadAll(`SELECT ${counts.join(', ')} FROM (SELECT * FROM ${sample} LIMIT ${SAMPLE_ROWS})`)
  ).getRowObjectsJson()[0];
  mixed.forEach((c, i) => {
    if (Number(row[`n${i}`]) > 0 && Number(row[`text${i}`]) === 0)
      found.set(c.name, { type: Number(row[`frac${i}`]) === 0 ? 'BIGINT' : 'DOUBLE' });
  });
  return found;
}

/** A format in the words spreadsheets use: `%b %d %Y` → `MMM D YYYY`; ISO 8601 for CAST. */
export function describeConversion(c: DateConversion): string {
  return c.format ? c.format.replace(/%([A-Za-z])/g, (m, k: string) => WORDS[k] ?? m) : 'ISO 8601';
}

const SAMPLE_ROWS = 20480;
// A cheap test before trying every format: values shaped like a date (with an optional time and zone).
const DATE_SHAPE =
  `'([0-9]{4}[-/.][0-9]{1,2}[-/.][0-9]{1,2}|[0-9A-Za-z]{1,9}\\.?[-/. ]+[0-9A-Za-z]{1,9},?[-/. ` +
  `]+[0-9]{4})([ T][0-9:.]+( ?[AaPp][Mm])?)? ?(Z|[+-][0-9:]+)?'`;

/** Rows of the sample every format is tried on first: its misses there are a floor of its misses in all. */
const FIRST_ROWS = 256;

/**
 * The date conversion of each text column whose non-empty values (in the first 20,480 rows, the
 * sample DuckDB's own detection uses) are all shaped like dates: the format that reads the most of
 * them (the earlier on a tie; at least half). A value it cannot read is then a bad row naming its
 * line (`30.2.2024`), not a reason to keep the whole column as text. `preferred` (the user's
 * format) is tried first.
 *
 * The sample is read from the file once, into a temporary table. Every format is tried on its
 * first rows, and on all of it only the formats that could still win: one that misses more of the
 * first rows than the winner misses of all cannot (a file of clean dates tries one or two formats
 * on the whole sample instead of 61, the same answer at a fraction of the work).
 */
export async function detectDates(
  conn: DuckDBConnection,
  rawReader: string,
  columns: Column[],
  preferred?: DateConversion,
): Promise<Map<string, DateConversion>> {
  const found = new Map<string, DateConversion>();
  const text = columns.filter((c) => c.type === 'VARCHAR');
  if (text.length === 0) return found;
  const sample = quoteIdent(`insights_date_sample_${Math.random().toString(36).slice(2)}`);
  const v = (i: number) => quoteIdent(`v${i}`);
  const trimmed = text.map((c, i) => `NULLIF(trim(${quoteIdent(c.name)}), '') AS ${v(i)}`).join(', ');
  await conn.run(`CREATE TEMP TABLE ${sample} AS SELECT ${trimmed} FROM (SELECT * FROM ${rawReader} LIMIT ${SAMPLE_ROWS})`);
  try {
    const shaped = (i: number) =>
      `count(${v(i)}) AS n${i}, ` +
      `count(*) FILTER (WHERE ${v(i)} IS NOT NULL AND NOT regexp_full_match(${v(i)}, ${DATE_SHAPE})) AS bad${i}`;
    const shapes = (await conn.runAndReadAll(`SELECT ${text.map((_, i) => shaped(i)).join(', ')} FROM ${sample}`)).getRowObjectsJson()[0];
    const candidates = text.flatMap((c, i) =>
      Number(shapes[`n${i}`]) > 0 && Number(shapes[`bad${i}`]) === 0 ? [{ c, i, n: Number(shapes[`n${i}`]) }] : [],
    );
    if (candidates.length === 0) return found;
    const tries = preferred ? [preferred, ...CANDIDATES] : CANDIDATES;
    const misses = (i: number, t: DateConversion) => {
      const read = t.format ? `try_strptime(${v(i)}, ${quoteLiteral(t.format)})` : `TRY_CAST(${v(i)} AS TIMESTAMP)`;
      return `count(*) FILTER (WHERE ${v(i)} IS NOT NULL AND ${read} IS NULL)`;
    };
    const firstMisses = candidates.flatMap(({ i }) => tries.map((t, j) => `${misses(i, t)} AS m${i}_${j}`)).join(', ');
    const first = (
      await conn.runAndReadAll(`SELECT ${firstMisses} FROM (SELECT * FROM ${sample} LIMIT ${FIRST_ROWS})`)
    ).getRowObjectsJson()[0];
    // Misses in the whole sample, per column and try, as they are counted.
    const all = new Map<string, number>();
    const count = async (wanted: { i: number; j: number }[], zoned: number[]) => {
      const zone = (i: number) => `bool_or(regexp_matches(${v(i)}, '[T ][0-9:.]+ ?(Z|[+-][0-9]{2}(:?[0-9]{2})?)$')) AS z${i}`;
      const row = (
        await conn.runAndReadAll(
          `SELECT ${[...wanted.map(({ i, j }) => `${misses(i, tries[j])} AS m${i}_${j}`), ...zoned.map(zone)].join(', ')} FROM ${sample}`,
        )
      ).getRowObjectsJson()[0];
      for (const { i, j } of wanted) all.set(`${i}_${j}`, Number(row[`m${i}_${j}`]));
      return row;
    };
    // The tries that miss the fewest of the first rows first, and the zone of each column.
    const fewest = (i: number) => Math.min(...tries.map((_, j) => Number(first[`m${i}_${j}`])));
    const zones = await count(
      candidates.flatMap(({ i }) => tries.flatMap((_, j) => (Number(first[`m${i}_${j}`]) === fewest(i) ? [{ i, j }] : []))),
      candidates.map(({ i }) => i),
    );
    // The best so far per column, and the tries that could still beat it, until none can.
    const best = (i: number) => {
      let j = -1;
      tries.forEach((_, k) => {
        const m = all.get(`${i}_${k}`);
        if (m !== undefined && (j < 0 || m < all.get(`${i}_${j}`)!)) j = k;
      });
      return j;
    };
    for (;;) {
      const open = candidates.flatMap(({ i }) => {
        const j = best(i);
        const floor = all.get(`${i}_${j}`)!;
        return tries.flatMap((_, k) => {
          const p = Number(first[`m${i}_${k}`]);
          return !all.has(`${i}_${k}`) && (p < floor || (p === floor && k < j)) ? [{ i, j: k }] : [];
        });
      });
      if (open.length === 0) break;
      await count(open, []);
    }
    for (const { c, i, n } of candidates) {
      const j = best(i);
      if (all.get(`${i}_${j}`)! * 2 > n) continue;
      const t = tries[j];
      found.set(c.name, !t.format && zones[`z${i}`] === true ? { type: 'TIMESTAMPTZ' } : t);
    }
    return found;
  } finally {
    await conn.run(`DROP TABLE IF EXISTS ${sample}`);
  }
}
