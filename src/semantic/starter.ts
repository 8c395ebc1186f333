// `insights model init`: a starter model written from tables already loaded, so a user gets
// answers before writing YAML. Each column is read from the data (type, distinct values, nulls,
// the span of time columns) and becomes measures or dimensions; insights of every kind follow.
// Everything is a guess the user is told to edit: the file says so, node by node.
import { Document, isScalar, visit, type YAMLMap } from 'yaml';
import type { ModelFile } from './model.schema.ts';

// The nodes written, as plain data (the schema's literal unions are checked when the file is read).
interface MeasureDef {
  name: string;
  title: string;
  type: 'count' | 'sum' | 'avg' | 'count_distinct';
  sql?: string;
  format?: 'money' | 'integer' | 'number';
  synonyms?: string[];
}
interface DimensionDef {
  name: string;
  title: string;
  type: 'time' | 'string' | 'number' | 'boolean';
  sql: string;
  synonyms?: string[];
}
interface CubeDef {
  name: string;
  sql_table: string;
  tenant_column: string;
  measures: MeasureDef[];
  dimensions: DimensionDef[];
}
interface InsightDef {
  code: string;
  name: string;
  kind: 'timeseries' | 'breakdown' | 'top' | 'kpi';
  measures: string[];
  time_dimension: string;
  dimension?: string;
  default_granularity?: string;
  default_limit?: number;
  filters?: string[];
}

/** What `model init` needs of a warehouse: a query (the probe's shape). */
export interface StarterSource {
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
}

export interface StarterTable {
  name: string;
  /** Canonical types (BIGINT, DOUBLE, DECIMAL(p,s), VARCHAR, DATE, TIMESTAMP, TIMESTAMPTZ, BOOLEAN). */
  columns: { name: string; type: string }[];
  tenantColumn: string;
}

interface ColumnProfile {
  name: string;
  type: string;
  distinct: number;
  nonNull: number;
  min?: string;
  max?: string;
}

export interface TableProfile {
  table: StarterTable;
  rows: number;
  columns: ColumnProfile[];
}

/** Up to this many distinct values a dimension is broken down by (and filtered on); more: top lists. */
export const LOW_CARDINALITY = 20;
const MAX_GROUPINGS = 6;
const MAX_PAIRS = 40;

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
const isTime = (t: string) => /^(DATE|TIMESTAMP|TIMESTAMPTZ)$/.test(t);
const isNumber = (t: string) => /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|FLOAT|REAL|DOUBLE|DECIMAL\(\d+,\d+\))$/.test(t);
const isInteger = (t: string) => /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|DECIMAL\(\d+,0\))$/.test(t);

/** One scan of the table: rows, and per column its distinct and non-null values (and a time column's span). */
export async function profileTable(source: StarterSource, table: StarterTable): Promise<TableProfile> {
  const parts = ['count(*) AS n'];
  table.columns.forEach((c, i) => {
    const col = quoteIdent(c.name);
    parts.push(`count(DISTINCT ${col}) AS d${i}`, `count(${col}) AS v${i}`);
    if (isTime(c.type)) parts.push(`CAST(min(${col}) AS VARCHAR) AS lo${i}`, `CAST(max(${col}) AS VARCHAR) AS hi${i}`);
  });
  const [row] = await source.query(`SELECT ${parts.join(', ')} FROM ${table.name.split('.').map(quoteIdent).join('.')}`);
  return {
    table,
    rows: Number(row.n),
    columns: table.columns.map((c, i) => ({
      ...c,
      distinct: Number(row[`d${i}`]),
      nonNull: Number(row[`v${i}`]),
      ...(row[`lo${i}`] != null ? { min: String(row[`lo${i}`]).slice(0, 10), max: String(row[`hi${i}`]).slice(0, 10) } : {}),
    })),
  };
}

/** The header's words: "Cost Total $" → ["cost", "total"], "productLine" → ["product", "line"]. */
function words(header: string): string[] {
  return header
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function identifier(header: string, fallback: string): string {
  const s = words(header).join('_');
  if (!s) return fallback;
  return /^[a-z_]/.test(s) ? s : `_${s}`;
}

/** A title from the header as written: separators become spaces, the first letter upper-case. */
function title(header: string): string {
  const s =
    header
      .replace(/[_-]+/g, ' ')
      .replace(/[^\p{L}\p{N}%&'/.() ]+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim() || header.trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function plural(word: string): string {
  if (/(s|x|ch|sh)$/.test(word)) return word;
  return /[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : `${word}s`;
}

/** Other ways people may say a header than its title: its bare words, as written; and `more`. */
function synonyms(header: string, ...more: string[]): { synonyms?: string[] } {
  const own = title(header).toLowerCase();
  const out = [...new Set([words(header).join(' '), header.trim().toLowerCase(), ...more])].filter((s) => s && s !== own);
  return out.length ? { synonyms: out } : {};
}

/** SQL of a column: a plain lower-case name as it is; anything else quoted, exactly as loaded. */
function columnSql(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `{CUBE}.${quoteIdent(name)}`;
}

const ID_LIKE = /(^|[^a-z])(id|uuid|guid|key|code|sku|number|no|nr|num)$/i;
const CALENDAR = /^(year|month|week|day|quarter|hour|yr)s?$|(^|[^a-z])(year|month|week|quarter)$/i;
const INTENSIVE_WORDS = 'rating|score|rate|ratio|percent|pct|%|age|temperature|temp|duration|minutes|mins|seconds|price|speed';
const INTENSIVE = new RegExp(`(${INTENSIVE_WORDS}|rank|length|width|height|weight|size)`, 'i');
const COORDINATE = /(^|[^a-z])(lat|lon|lng|latitude|longitude)([^a-z]|$)/i;
const MONEY = /(\$|€|£|¥|price|cost|revenue|amount|gross|sales|profit|income|spend|budget|fee|salary|usd|eur|gbp)/i;
const GENERIC = new Set(['total', 'sum', 'usd', 'eur', 'gbp']);
const RESERVED_PARAMS = new Set(['granularity', 'date_from', 'date_to', 'limit', 'compare']);

interface Planned {
  cube: CubeDef;
  /** Measures in the order insights pair them: count, sums, distinct counts, averages. */
  measures: MeasureDef[];
  time?: DimensionDef;
  low: DimensionDef[];
  high: DimensionDef[];
  span?: { from: string; to: string };
  notes: string[];
}

function planCube(p: TableProfile, cubeName: string): Planned {
  const taken = new Set<string>();
  const unique = (name: string) => {
    let n = RESERVED_PARAMS.has(name) ? `${name}_value` : name;
    for (let i = 2; taken.has(n); i++) n = `${name}_${i}`;
    taken.add(n);
    return n;
  };
  const tableWords = words(p.table.name).join(' ');
  const count: MeasureDef = {
    name: unique('count'),
    title: `Number of ${tableWords}`,
    type: 'count',
    format: 'integer',
    synonyms: MONEY.test(tableWords) ? ['count'] : [tableWords, 'count'],
  };
  const sums: MeasureDef[] = [];
  const averages: MeasureDef[] = [];
  const distincts: MeasureDef[] = [];
  const dims: { def: DimensionDef; distinct: number; nonNull: number; id: boolean }[] = [];
  const times: ColumnProfile[] = [];
  const notes: string[] = [];
  for (const c of p.columns) {
    const base = identifier(c.name, `column_${p.columns.indexOf(c) + 1}`);
    const sql = columnSql(c.name);
    if (c.nonNull === 0) {
      notes.push(`${c.name}: every value is empty, left out`);
      continue;
    }
    if (isTime(c.type)) {
      times.push(c);
      dims.push({
        def: { name: unique(base), title: title(c.name), type: 'time', sql, ...synonyms(c.name) },
        distinct: c.distinct,
        nonNull: c.nonNull,
        id: false,
      });
      continue;
    }
    if (c.type === 'BOOLEAN') {
      dims.push({
        def: { name: unique(base), title: title(c.name), type: 'boolean', sql, ...synonyms(c.name) },
        distinct: c.distinct,
        nonNull: c.nonNull,
        id: false,
      });
      continue;
    }
    const idLike = ID_LIKE.test(c.name.trim());
    if (isNumber(c.type) && !idLike && !CALENDAR.test(c.name.trim())) {
      if (COORDINATE.test(c.name)) {
        notes.push(`${c.name}: a coordinate, left out (neither summed nor averaged)`);
        continue;
      }
      const money = MONEY.test(c.name);
      const format = money ? ('money' as const) : undefined;
      const said = words(c.name).join(' ');
      if (!INTENSIVE.test(c.name) || (money && !/price/i.test(c.name))) {
        // "Cost Total $" is also said "cost" and "total cost".
        const core = words(c.name)
          .filter((w) => !GENERIC.has(w))
          .join(' ');
        const also = core && core !== said ? [core, `total ${core}`] : [`total ${said}`];
        sums.push({
          name: unique(base),
          title: title(c.name),
          type: 'sum',
          sql,
          format: format ?? (isInteger(c.type) ? 'integer' : 'number'),
          ...synonyms(c.name, ...also),
        });
      }
      averages.push({
        name: unique(`average_${base}`),
        title: `Average ${title(c.name)}`,
        type: 'avg',
        sql,
        ...(format ? { format } : {}),
        ...synonyms(`average ${c.name}`, `avg ${said}`, `mean ${said}`),
      });
      continue;
    }
    // Text, ids and calendar numbers: dimensions; an id is also counted once per value.
    const type = isNumber(c.type) ? 'number' : 'string';
    dims.push({
      def: { name: unique(base), title: title(c.name), type, sql, ...synonyms(c.name) },
      distinct: c.distinct,
      nonNull: c.nonNull,
      id: idLike,
    });
    if (idLike) {
      const thing = words(c.name).filter((w) => !ID_LIKE.test(w) || words(c.name).length === 1);
      const noun = plural(thing.join(' ') || words(c.name).join(' '));
      distincts.push({
        name: unique(identifier(noun, `distinct_${base}`)),
        title: `${noun.charAt(0).toUpperCase()}${noun.slice(1)}`,
        type: 'count_distinct',
        sql,
        format: 'integer',
        synonyms: [`number of ${noun}`, `distinct ${words(c.name).join(' ')}`],
      });
    }
  }
  // The time dimension of the insights: the time column with the most values.
  const timeCol = [...times].sort((a, b) => b.nonNull - a.nonNull)[0];
  const time = timeCol ? dims.find((d) => d.def.type === 'time' && d.def.sql === columnSql(timeCol.name))!.def : undefined;
  const grouping = dims
    .filter((d) => d.def.type !== 'time' && d.distinct >= 2)
    .sort((a, b) => b.nonNull - a.nonNull)
    .slice(0, MAX_GROUPINGS);
  const cube: CubeDef = {
    name: cubeName,
    sql_table: p.table.name,
    tenant_column: p.table.tenantColumn,
    measures: [count, ...sums, ...averages, ...distincts],
    dimensions: dims.map((d) => d.def),
  };
  return {
    cube,
    measures: [count, ...sums, ...distincts, ...averages],
    time,
    // An id has a value per thing however few were loaded yet: always a top list.
    low: grouping.filter((d) => d.distinct <= LOW_CARDINALITY && !d.id).map((d) => d.def),
    high: grouping.filter((d) => (d.distinct > LOW_CARDINALITY || d.id) && d.def.type !== 'boolean').map((d) => d.def),
    ...(timeCol?.min && timeCol.max ? { span: { from: timeCol.min, to: timeCol.max } } : {}),
    notes,
  };
}

/** day for a month of data, week up to a year and a half, month up to six years, else year. */
function granularityFor(span?: { from: string; to: string }): 'day' | 'week' | 'month' | 'year' {
  if (!span) return 'month';
  const days = (Date.parse(span.to) - Date.parse(span.from)) / 86_400_000;
  return days <= 62 ? 'day' : days <= 550 ? 'week' : days <= 6 * 366 ? 'month' : 'year';
}

function insightsOf(plan: Planned, prefix: string): InsightDef[] {
  if (!plan.time) return [];
  const c = plan.cube.name;
  const ref = (n: string) => `${c}.${n}`;
  const time = ref(plan.time.name);
  const text = (t: string) => t;
  const filters = (except?: string) => plan.low.filter((d) => d.type === 'string' && d.name !== except).map((d) => ref(d.name));
  const withFilters = (except?: string) => (filters(except).length ? { filters: filters(except) } : {});
  const out: InsightDef[] = [];
  for (const m of plan.measures) {
    out.push({
      code: `${prefix}${m.name}`,
      name: text(m.title),
      kind: 'timeseries',
      measures: [ref(m.name)],
      time_dimension: time,
      default_granularity: granularityFor(plan.span),
      ...withFilters(),
    });
  }
  let pairs = 0;
  for (const m of plan.measures) {
    for (const d of [...plan.low, ...plan.high]) {
      if (pairs++ >= MAX_PAIRS) break;
      const low = plan.low.includes(d);
      out.push({
        code: low ? `${prefix}${m.name}_by_${d.name}` : `${prefix}top_${d.name}_by_${m.name}`,
        name: low ? `${text(m.title)} by ${text(d.title)}` : `Top ${text(d.title)} by ${text(m.title)}`,
        kind: low ? 'breakdown' : 'top',
        measures: [ref(m.name)],
        dimension: ref(d.name),
        time_dimension: time,
        // A breakdown shows every value; "top 3" of it still works.
        default_limit: low ? LOW_CARDINALITY : 10,
        ...withFilters(d.name),
      });
    }
  }
  for (const m of plan.measures) {
    out.push({
      code: `${prefix}${m.name}_kpi`,
      name: `${text(m.title)} KPI`,
      kind: 'kpi',
      measures: [ref(m.name)],
      time_dimension: time,
      ...withFilters(),
    });
  }
  return out;
}

/** The starter model of the profiled tables, as YAML with comments saying what to edit. */
export function starterModel(profiles: TableProfile[], today: string): { yaml: string; model: ModelFile; notes: string[] } {
  const plans = profiles.map((p) => planCube(p, identifier(p.table.name, 'table')));
  const several = plans.length > 1;
  const written = {
    cubes: plans.map((p) => p.cube),
    insights: plans.flatMap((p) => insightsOf(p, several ? `${p.cube.name}_` : '')),
  };
  const model = written as ModelFile;
  const doc = new Document(written);
  doc.commentBefore = [
    ` A starter model written by \`insights model init\` on ${today} from ` +
      `${profiles.map((p) => `${p.table.name} (${p.rows.toLocaleString('en')} rows)`).join(', ')}.`,
    ' Everything here is a guess from the data. Edit it: give measures and dimensions the words your',
    ' users say (title, synonyms), delete what nobody asks about, keep or add insights (docs/model.md).',
    ' Check it after each edit: insights model check --model <this file>',
  ].join('\n');
  const mapAt = (path: (string | number)[]) => doc.getIn(path, true) as YAMLMap | undefined;
  const keyComment = (path: (string | number)[], key: string, comment: string) => {
    const pair = mapAt(path)?.items.find((i) => isScalar(i.key) && i.key.value === key);
    if (pair && isScalar(pair.key)) pair.key.commentBefore = comment;
  };
  const notes: string[] = [];
  plans.forEach((p, i) => {
    const path = ['cubes', i];
    keyComment(path, 'tenant_column', " The column holding each row's tenant (the loader fills it); keep it.");
    keyComment(
      path,
      'measures',
      ' Measures: a count of rows, sums and averages of the numbers, distinct counts of the ids. Add `filters:` to count only some rows.',
    );
    keyComment(
      path,
      'dimensions',
      ` Dimensions: what answers are grouped and filtered by. A column that is not a plain lower-case name is quoted ` +
        `({CUBE}."Order Date"), exactly as loaded.`,
    );
    for (const n of p.notes) notes.push(`${p.cube.name}: ${n}`);
    if (!p.time) notes.push(`${p.cube.name}: no date or time column, so no insights (every insight needs a time dimension)`);
  });
  const first = model.insights?.length ? 'insights' : undefined;
  if (first) {
    const groups = plans.map(
      (p) =>
        `${p.cube.name}: breakdowns by ${p.low.map((d) => d.name).join(', ') || 'none'} (at most ${LOW_CARDINALITY} ` +
        `values each), top lists by ${p.high.map((d) => d.name).join(', ') || 'none'}`,
    );
    const pair = (doc.contents as YAMLMap).items.find((x) => isScalar(x.key) && x.key.value === 'insights');
    if (pair && isScalar(pair.key)) {
      pair.key.commentBefore = [
        " Insights: what the API's catalog and chat offer. A series and a total (KPI) per measure;",
        ` ${groups.join('; ')}. Rename codes and names as you like; delete the ones nobody needs.`,
        ...(notes.length ? [' Left out:', ...notes.map((n) => `   ${n}`)] : []),
      ].join('\n');
    }
  }
  // Lists of names read best on one line.
  visit(doc, {
    Seq(_key, node, path) {
      const parent = path[path.length - 1] as { key?: unknown } | undefined;
      if (isScalar(parent?.key) && ['synonyms', 'measures', 'filters'].includes(String(parent.key.value)) && node.items.every(isScalar))
        node.flow = true;
    },
  });
  return { yaml: doc.toString({ lineWidth: 0, flowCollectionPadding: false }), model, notes };
}
