// How report values read as text, shared by the messenger, e-mail and CSV renderings so a number
// looks the same everywhere.
import type { ReportColumn, ReportSection } from '../../lib/report.ts';
import { formatChange, formatNumber } from '../charts/kpi.ts';
import { formatValue } from '../../lib/charts/number-format.ts';

// Numbers as the model's format says (number-format.ts, shared with the web app).
export function formatCell(value: unknown, column?: ReportColumn): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') {
    return formatValue(value, column);
  }
  return String(value);
}

export function kpiLine(section: ReportSection): string | undefined {
  const k = section.kpi;
  if (!k) return undefined;
  const prev = k.previous !== null && k.previous !== undefined ? ` (previous: ${formatNumber(k.previous, k.format)})` : '';
  return `${formatNumber(k.value, k.format)} · ${formatChange(k.change_pct)}${prev}`;
}

/** RFC 4180 CSV with a header row of column names; cells that could start a formula are quoted with a leading '. */
export function toCsv(section: ReportSection): string {
  const columns = section.columns.length ? section.columns.map((c) => c.name) : Object.keys(section.rows[0] ?? {});
  const cell = (v: unknown): string => {
    if (v === null || v === undefined) return '';
    let s = typeof v === 'string' ? v : String(v);
    // A text cell starting with = + - @ would run as a formula in a spreadsheet (CSV injection).
    if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [columns.map(cell).join(',')];
  for (const row of section.rows) lines.push(columns.map((c) => cell(row[c])).join(','));
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

/** The columns to show for a section (its declared ones, else the keys of its first row). */
export function columnsOf(section: ReportSection): ReportColumn[] {
  if (section.columns.length) return section.columns;
  return Object.keys(section.rows[0] ?? {}).map((name) => ({ name, type: 'string', label: name }));
}
