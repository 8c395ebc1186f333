// The time a rollup can bucket, and how a whole build is cut into slices of it. Calendar arithmetic
// on dates far out (year 1 or 9999: a month after 9999-12-01 is year 10000, which no engine
// casts) must never run: values outside the span are not rolled up, and the tenants holding them
// are answered from the raw rows (docs/rollups.md).
import { addPeriods, bucketStart } from '../../semantic/periods.ts';
import { rollsUpTo } from '../../semantic/rollups.ts';
import { GRANULARITIES, type Granularity, type RollupDefinition } from '../../semantic/types.ts';

/** The days a rollup buckets: [from, to). The loader refuses values outside it (docs/data.md). */
export const BUCKETABLE = { from: '1900-01-01', to: '2201-01-01' } as const;

/** Where a day (or a timestamp's text, as engines print it) lies: -1 before the span, 0 in it, 1 after. */
export function spanSide(value: string): -1 | 0 | 1 {
  if (!/^\d{4}-/.test(value)) return /^\d{5,}-/.test(value) ? 1 : -1;
  const day = value.slice(0, 10);
  return day < BUCKETABLE.from ? -1 : day >= BUCKETABLE.to ? 1 : 0;
}

export const bucketable = (value: string) => spanSide(value) === 0;

/** The reason a tenant's rows are not rolled up, from their earliest and latest day. */
export const outsideSpanProblem = (lo: string, hi: string) =>
  `rows outside ${BUCKETABLE.from}…2200-12-31 (earliest ${lo.slice(0, 10)}, latest ${hi.slice(0, 10)}) are not rolled ` +
  `up: this tenant's queries read the raw rows`;

/** The end (exclusive) of the bucket of `g` starting at `start`: the next bucket's start. */
export const bucketEnd = (start: string, g: Granularity) => addPeriods(start, g, 1);

/** Rows of the time dimension's table a build slice should hold at most (its join and groups stay small). */
const ROWS_PER_SLICE = 1_000_000;

/**
 * The [from, to) day ranges a whole build inserts one at a time: partitions (else months), made
 * finer (weeks, then days) while a slice would hold more than ROWS_PER_SLICE rows on average.
 * Never finer than the rollup's own buckets need: slices are whole buckets of its granularity.
 * `lo` and `hi` are clamped to the bucketable span first.
 */
export function buildSlices(r: RollupDefinition, lo: string, hi: string, rows: number): [string, string][] {
  if (spanSide(lo) === 1 || spanSide(hi) === -1) return [];
  const from0 = spanSide(lo) === 0 ? lo.slice(0, 10) : BUCKETABLE.from;
  const last = spanSide(hi) === 0 ? hi.slice(0, 10) : '2200-12-31';
  const order: Granularity[] = ['year', 'quarter', 'month', 'week', 'day'];
  let g: Granularity =
    r.partitionGranularity ?? (GRANULARITIES.indexOf(r.granularity) > GRANULARITIES.indexOf('month') ? r.granularity : 'month');
  const days = (Date.parse(last) - Date.parse(from0)) / 86_400_000 + 1;
  const perDays: Record<Granularity, number> = { day: 1, week: 7, month: 30, quarter: 91, year: 365 };
  for (;;) {
    const finer = order[order.indexOf(g) + 1];
    const tooBig = rows / Math.max(1, Math.ceil(days / perDays[g])) > ROWS_PER_SLICE;
    // A slice is whole buckets of the rollup: a month rollup is sliced by months at the finest.
    if (!tooBig || !finer || !rollsUpTo(r.granularity, finer)) break;
    g = finer;
  }
  const out: [string, string][] = [];
  for (let from = bucketStart(from0, g); from <= last; from = bucketEnd(from, g)) out.push([from, bucketEnd(from, g)]);
  return out;
}
