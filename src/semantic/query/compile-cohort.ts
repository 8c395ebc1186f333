// A cohort insight (docs/model.md "Time intelligence") in one query: the distinct (entity, period)
// pairs of the rows the caller sees (tenant, access filters, segments and the insight's filters:
// before cohorts are formed), each entity's first period as its cohort, and per cohort and period
// the entities active. cohortRows makes the answer's rows of it: every period since the cohort up
// to the window's end (0 where none was active), its size (the entities active in its own period)
// and the retention in percent.
import type { Dialect } from '../dialects/dialect.ts';
import { addDays, bucketStart, periodStarts, type Window } from '../periods.ts';
import type { Granularity } from '../types.ts';

export interface CohortParts {
  d: Dialect;
  bindDate(value: string): string;
  granularity: Granularity;
  window: Window;
  from: string;
  where: string[];
  time: string;
  /** The entity's expression. */
  entity: string;
}

/** Columns: cohort (its period's first day), period (the first day of the period counted), active. */
export function cohortSelect(p: CohortParts): string {
  const { d } = p;
  const qt = (x: string) => d.quote(x);
  const date = (x: string) => d.typedParam(p.bindDate(x), 'date');
  const a = `SELECT DISTINCT ${p.entity} AS ${qt('e')}, ${d.bucket(p.granularity, p.time)} AS ${qt('b')} FROM ${p.from} WHERE ${[
    ...p.where,
    `${p.entity} IS NOT NULL`,
    `${p.time} < ${date(addDays(p.window.to, 1))}`,
  ].join(' AND ')}`;
  const col = (t: string, c: string) => `${qt(t)}.${qt(c)}`;
  return (
    `WITH ${qt('a')} AS (${a}), ${qt('c')} AS (SELECT ${qt('e')}, min(${qt('b')}) AS ${qt('c')} FROM ${qt('a')} GROUP BY ${qt('e')}) ` +
    `SELECT ${col('c', 'c')} AS ${qt('cohort')}, ${col('a', 'b')} AS ${qt('period')}, count(*) AS ${qt('active')} ` +
    `FROM ${qt('a')} JOIN ${qt('c')} ON ${col('a', 'e')} = ${col('c', 'e')} ` +
    `WHERE ${col('c', 'c')} >= ${date(p.window.from)} AND ${col('c', 'c')} <= ${date(p.window.to)} GROUP BY 1, 2`
  );
}

export interface CohortRow {
  cohort: string;
  period: number;
  size: number;
  active: number;
  retention: number;
  [key: string]: string | number;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** The answer's rows: per cohort (in order), every period since it up to the window's last one. */
export function cohortRows(raw: Record<string, unknown>[], g: Granularity, w: Window): CohortRow[] {
  const active = new Map<string, Map<string, number>>();
  for (const r of raw) {
    const cohort = String(r.cohort).slice(0, 10);
    const period = String(r.period).slice(0, 10);
    if (!active.has(cohort)) active.set(cohort, new Map());
    active.get(cohort)!.set(period, Number(r.active));
  }
  const last = bucketStart(w.to, g);
  const out: CohortRow[] = [];
  for (const cohort of [...active.keys()].sort()) {
    const counts = active.get(cohort)!;
    const size = counts.get(cohort) ?? 0;
    periodStarts(cohort, last, g).forEach((period, i) => {
      const n = counts.get(period) ?? 0;
      out.push({ cohort, period: i, retention: size ? round2((100 * n) / size) : 0, active: n, size });
    });
  }
  return out;
}
