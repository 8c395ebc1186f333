// Rows as a real table; a column header is a button that sorts (aria-sort says how).
import { useMemo, useState } from 'preact/hooks';
import { formatValue } from '../../../src/lib/charts/number-format.ts';
import { formatDateIn } from '../locale.ts';
import type { Cell, Column, DataRow } from '../types.ts';
import { isCohort, RetentionTable } from './RetentionTable.tsx';

/** A cell as the model's format says (money in its currency, percent…), as reports write it. */
export function formatCell(v: Cell | undefined, column?: Pick<Column, 'type' | 'currency' | 'decimals'>, locale?: string): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'number') return formatValue(v, column, locale);
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return String(v);
}

function compare(a: Cell | undefined, b: Cell | undefined): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true });
}

interface TableProps {
  columns: Column[];
  rows: DataRow[];
  caption: string;
  /** Columns whose values filter the dashboard when clicked (its filter dimensions). */
  pickable?: Set<string>;
  onPick?: (column: string, value: string) => void;
  /** Numbers and dates in this locale (a chat answer's language); en-US figures when absent. */
  locale?: string;
}

export function DataTable({ columns, rows, caption, pickable, onPick, locale }: TableProps) {
  const show = (v: Cell | undefined, c: Column) =>
    locale && c.type === 'date' && typeof v === 'string' ? formatDateIn(v, locale) : formatCell(v, c, locale);
  const [sort, setSort] = useState<{ col: string; dir: 1 | -1 } | null>(null);
  const sorted = useMemo(() => {
    if (!sort) return rows;
    return [...rows].sort((a, b) => compare(a[sort.col], b[sort.col]) * sort.dir);
  }, [rows, sort]);
  if (!rows.length) return <p class="muted">No rows.</p>;
  if (isCohort(columns))
    return <RetentionTable columns={columns} rows={rows} caption={caption} locale={locale} format={(v, c) => formatCell(v, c, locale)} />;
  const toggle = (col: string) => setSort((s) => (s?.col === col ? (s.dir === 1 ? { col, dir: -1 } : null) : { col, dir: 1 }));
  return (
    <div class="table-wrap" tabIndex={0} role="group" aria-label={`${caption} (table, scrolls)`}>
      <table>
        <caption class="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => {
              const dir = sort?.col === c.name ? sort.dir : 0;
              const numeric = rows.some((r) => typeof r[c.name] === 'number');
              return (
                <th
                  key={c.name}
                  scope="col"
                  aria-sort={dir === 1 ? 'ascending' : dir === -1 ? 'descending' : 'none'}
                  class={numeric ? 'num' : ''}
                >
                  <button type="button" class="sort" onClick={() => toggle(c.name)}>
                    {c.label || c.name}
                    <span aria-hidden="true" class="sort-mark">
                      {dir === 1 ? '▲' : dir === -1 ? '▼' : '↕'}
                    </span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {sorted.map((r, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c.name} class={typeof r[c.name] === 'number' ? 'num' : ''}>
                  {onPick && pickable?.has(c.name) && r[c.name] !== null && r[c.name] !== undefined && r[c.name] !== '' ? (
                    <button
                      type="button"
                      class="cell-pick"
                      aria-label={`Filter by ${c.label || c.name} ${String(r[c.name])}`}
                      onClick={() => onPick(c.name, String(r[c.name]))}
                    >
                      {show(r[c.name], c)}
                    </button>
                  ) : (
                    show(r[c.name], c)
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
