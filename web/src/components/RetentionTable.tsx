// A cohort insight's rows (docs/model.md "Retention by cohort") drawn as a retention triangle: a
// row per cohort with its size, a column per period since, each cell the retention in percent,
// shaded by it. The shaping and the shade scale are the reports' (src/lib/charts/retention.ts), so
// the PDF and the e-mail draw the same triangle; here the shade mixes the theme's accent (at most
// 40 %, so the text keeps its contrast in both themes).
import { isCohortResult, retentionTriangle, shadeShare } from '../../../src/lib/charts/retention.ts';
import { formatDateIn } from '../locale.ts';
import type { Cell, Column, DataRow } from '../types.ts';

/** Whether rows are a cohort insight's (its five columns, in any order). */
export const isCohort = (columns: Column[]): boolean => isCohortResult(columns);

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
  const { periods, rows: cohorts } = retentionTriangle(rows);
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
            {periods.map((i) => (
              <th scope="col" class="num" key={i}>
                {i}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {cohorts.map(({ cohort, size, cells }) => (
            <tr key={cohort}>
              <th scope="row">{date(cohort)}</th>
              <td class="num">{format(size, col('size'))}</td>
              {periods.map((i) => {
                const c = cells[i];
                if (!c) return <td key={i} />;
                return (
                  <td
                    key={i}
                    class="num"
                    style={{ background: `color-mix(in srgb, var(--accent) ${shadeShare(c.retention)}%, transparent)` }}
                    title={`${format(c.active, col('active'))} of ${format(size, col('size'))}`}
                  >
                    {format(c.retention, col('retention'))}
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
