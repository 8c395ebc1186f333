// What a widget offers to take away: its rows as CSV, its chart as PNG, and any file the API makes
// (a dashboard's PDF), saved under a readable name.
import type { Cell, Column, DataRow } from './types.ts';

export function fileName(title: string, ext: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .toLowerCase();
  return `${base || 'export'}.${ext}`;
}

/** Saves a blob or a data URL as a file, as a download link would. */
export function save(what: Blob | string, name: string): void {
  const href = typeof what === 'string' ? what : URL.createObjectURL(what);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  if (typeof what !== 'string') setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

function csvCell(v: Cell | undefined): string {
  if (v === null || v === undefined) return '';
  let s = String(v);
  // A text cell that a spreadsheet would run as a formula is kept as text.
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** RFC 4180 CSV: the column titles, then one line per row; numbers unformatted (a dot for decimals). */
export function toCsv(columns: Column[], rows: DataRow[]): string {
  const lines = [columns.map((c) => csvCell(c.label || c.name)).join(',')];
  for (const r of rows) lines.push(columns.map((c) => csvCell(r[c.name])).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** The chart's SVG drawn on a white canvas at twice its size, as a PNG data URL. */
export async function svgToPng(svg: SVGSVGElement): Promise<string> {
  const { width, height } = svg.getBoundingClientRect();
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  const text = new XMLSerializer().serializeToString(clone);
  // A data: URL: the page's Content-Security-Policy allows images from data: and from nothing else outside.
  const img = new Image();
  img.src = `data:image/svg+xml;base64,${btoa(unescape(encodeURIComponent(text)))}`;
  await img.decode();
  const canvas = document.createElement('canvas');
  const scale = 2;
  canvas.width = Math.ceil(width * scale);
  canvas.height = Math.ceil(height * scale);
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
  return canvas.toDataURL('image/png');
}
