// The e-mail rendering of a report: table layout and inline styles only, because that is what
// mail clients render alike. Charts are inline PNGs referenced by cid:, KPIs big numbers, tables
// real HTML tables (the full rows of every section ride along as CSV attachments).
import type { RenderedChart } from '../charts/renderer.ts';
import { comparisonText, formatChange, formatNumber } from '../charts/kpi.ts';
import { columnsOf, formatCell } from '../charts/cells.ts';
import { retentionLines, retentionOf, retentionShown, type RetentionSection } from '../charts/retention.ts';
import { shadeColour } from '../../lib/charts/retention.ts';
import type { Report, ReportSection } from '../../lib/report.ts';

export const EMAIL_TABLE_ROWS = 50;
/** The periods a retention triangle shows in the mail (0..23: two years of months); the CSV has all. */
export const EMAIL_PERIODS = 24;

export const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export interface EmailSection {
  section: ReportSection;
  chart?: RenderedChart & { cid: string };
  csvFilename?: string;
}

const FONT = 'font-family:Arial,Helvetica,sans-serif;';

function kpiHtml(s: ReportSection): string {
  const k = s.kpi!;
  const c = k.change_pct;
  const color = c === null || c === undefined || c === 0 ? '#64748b' : c > 0 ? '#059669' : '#dc2626';
  const arrow = c === null || c === undefined || c === 0 ? '' : c > 0 ? '&#9650; ' : '&#9660; ';
  const prev =
    k.previous !== null && k.previous !== undefined
      ? ` <span style="color:#64748b;font-weight:normal">vs ${escapeHtml(formatNumber(k.previous, k.format))} ` +
        `${comparisonText(k.compare)}</span>`
      : '';
  return (
    `<div style="${FONT}font-size:40px;line-height:48px;font-weight:bold;color:#0f172a">` +
    `${escapeHtml(formatNumber(k.value, k.format))}</div>` +
    `<div style="${FONT}font-size:15px;font-weight:bold;color:${color};margin-top:4px">${arrow}${escapeHtml(formatChange(c))}${prev}</div>`
  );
}

function tableHtml(s: ReportSection): string {
  const columns = columnsOf(s);
  const rows = s.rows.slice(0, EMAIL_TABLE_ROWS);
  const numeric = (t: string) => ['money', 'integer', 'number', 'percent'].includes(t);
  const th = columns
    .map(
      (c) =>
        `<th style="${FONT}font-size:12px;text-align:${numeric(c.type) ? 'right' : 'left'};padding:6px ` +
        `10px;border-bottom:2px solid #cbd5e1;color:#334155">${escapeHtml(c.label || c.name)}</th>`,
    )
    .join('');
  const body = rows
    .map(
      (r, i) =>
        `<tr style="background:${i % 2 ? '#f8fafc' : '#ffffff'}">` +
        columns
          .map(
            (c) =>
              `<td style="${FONT}font-size:13px;text-align:${numeric(c.type) ? 'right' : 'left'};padding:5px ` +
              `10px;border-bottom:1px solid #e2e8f0">${escapeHtml(formatCell(r[c.name], c))}</td>`,
          )
          .join('') +
        '</tr>',
    )
    .join('');
  const more = s.rows.length - rows.length;
  const note = more > 0 ? `<p style="${FONT}font-size:12px;color:#64748b">… and ${more} more rows in the attached CSV.</p>` : '';
  return (
    `<table role="presentation" cellspacing="0" cellpadding="0" ` +
    `style="border-collapse:collapse;width:100%"><thead><tr>${th}</tr></thead><tbody>${body}</tbody></table>${note}`
  );
}

/**
 * A cohort section as its retention triangle (charts/retention.ts): a row per cohort with its
 * size, a column per period since, each cell shaded by its retention (dark text stays readable:
 * the shade is at most 40 % of the accent). The latest EMAIL_TABLE_ROWS cohorts.
 */
function retentionHtml(t: RetentionSection): string {
  const { periods, rows, left } = retentionShown(t, { cohorts: EMAIL_TABLE_ROWS, periods: EMAIL_PERIODS });
  const cell = 'font-size:12px;text-align:right;padding:4px 6px;border-bottom:1px solid #e2e8f0;color:#0f172a';
  const head = 'font-size:12px;padding:4px 6px;border-bottom:2px solid #cbd5e1;color:#334155';
  const th =
    `<th style="${FONT}${head};text-align:left">${escapeHtml(t.cohortLabel)}</th>` +
    `<th style="${FONT}${head};text-align:right">${escapeHtml(t.sizeLabel)}</th>` +
    periods.map((p) => `<th style="${FONT}${head};text-align:right">${p}</th>`).join('');
  const body = rows
    .map(
      (r) =>
        `<tr><th scope="row" style="${FONT}${cell};text-align:left;font-weight:normal">${escapeHtml(t.cohortText(r))}</th>` +
        `<td style="${FONT}${cell}">${escapeHtml(t.sizeText(r))}</td>` +
        periods
          .map((p) => {
            const c = r.cells[p];
            if (!c) return `<td style="${FONT}${cell}"></td>`;
            return `<td style="${FONT}${cell};background:${shadeColour(c.retention)}">${escapeHtml(t.cellText(r, p))}</td>`;
          })
          .join('') +
        '</tr>',
    )
    .join('');
  const note = left ? `<p style="${FONT}font-size:12px;color:#64748b">… ${left} in the attached CSV.</p>` : '';
  return (
    `<p style="${FONT}font-size:11px;color:#64748b;margin:0 0 4px">${escapeHtml(t.periodLabel)}</p>` +
    `<table role="presentation" cellspacing="0" cellpadding="0" style="border-collapse:collapse;width:100%">` +
    `<thead><tr>${th}</tr></thead><tbody>${body}</tbody></table>${note}`
  );
}

function sectionHtml(e: EmailSection): string {
  const s = e.section;
  const parts = [`<h2 style="${FONT}font-size:17px;margin:0 0 4px;color:#0f172a">${escapeHtml(s.title)}</h2>`];
  if (s.subtitle) parts.push(`<p style="${FONT}font-size:12px;margin:0 0 12px;color:#64748b">${escapeHtml(s.subtitle)}</p>`);
  const triangle = retentionOf(s);
  if (s.kpi) parts.push(kpiHtml(s));
  else if (triangle) parts.push(retentionHtml(triangle));
  else if (e.chart) {
    const w = Math.min(e.chart.width, 792);
    parts.push(
      `<img src="cid:${e.chart.cid}" width="${w}" alt="${escapeHtml(`Chart: ${s.title}`)}" ` +
        `style="display:block;width:100%;max-width:${w}px;height:auto;border:0">`,
    );
  } else if (s.rows.length) parts.push(tableHtml(s));
  if (!s.rows.length && !s.kpi) parts.push(`<p style="${FONT}font-size:13px;color:#64748b">No data for this period.</p>`);
  if (e.csvFilename && s.rows.length)
    parts.push(
      `<p style="${FONT}font-size:11px;color:#94a3b8;margin:8px 0 0">${s.rows.length} ` +
        `row${s.rows.length === 1 ? '' : 's'} attached as ${escapeHtml(e.csvFilename)}</p>`,
    );
  return `<tr><td style="padding:20px 24px;border-top:1px solid #e2e8f0">${parts.join('')}</td></tr>`;
}

export function emailHtml(report: Report, sections: EmailSection[]): string {
  return [
    '<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head>',
    '<body style="margin:0;padding:0;background:#f1f5f9">',
    '<table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="background:#f1f5f9"><tr><td ' +
      'align="center" style="padding:24px 8px">',
    '<table role="presentation" width="840" cellspacing="0" cellpadding="0" ' +
      'style="width:100%;max-width:840px;background:#ffffff;border-radius:8px">',
    `<tr><td style="padding:24px 24px 16px"><h1 style="${FONT}font-size:22px;margin:0 0 ` +
      `8px;color:#0f172a">${escapeHtml(report.title)}</h1>`,
    `<p style="${FONT}font-size:14px;margin:0;color:#475569">${escapeHtml(report.summary)}</p></td></tr>`,
    ...sections.map(sectionHtml),
    `<tr><td style="padding:16px 24px;border-top:1px solid #e2e8f0;${FONT}font-size:11px;color:#94a3b8">Sent by Insights.</td></tr>`,
    '</table></td></tr></table></body></html>',
  ].join('\n');
}

/** The plain-text alternative, for clients that show no HTML. */
export function emailText(report: Report): string {
  const lines = [report.title, '', report.summary];
  for (const s of report.sections) {
    lines.push('', `## ${s.title}`);
    if (s.subtitle) lines.push(s.subtitle);
    const triangle = retentionOf(s);
    if (s.kpi) lines.push(`${formatNumber(s.kpi.value, s.kpi.format)} (${formatChange(s.kpi.change_pct)})`);
    else if (triangle) lines.push('', ...retentionLines(triangle, { cohorts: EMAIL_TABLE_ROWS, periods: EMAIL_PERIODS }));
    else if (s.rows.length) lines.push(`${s.rows.length} rows (see the attached CSV).`);
    else lines.push('No data for this period.');
  }
  return lines.join('\n') + '\n';
}
