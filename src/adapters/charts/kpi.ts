// A KPI is a big number and its change, not a chart: drawn as a small SVG of our own (same font,
// same renderer), so it looks the same in an e-mail, a messenger photo and a dashboard.
import type { ReportColumn, ReportKpi } from '../delivery/types.ts';
import type { DataRow } from '../../lib/chart.schemas.ts';
import { FONT_STACK, measureText } from './font.ts';
import { toNumber } from './options.ts';

const PREVIOUS = ['previous_value', 'previous', 'prev_value', 'prev', 'value_previous', 'previous_period'];
const CHANGE = ['change_pct', 'change_percent', 'pct_change', 'delta_pct'];

/**
 * The KPI of a result: rows[0]'s value (the hint's first y_axis, else `value`, else the first
 * numeric column), the previous value and the change in percent when the row has them (computed
 * from the two values when only those are there).
 */
export function kpiOf(columns: ReportColumn[], rows: DataRow[], yAxis: string[] | undefined, label: string): ReportKpi | undefined {
  const row = rows[0];
  if (!row) return undefined;
  const numeric = columns.filter((c) => typeof row[c.name] === 'number' || toNumber(row[c.name]) !== null);
  const valueCol =
    yAxis?.find((y) => y in row) ??
    ('value' in row ? 'value' : numeric.find((c) => !PREVIOUS.includes(c.name) && !CHANGE.includes(c.name))?.name);
  if (!valueCol) return undefined;
  const prevCol = PREVIOUS.find((c) => c in row);
  const changeCol = CHANGE.find((c) => c in row);
  const value = toNumber(row[valueCol]);
  const previous = prevCol ? toNumber(row[prevCol]) : null;
  let change = changeCol ? toNumber(row[changeCol]) : null;
  if (change === null && value !== null && previous !== null && previous !== 0) {
    change = ((value - previous) / Math.abs(previous)) * 100;
  }
  const valueLabel = columns.find((c) => c.name === valueCol)?.label;
  return { label: label || valueLabel || valueCol, value, previous, change_pct: change };
}

const WHOLE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const FRACTION = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** 1234567.891 → "1,234,567.89" */
export function formatNumber(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—';
  // Formatters made once: toLocaleString with options builds one per call.
  return (Math.abs(n) >= 100 ? WHOLE : FRACTION).format(n);
}

export function formatChange(pct: number | null | undefined): string {
  if (pct === null || pct === undefined) return 'no comparison';
  const sign = pct > 0 ? '+' : pct < 0 ? '−' : '±';
  return `${sign}${Math.abs(pct).toFixed(1)}%`;
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function kpiSvg(kpi: ReportKpi, width: number, height: number, subtitle?: string): string {
  const value = formatNumber(kpi.value);
  // Shrink the big number until it fits the card.
  let size = Math.min(72, height * 0.4);
  while (size > 16 && measureText(value, `bold ${size}px sans-serif`).width > width - 64) size -= 4;
  const change = kpi.change_pct;
  const color = change === null || change === undefined || change === 0 ? '#64748b' : change > 0 ? '#059669' : '#dc2626';
  // The arrow is a shape, not a glyph: Roboto has no ▲▼ and the fallback font costs time.
  const ty = height - 38;
  const arrow =
    change === null || change === undefined || change === 0
      ? ''
      : change > 0
        ? `<path d="M32 ${ty + 6} L40 ${ty - 8} L48 ${ty + 6} Z" fill="${color}"/>`
        : `<path d="M32 ${ty - 8} L40 ${ty + 6} L48 ${ty - 8} Z" fill="${color}"/>`;
  const tx = arrow ? 56 : 32;
  const comparison = kpi.previous !== null && kpi.previous !== undefined ? `  vs ${formatNumber(kpi.previous)} the previous period` : '';
  const cy = height * 0.56;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<rect x="8" y="8" width="${width - 16}" height="${height - 16}" rx="12" fill="#f8fafc" stroke="#e2e8f0"/>`,
    `<text x="32" y="48" font-family="${FONT_STACK}" font-size="18" font-weight="bold" fill="#0f172a">${xml(kpi.label)}</text>`,
    subtitle ? `<text x="32" y="72" font-family="${FONT_STACK}" font-size="13" fill="#64748b">${xml(subtitle)}</text>` : '',
    `<text x="32" y="${cy + size * 0.35}" font-family="${FONT_STACK}" font-size="${size}" font-weight="bold" fill="#0f172a">${xml(value)}</text>`,
    arrow,
    `<text x="${tx}" y="${height - 32}" font-family="${FONT_STACK}" font-size="18" fill="${color}" font-weight="bold">${xml(formatChange(change))}<tspan dx="10" font-weight="normal" fill="#64748b">${xml(comparison.trim())}</tspan></text>`,
    `</svg>`,
  ].join('');
}
