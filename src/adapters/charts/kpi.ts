// A KPI is a big number and its change, not a chart: drawn as a small SVG of our own (same font,
// same renderer), so it looks the same in an e-mail, a messenger photo and a dashboard.
import type { ReportKpi } from '../../lib/report.ts';
import { FONT_STACK, measureText } from './font.ts';
import { comparisonText, formatChange, formatNumber } from '../../lib/charts/kpi-value.ts';

export { comparisonText, kpiOf, formatChange, formatNumber } from '../../lib/charts/kpi-value.ts';

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function kpiSvg(kpi: ReportKpi, width: number, height: number, subtitle?: string): string {
  const value = formatNumber(kpi.value, kpi.format);
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
  const comparison =
    kpi.previous !== null && kpi.previous !== undefined
      ? `vs ${formatNumber(kpi.previous, kpi.format)} ${comparisonText(kpi.compare)}`
      : '';
  // The change and its comparison on one line, smaller until the whole sentence fits the card.
  const changeText = formatChange(change);
  let small = 18;
  const lineWidth = (px: number) =>
    measureText(changeText, `bold ${px}px sans-serif`).width + 10 + measureText(comparison, `${px}px sans-serif`).width;
  while (small > 9 && tx + lineWidth(small) > width - 24) small -= 1;
  const cy = height * 0.56;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<rect x="8" y="8" width="${width - 16}" height="${height - 16}" rx="12" fill="#f8fafc" stroke="#e2e8f0"/>`,
    `<text x="32" y="48" font-family="${FONT_STACK}" font-size="18" font-weight="bold" fill="#0f172a">${xml(kpi.label)}</text>`,
    subtitle ? `<text x="32" y="72" font-family="${FONT_STACK}" font-size="13" fill="#64748b">${xml(subtitle)}</text>` : '',
    `<text x="32" y="${cy + size * 0.35}" font-family="${FONT_STACK}" font-size="${size}" font-weight="bold" ` +
      `fill="#0f172a">${xml(value)}</text>`,
    arrow,
    `<text x="${tx}" y="${height - 32}" font-family="${FONT_STACK}" font-size="${small}" fill="${color}" ` +
      `font-weight="bold">${xml(changeText)}<tspan dx="10" font-weight="normal" ` +
      `fill="#64748b">${xml(comparison)}</tspan></text>`,
    `</svg>`,
  ].join('');
}
