// Rolling measures (rolling_window, docs/model.md "Time intelligence"): each period's figure is the
// measure over a window of rows ending with that period — the N units before its end (trailing),
// every earlier row (unbounded), or the rows since the start of its year, quarter or month (to_date).
//
// One query, in two stages on every engine:
// 1. the fact's rows (tenant, access filters, segments, the query's filters: all inside the window)
//    aggregated per day and grouping keys into partials (sum, count, min, max; an average's sum and
//    count), or, for a distinct count, the distinct (day, keys, value) rows;
// 2. those joined to the list of periods, each with its window [start, end), and aggregated again
//    per period and keys: a sum of sums, a sum of counts, a min of mins, an average as sum / count,
//    and a distinct count over the whole window's values (never a sum of per-period counts).
// The days read reach back from the query's window to the first window's start (all of the data
// for unbounded). A period's end is the next period's start or the day after the query's window,
// whichever comes first, so the last, partial period's window ends with the window's last day.
// Read from the cube's own rows, never a rollup.
import type { Dialect } from '../dialects/dialect.ts';
import { addDays, addPeriods, bucketStart, periodStarts, type Window } from '../periods.ts';
import type { FactPlan, Granularity, LeafMeasure, QueryPlan, RollingWindow } from '../types.ts';

/** A plan whose facts each hold measures of one rolling window (a distinct count alone), or none. */
export function splitRolling(plan: QueryPlan): QueryPlan {
  if (!plan.facts.some((f) => f.measures.some((m) => m.rolling))) return plan;
  const facts = plan.facts.flatMap((f) => {
    const groups = new Map<string, LeafMeasure[]>();
    for (const m of f.measures) {
      const key = m.rolling ? JSON.stringify(m.rolling) + (m.agg === 'count_distinct' ? `#${m.ref}` : '') : '';
      const group = groups.get(key);
      if (group) group.push(m);
      else groups.set(key, [m]);
    }
    return [...groups.values()].map((measures) => ({ ...f, measures }));
  });
  return { ...plan, facts };
}

/** One period and the window its rolling figure covers: [start, end); start absent for unbounded. */
export interface RollingPeriod {
  period: string;
  start?: string;
  end: string;
}

export function rollingPeriods(rolling: RollingWindow, g: Granularity, w: Window): RollingPeriod[] {
  const after = addDays(w.to, 1);
  return periodStarts(w.from, w.to, g).map((p) => {
    const next = addPeriods(bucketStart(p, g), g, 1);
    const end = next < after ? next : after;
    if (rolling.kind === 'unbounded') return { period: p, end };
    const start =
      rolling.kind === 'trailing' ? addPeriods(end, rolling.unit, -rolling.n) : bucketStart(addDays(end, -1), rolling.granularity);
    return { period: p, start, end };
  });
}

export interface RollingParts {
  d: Dialect;
  bindDate(value: string): string;
  granularity: Granularity;
  window: Window;
  /** The fact's rows: FROM and WHERE (tenant, access, segments, filters), and its time column. */
  from: string;
  where: string[];
  time: string;
  keys: { name: string; sql: string }[];
  /** A leaf measure's aggregate over the rows, with its own filters. */
  aggregate(m: LeafMeasure): string;
  /** The columns of every stacked fact (NULL for another fact's measures). */
  allMeasures?: string[];
}

/** The fact's figures per period (PERIOD) and keys, each over its rolling window. */
export function rollingSelect(f: FactPlan, p: RollingParts, period: string): string {
  const { d } = p;
  const qt = (x: string) => d.quote(x);
  const rolling = f.measures[0].rolling!;
  const periods = rollingPeriods(rolling, p.granularity, p.window);
  const starts = periods.map((x) => x.start).filter((x): x is string => x !== undefined);
  const first = starts.length ? starts.reduce((a, b) => (a < b ? a : b)) : undefined;
  const day = d.bucket('day', p.time);
  const where = [
    ...p.where,
    ...(first ? [`${p.time} >= ${d.typedParam(p.bindDate(first), 'date')}`] : []),
    `${p.time} < ${d.typedParam(p.bindDate(periods[periods.length - 1].end), 'date')}`,
  ];
  const keys = p.keys.map((k) => `${k.sql} AS ${qt(k.name)}`);
  const groupBy = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(', ');
  const distinct = f.measures[0].agg === 'count_distinct' ? f.measures[0] : undefined;
  let stage1: string;
  const outer = new Map<string, string>();
  const s = (col: string) => `${qt('s')}.${qt(col)}`;
  if (distinct) {
    stage1 =
      `SELECT DISTINCT ${[`${day} AS ${qt('__b')}`, ...keys, `${distinct.sql} AS ${qt('__v')}`].join(', ')} ` +
      `FROM ${p.from} WHERE ${[...where, ...distinct.filters].join(' AND ')}`;
    outer.set(distinct.ref, `count(DISTINCT ${s('__v')})`);
  } else {
    const partials: string[] = [];
    f.measures.forEach((m, i) => {
      const col = (part: string) => `__m${i + 1}${part}`;
      if (m.agg === 'avg') {
        partials.push(
          `${p.aggregate({ ...m, agg: 'sum' })} AS ${qt(col('s'))}`,
          `${p.aggregate({ ...m, agg: 'count' })} AS ${qt(col('n'))}`,
        );
        outer.set(m.ref, `${d.toDouble(`sum(${s(col('s'))})`)} / NULLIF(${d.toDouble(`sum(${s(col('n'))})`)}, 0)`);
        return;
      }
      partials.push(`${p.aggregate(m)} AS ${qt(col(''))}`);
      const again = m.agg === 'min' || m.agg === 'max' ? m.agg : 'sum';
      outer.set(m.ref, `${again}(${s(col(''))})`);
    });
    stage1 =
      `SELECT ${[`${day} AS ${qt('__b')}`, ...keys, ...partials].join(', ')} FROM ${p.from} ` +
      `WHERE ${where.join(' AND ')} GROUP BY ${groupBy(1 + keys.length)}`;
  }
  const date = (x: string) => d.typedParam(p.bindDate(x), 'date');
  const list = periods
    .map(
      (x) =>
        `SELECT ${date(x.period)} AS ${qt('__p')}, ${x.start ? `${date(x.start)} AS ${qt('__ws')}, ` : ''}${date(x.end)} AS ${qt('__pe')}`,
    )
    .join(' UNION ALL ');
  const k = (col: string) => `${qt('k')}.${qt(col)}`;
  const on = [...(first ? [`${s('__b')} >= ${k('__ws')}`] : []), `${s('__b')} < ${k('__pe')}`];
  const cols = [
    `${d.bucket(p.granularity, k('__p'))} AS ${qt(period)}`,
    ...p.keys.map((x) => `${s(x.name)} AS ${qt(x.name)}`),
    ...(p.allMeasures ?? f.measures.map((m) => m.ref)).map((m) => `${outer.get(m) ?? d.nullFigure} AS ${qt(m)}`),
  ];
  return (
    `SELECT ${cols.join(', ')} FROM (${list}) AS ${qt('k')} CROSS JOIN (${stage1}) AS ${qt('s')} ` +
    `WHERE ${on.join(' AND ')} GROUP BY ${groupBy(1 + p.keys.length)}`
  );
}
