// What a widget offers to take away: its rows as CSV, its chart as PNG, and any file the API makes
// (a dashboard's PDF), saved under a readable name.
import { csvCell } from '../../src/lib/charts/csv-cell.ts';
import type { Column, DataRow } from './types.ts';

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

/** RFC 4180 CSV: the column titles, then one line per row; numbers unformatted (a dot for decimals). */
export function toCsv(columns: Column[], rows: DataRow[]): string {
  const lines = [columns.map((c) => csvCell(c.label || c.name)).join(',')];
  for (const r of rows) lines.push(columns.map((c) => csvCell(r[c.name])).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** What a picture says above the chart, so it reads alone: the widget's title and its period. */
export interface PngHeading {
  title: string;
  subtitle?: string;
}

const HEAD = { title: 28, subtitle: 20, pad: 12 };

/**
 * The chart's SVG at twice its size as a PNG data URL, under its title and period (a picture sent on
 * is read without the dashboard around it), on the card's colours.
 */
export async function svgToPng(svg: SVGSVGElement, heading?: PngHeading): Promise<string> {
  const { width, height: chartHeight } = svg.getBoundingClientRect();
  const card = svg.closest('section') ?? document.body;
  const paper = getComputedStyle(card).backgroundColor || '#ffffff';
  const ink = getComputedStyle(card.querySelector('h2') ?? card).color;
  const muted = getComputedStyle(card.querySelector('.muted') ?? card).color;
  const top = heading ? HEAD.pad + HEAD.title + (heading.subtitle ? HEAD.subtitle : 0) : 0;
  const height = chartHeight;
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
  canvas.height = Math.ceil((height + top) * scale);
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = paper;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.scale(scale, scale);
  if (heading) {
    const font = getComputedStyle(document.body).fontFamily;
    ctx.textBaseline = 'top';
    ctx.fillStyle = ink;
    ctx.font = `bold 16px ${font}`;
    ctx.fillText(heading.title, 16, HEAD.pad, width - 32);
    if (heading.subtitle) {
      ctx.fillStyle = muted;
      ctx.font = `12px ${font}`;
      ctx.fillText(heading.subtitle, 16, HEAD.pad + HEAD.title, width - 32);
    }
  }
  ctx.drawImage(img, 0, top, width, height);
  return canvas.toDataURL('image/png');
}
