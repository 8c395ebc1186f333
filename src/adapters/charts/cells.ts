// How a report's cells read as text: shared by the PDF (charts/pdf.ts) and the transports'
// renderings (delivery/), so a number looks the same everywhere. Here, below both, so the
// renderers of charts never reach up into the transports.
import type { ReportColumn, ReportSection } from '../../lib/report.ts';
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

/** The columns to show for a section (its declared ones, else the keys of its first row). */
export function columnsOf(section: ReportSection): ReportColumn[] {
  if (section.columns.length) return section.columns;
  return Object.keys(section.rows[0] ?? {}).map((name) => ({ name, type: 'string', label: name }));
}
