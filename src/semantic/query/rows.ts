// The rows of a compiled query (compile.ts) made into the answer's rows: an answer grouped by time
// has every period of its window, zero-filled, for every combination of the other keys (with
// compare, each period beside the one it is paired with), then its conditions on measures, order,
// offset and limit; the other answers come ordered and cut from SQL. Figures stay unrounded here:
// each presenter rounds them as their measure's format says.
import type { Cell } from '../../lib/chart.schemas.ts';
import { type MeasureFilter, type OrderTerm, PERIOD, previousOf, SIDE, TOTAL } from './compile.ts';
import { periodStarts, type Comparison, type Window } from '../periods.ts';
import type { Granularity } from '../types.ts';

export type Row = Record<string, Cell>;
type WarehouseRowLike = Record<string, unknown>;

export interface Arrangement {
  granularity: Granularity | null;
  window?: Window;
  /** The grouping dimensions' columns, as compile.ts names them. */
  keys: string[];
  /** The measure columns to read (previousOf(m) too, with compare or a previous window). */
  measures: string[];
  compare?: Comparison;
  /** One-row answers: read previousOf(m) too. */
  previous?: boolean;
  /**
   * Grouped by time: the key combinations each period is shown for; by default those with rows in
   * the window (an insight's series: the values asked for, in that order).
   */
  combinations?: Cell[][];
  having?: MeasureFilter[];
  order?: OrderTerm[];
  limit?: number;
  offset?: number;
}

export interface Arranged {
  rows: Row[];
  /** The rows there are before offset and limit. */
  total: number;
}

/** A figure as a number: a measure with nothing to aggregate (a zero-filled period, a ratio over zero) reads 0. */
export const figure = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));

const cell = (v: unknown): Cell =>
  v === null || v === undefined ? null : typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean' ? v : String(v);

/** Whether a figure meets a condition on its measure (as compile.ts's SQL tests it). */
export function meets(f: MeasureFilter, v: number): boolean {
  const [a, b] = f.values;
  switch (f.operator) {
    case 'gt':
      return v > a;
    case 'gte':
      return v >= a;
    case 'lt':
      return v < a;
    case 'lte':
      return v <= a;
    case 'between':
      return v >= a && v <= b;
    case 'equals':
      return f.values.includes(v);
    case 'not_equals':
      return !f.values.includes(v);
    default:
      // set/not_set: a figure is always there once zero-filled.
      return f.operator === 'set';
  }
}

/** Ascending order of cells: numbers by value, text by code unit, nulls last. */
function compareCells(x: Cell, y: Cell): number {
  if (x === y) return 0;
  if (x === null) return 1;
  if (y === null) return -1;
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  const a = String(x);
  const b = String(y);
  return a < b ? -1 : a > b ? 1 : 0;
}

export function arrange(rows: WarehouseRowLike[], a: Arrangement): Arranged {
  // The warehouse names a member's column "cube:member" (compile.ts); the rows here say "cube.member".
  const raw = rows.map((r) => {
    const out: WarehouseRowLike = {};
    for (const [k, v] of Object.entries(r)) out[k.includes(':') ? k.replace(/:/g, '.') : k] = v;
    return out;
  });
  return a.granularity ? byTime(raw, a) : byKeys(raw, a);
}

function byKeys(raw: WarehouseRowLike[], a: Arrangement): Arranged {
  const rows = raw.map((r) => {
    const row: Row = {};
    for (const k of a.keys) row[k] = cell(r[k]);
    for (const m of a.measures) {
      row[m] = figure(r[m]);
      if (a.compare || a.previous) row[previousOf(m)] = figure(r[previousOf(m)]);
    }
    return row;
  });
  if (!a.keys.length) {
    // One row: its conditions on measures here; grouped answers had theirs in SQL.
    const kept = rows.filter((row) => (a.having ?? []).every((h) => meets(h, row[h.measure] as number)));
    return { rows: kept, total: kept.length };
  }
  const total = raw.length ? figure(raw[0][TOTAL] ?? raw.length) : 0;
  return { rows, total };
}

function byTime(raw: WarehouseRowLike[], a: Arrangement): Arranged {
  const g = a.granularity!;
  const keyOf = (period: string, values: Cell[]) => JSON.stringify([period, ...values]);
  const sides = [new Map<string, WarehouseRowLike>(), new Map<string, WarehouseRowLike>()];
  const seen = new Map<string, Cell[]>();
  for (const r of raw) {
    const values = a.keys.map((k) => cell(r[k]));
    const side = Number(r[SIDE] ?? 0);
    sides[side].set(keyOf(String(r[PERIOD]).slice(0, 10), values), r);
    if (side === 0) seen.set(JSON.stringify(values), values);
  }
  const combinations =
    a.combinations ??
    (a.keys.length ? [...seen.values()].sort((x, y) => x.reduce<number>((o, v, i) => o || compareCells(v, y[i]), 0)) : [[]]);
  const paired = new Map(a.compare?.periods?.map((p) => [p.period, p.previous]));
  const rows: Row[] = [];
  for (const period of periodStarts(a.window!.from, a.window!.to, g)) {
    for (const values of combinations) {
      const r = sides[0].get(keyOf(period, values));
      const row: Row = { [PERIOD]: period };
      a.keys.forEach((k, i) => (row[k] = values[i]));
      for (const m of a.measures) row[m] = figure(r?.[m]);
      if (a.compare) {
        const before = paired.get(period);
        const p = before ? sides[1].get(keyOf(before, values)) : undefined;
        for (const m of a.measures) row[previousOf(m)] = before ? figure(p?.[m]) : null;
      }
      rows.push(row);
    }
  }
  const kept = rows.filter((row) => (a.having ?? []).every((h) => meets(h, row[h.measure] as number)));
  // Periods in order and, within one, the combinations as listed, unless an order is asked for.
  if (a.order?.length) {
    const index = new Map(kept.map((row, i) => [row, i]));
    kept.sort((x, y) => {
      for (const t of a.order!) {
        const o = compareCells(x[t.column], y[t.column]);
        // Nulls last either way.
        if (o) return t.desc && x[t.column] !== null && y[t.column] !== null ? -o : o;
      }
      return index.get(x)! - index.get(y)!;
    });
  }
  const from = a.offset ?? 0;
  return { rows: kept.slice(from, a.limit === undefined ? undefined : from + a.limit), total: kept.length };
}
