// A cohort insight's rows (docs/model.md "Retention by cohort") drawn as a retention triangle: a
// row per cohort with its size, a column per period since, each cell the retention in percent,
// shaded by it (at most 40 % of the accent colour, so the text keeps its contrast in both themes).
import { formatDateIn } from '../locale.ts';
import type { Cell, Column, DataRow } from '../types.ts';

const COHORT_COLUMNS = ['cohort', 'period', 'retention', 'active', 'size'];

/** Whether rows are a cohort insight's (its five columns, in any order). */
export function isCohort(columns: Column[]): boolean {
  return columns.length === COHORT_COLUMNS.length && COHORT_COLUMNS.every((n) => columns.some((c) => c.name === n));
}

interface Props {
  columns: Column[];
  rows: DataRow[];
  caption: string;
  locale?: string;
  /** A cell as the table shows it (DataTable's formatting). */
  format(v: Cell | undefined, c: Column): string;
}

export function RetentionTable({ columns, rows, caption, locale, format }: Props) {
  const col = (name: string) => columns.find((c) => c.name === name)!;
  const cohorts = new Map<string, { size: Cell; cells: Map<number, DataRow> }>();
  for (const r of rows) {
    const key = String(r.cohort);
    if (!cohorts.has(key)) cohorts.set(key, { size: r.size, cells: new Map() });
    cohorts.get(key)!.cells.set(Number(r.period), r);
  }
  const periods = Math.max(0, ...rows.map((r) => Number(r.period) + 1));
  const date = (v: string) => (locale ? formatDateIn(v, locale) : v);
  const label = (c: Column) => c.label || c.name;
  return (
    <div class="table-wrap" tabIndex={0} role="group" aria-label={`${caption} (retention by cohort, table, scrolls)`}>
      <table class="retention">
        <caption class="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{label(col('cohort'))}</th>
            <th scope="col" class="num">
              {label(col('size'))}
            </th>
            {Array.from({ length: periods }, (_, i) => (
              <th scope="col" class="num" key={i}>
                {i}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {[...cohorts].map(([cohort, { size, cells }]) => (
            <tr key={cohort}>
              <th scope="row">{date(cohort)}</th>
              <td class="num">{format(size, col('size'))}</td>
              {Array.from({ length: periods }, (_, i) => {
                const r = cells.get(i);
                if (!r) return <td key={i} />;
                const pct = Math.max(0, Math.min(100, Number(r.retention)));
                return (
                  <td
                    key={i}
                    class="num"
                    style={{ background: `color-mix(in srgb, var(--accent) ${Math.round(pct * 0.4)}%, transparent)` }}
                    title={`${format(r.active, col('active'))} of ${format(size, col('size'))}`}
                  >
                    {format(r.retention, col('retention'))}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
