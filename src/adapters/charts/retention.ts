// A cohort section of a report (src/lib/charts/retention.ts) with its figures written as every
// rendering writes them: the PDF, the e-mail and the messengers read the triangle from here. When
// a rendering has room for fewer cohorts than there are, the latest are kept (a recurring report
// is about the newest cohorts; the CSV attachment and the web app have them all).
import type { ReportColumn, ReportSection } from '../../lib/report.ts';
import { isCohortResult, retentionTriangle, type RetentionRow, type RetentionTriangle } from '../../lib/charts/retention.ts';
import { formatCell } from './cells.ts';

export interface RetentionSection extends RetentionTriangle {
  /** Header labels of the first two columns, from the section's columns. */
  cohortLabel: string;
  sizeLabel: string;
  periodLabel: string;
  cohortText(row: RetentionRow): string;
  sizeText(row: RetentionRow): string;
  /** A cell's retention as the model formats it ("25.0%"), empty past the window's end. */
  cellText(row: RetentionRow, period: number): string;
}

/** The triangle of a section whose rows are a cohort insight's, else undefined. */
export function retentionOf(section: ReportSection): RetentionSection | undefined {
  if (!isCohortResult(section.columns) || !section.rows.length) return undefined;
  const col = (name: string) => section.columns.find((c) => c.name === name) as ReportColumn;
  const [cohort, size, retention, period] = [col('cohort'), col('size'), col('retention'), col('period')];
  return {
    ...retentionTriangle(section.rows),
    cohortLabel: cohort.label || cohort.name,
    sizeLabel: size.label || size.name,
    periodLabel: period.label || period.name,
    cohortText: (row) => row.cohort,
    sizeText: (row) => formatCell(row.size, size),
    cellText: (row, period) => {
      const cell = row.cells[period];
      return cell ? formatCell(cell.retention, retention) : '';
    },
  };
}

/** The part of a triangle a rendering shows, and what it leaves out ("2 earlier cohorts and periods 24–30"). */
export function retentionShown(t: RetentionSection, limits: { cohorts?: number; periods?: number } = {}) {
  const periods = t.periods.slice(0, limits.periods ?? t.periods.length);
  const rows = t.rows.slice(-(limits.cohorts ?? t.rows.length));
  const left = [
    t.rows.length > rows.length ? `${t.rows.length - rows.length} earlier cohorts` : '',
    t.periods.length > periods.length ? `periods ${periods.length}–${t.periods.length - 1}` : '',
  ].filter(Boolean);
  return { periods, rows, left: left.length ? left.join(' and ') : undefined };
}

/**
 * The triangle as monospace lines (a header, a rule, a line per cohort): the e-mail's plain text
 * and the messenger's <pre> block. At most `cohorts` cohorts (the latest) and `periods` periods.
 */
export function retentionLines(t: RetentionSection, limits: { cohorts?: number; periods?: number } = {}): string[] {
  const { periods, rows, left } = retentionShown(t, limits);
  const table = [
    [t.cohortLabel, t.sizeLabel, ...periods.map(String)],
    ...rows.map((r) => [t.cohortText(r), t.sizeText(r), ...periods.map((p) => t.cellText(r, p))]),
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((line) => line[i].length)));
  const lines = table.map((line) =>
    line
      .map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i])))
      .join('  ')
      .trimEnd(),
  );
  lines.splice(1, 0, widths.map((w) => '─'.repeat(w)).join('  '));
  if (left) lines.push(`(${left} not shown)`);
  return lines;
}

/** One line on the triangle for a card's headline: how many cohorts, and the latest one's return. */
export function retentionHeadline(t: RetentionSection): string {
  const n = `${t.rows.length} cohort${t.rows.length === 1 ? '' : 's'}`;
  const latest = [...t.rows].reverse().find((r) => r.cells[1]) ?? t.rows.at(-1)!;
  const after = latest.cells[1] ? `: ${t.cellText(latest, 1)} back in period 1` : '';
  return `${n}; ${t.cohortText(latest)} (${t.sizeLabel.toLowerCase()} ${t.sizeText(latest)})${after}`;
}

/** A cohort as a card fact: its size in the title, its retention per period in the value. */
export function retentionFacts(t: RetentionSection, max: number): { title: string; value: string }[] {
  return t.rows.slice(-max).map((r) => ({
    title: `${t.cohortText(r)} · ${t.sizeLabel} ${t.sizeText(r)}`,
    value: t.periods
      .filter((p) => r.cells[p])
      .map((p) => `${p}: ${t.cellText(r, p)}`)
      .join(' · '),
  }));
}
