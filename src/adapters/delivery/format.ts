// How report values read as text in the messenger, e-mail and CSV renderings; a cell's text is
// charts/cells.ts, which the PDF reads too, so a number looks the same everywhere.
import type { ReportSection } from '../../lib/report.ts';
import { formatChange, formatNumber } from '../charts/kpi.ts';
import { csvCell } from '../../lib/charts/csv-cell.ts';

export function kpiLine(section: ReportSection): string | undefined {
  const k = section.kpi;
  if (!k) return undefined;
  const prev = k.previous !== null && k.previous !== undefined ? ` (previous: ${formatNumber(k.previous, k.format)})` : '';
  return `${formatNumber(k.value, k.format)} · ${formatChange(k.change_pct)}${prev}`;
}

/** RFC 4180 CSV with a header row of column names; formulas kept as text (csv-cell.ts). */
export function toCsv(section: ReportSection): string {
  const columns = section.columns.length ? section.columns.map((c) => c.name) : Object.keys(section.rows[0] ?? {});
  const lines = [columns.map(csvCell).join(',')];
  for (const row of section.rows) lines.push(columns.map((c) => csvCell(row[c])).join(','));
  return lines.join('\r\n') + '\r\n';
}

export function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'report'
  );
}
