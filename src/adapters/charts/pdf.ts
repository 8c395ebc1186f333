// The whole dashboard as one PDF, made on the server with no browser (docs/channels.md "Dashboard
// PDF"): pdfkit lays the pages out, charts are ECharts' SSR SVG drawn as vectors by svg-to-pdfkit,
// KPIs are our KPI card SVG, tables are text that runs on over as many pages as they need.
// Layout follows the screen: a 4-column grid in widget order, small = 1 column, medium = 2,
// large = 3, full = 4; a widget that does not fit the rest of a row starts the next one.
import fs from 'node:fs';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import { ChartRenderer } from './renderer.ts';
import { FONT_FILES } from './font.ts';
import { kpiSvg } from './kpi.ts';
import { chartInputOf } from '../../lib/charts/options.ts';
import { columnsOf, formatCell } from './cells.ts';
import { retentionOf, type RetentionSection } from './retention.ts';
import { shadeColour } from '../../lib/charts/retention.ts';
import type { Report, ReportSection } from '../../lib/report.ts';

export const SPANS = { small: 1, medium: 2, large: 3, full: 4 } as const;

// A4 landscape in points: dashboards are wider than they are tall.
const PAGE = { width: 841.89, height: 595.28 };
const MARGIN = 32;
const GUTTER = 12;
const CONTENT_W = PAGE.width - 2 * MARGIN;
const COLUMN_W = (CONTENT_W - 3 * GUTTER) / 4;
const FOOTER_H = 18;
const BOTTOM = PAGE.height - MARGIN - FOOTER_H;
const CHART_H = 200;
const KPI_H = 130;
const NOTE_H = 70;
const ROW_H = 15;
const INK = '#0f172a';
const MUTED = '#64748b';
const RULE = '#e2e8f0';

const spanOf = (s: ReportSection) => SPANS[s.display_size ?? 'medium'] ?? 2;
const widthOf = (span: number) => span * COLUMN_W + (span - 1) * GUTTER;

// Parsed once for the process: pdfkit takes a fontkit font as it is, and fontkit keeps what it
// has read of the tables and glyphs, so a report does not parse and shape from a cold font each
// time (that was about half of a warm render).
let fonts: { regular: unknown; bold: unknown } | undefined;
function pdfFonts() {
  fonts ??= {
    regular: fontkit.create(fs.readFileSync(FONT_FILES.regular)),
    bold: fontkit.create(fs.readFileSync(FONT_FILES.bold)),
  };
  return fonts;
}

// A narrow cell is drawn at a wider virtual size and scaled down (vectors stay sharp): ECharts
// and the KPI card lay out legends, labels and big numbers for a few hundred pixels at least.
const MIN_VIRTUAL_W = 380;
function virtualSize(w: number, h: number): { width: number; height: number } {
  const k = Math.max(1, MIN_VIRTUAL_W / w);
  return { width: Math.round(w * k), height: Math.round(h * k) };
}

// One chart renderer per size: ECharts lays a chart out for its size, and each renderer keeps its
// instance warm between reports.
const renderers = new Map<string, ChartRenderer>();
function rendererFor(size: { width: number; height: number }): ChartRenderer {
  const key = `${size.width}x${size.height}`;
  let r = renderers.get(key);
  if (!r) renderers.set(key, (r = new ChartRenderer(size)));
  return r;
}

type Kind = 'chart' | 'kpi' | 'table' | 'note';
function kindOf(s: ReportSection): Kind {
  // A cohort's rows read as a triangle, whatever chart the widget asks for (a line of them says nothing).
  if (retentionOf(s)) return 'table';
  if (s.kpi && s.chart_hint?.type === 'kpi') return 'kpi';
  if (s.chart_hint && s.chart_hint.type !== 'table' && s.rows.length > 0) return 'chart';
  if (s.rows.length > 0) return 'table';
  return 'note';
}
const HEIGHT: Record<Exclude<Kind, 'table'>, number> = { chart: CHART_H, kpi: KPI_H, note: NOTE_H };

function svgInto(doc: PDFKit.PDFDocument, svg: string, x: number, y: number, w: number, h: number): void {
  SVGtoPDF(doc, svg, x, y, {
    width: w,
    height: h,
    assumePt: true,
    preserveAspectRatio: 'xMinYMin meet',
    fontCallback: (_family: string, bold: boolean) => (bold ? 'Roboto-Bold' : 'Roboto'),
  });
}

function box(doc: PDFKit.PDFDocument, x: number, y: number, w: number, h: number): void {
  doc.save().roundedRect(x, y, w, h, 6).lineWidth(0.75).strokeColor(RULE).stroke().restore();
}

function heading(doc: PDFKit.PDFDocument, s: ReportSection, x: number, y: number, w: number): number {
  doc
    .font('Roboto-Bold')
    .fontSize(11)
    .fillColor(INK)
    .text(s.title, x + 10, y + 8, { width: w - 20, height: 14, ellipsis: true, lineBreak: false });
  if (s.subtitle)
    doc
      .font('Roboto')
      .fontSize(8)
      .fillColor(MUTED)
      .text(s.subtitle, x + 10, y + 23, { width: w - 20, height: 11, ellipsis: true, lineBreak: false });
  return y + (s.subtitle ? 38 : 26);
}

function drawCell(doc: PDFKit.PDFDocument, s: ReportSection, kind: Exclude<Kind, 'table'>, x: number, y: number, span: number): void {
  const w = widthOf(span);
  const h = HEIGHT[kind];
  if (kind === 'kpi') {
    const v = virtualSize(w, h);
    svgInto(doc, kpiSvg(s.kpi!, v.width, v.height, s.subtitle), x, y, w, h);
    return;
  }
  box(doc, x, y, w, h);
  if (kind === 'chart') {
    const input = chartInputOf(s);
    const svg = input ? rendererFor(virtualSize(w - 4, h - 4)).svg(input) : undefined;
    if (svg) {
      svgInto(doc, svg, x + 2, y + 2, w - 4, h - 4);
      return;
    }
  }
  const top = heading(doc, s, x, y, w);
  doc
    .font('Roboto')
    .fontSize(9)
    .fillColor(MUTED)
    .text(s.rows.length === 0 && !s.subtitle?.startsWith('Could not') ? 'No data for this period.' : '', x + 10, top, { width: w - 20 });
}

/**
 * One line of text in a column, cut to fit with an ellipsis, left or right aligned. Measured and
 * placed by hand: pdfkit's wrapping text box (width + ellipsis) costs ~10x more per cell.
 */
function cellText(doc: PDFKit.PDFDocument, text: string, x: number, y: number, width: number, right: boolean): void {
  let t = text;
  if (doc.widthOfString(t) > width) {
    while (t.length > 1 && doc.widthOfString(`${t}…`) > width) t = t.slice(0, Math.max(1, Math.floor(t.length * 0.9)));
    t = `${t.trimEnd()}…`;
  }
  doc.text(t, right ? x + width - doc.widthOfString(t) : x, y, { lineBreak: false });
}

/**
 * The columns a table shows and its width: every column, in the widget's width while about two
 * columns a grid column fit, else over the page's whole width (a table has a row of its own).
 */
export function tableLayout(s: ReportSection, span: number): { columns: ReturnType<typeof columnsOf>; width: number } {
  const columns = columnsOf(s);
  return { columns, width: widthOf(columns.length > span * 2 + 1 ? 4 : span) };
}

/** A page break inside a table: its title again, "(continued)", at the top of the new page. */
function continued(doc: PDFKit.PDFDocument, s: ReportSection, x: number, w: number): number {
  doc.addPage();
  doc
    .font('Roboto-Bold')
    .fontSize(9)
    .fillColor(MUTED)
    .text(`${s.title} (continued)`, x + 10, MARGIN, { width: w - 20, lineBreak: false, ellipsis: true });
  return MARGIN + 16;
}

function rule(doc: PDFKit.PDFDocument, x: number, y: number, w: number): void {
  doc
    .save()
    .moveTo(x + 10, y)
    .lineTo(x + w - 10, y)
    .lineWidth(0.5)
    .strokeColor(RULE)
    .stroke()
    .restore();
}

// The triangle's first two columns and the narrowest period column ("100.0%" at 8 pt fits).
const COHORT_W = 64;
const SIZE_W = 56;
const PERIOD_MIN_W = 34;
const PERIOD_MAX_W = 52;

/**
 * A cohort section as the retention triangle (src/lib/charts/retention.ts), over the page's whole
 * width: a row per cohort with its size, a column per period since, each cell shaded by its
 * retention. Periods that do not fit one width go on in another band below (cohort and size
 * repeated); rows run over pages like a table's. Returns where it ends.
 */
function drawRetention(doc: PDFKit.PDFDocument, s: ReportSection, t: RetentionSection, x: number, y: number): number {
  const w = CONTENT_W;
  const room = w - 20 - COHORT_W - SIZE_W;
  const perBand = Math.max(1, Math.floor(room / PERIOD_MIN_W));
  const colW = Math.min(PERIOD_MAX_W, room / Math.min(perBand, t.periods.length));
  let top = heading(doc, s, x, y, w);
  for (let from = 0; from < t.periods.length; from += perBand) {
    const band = t.periods.slice(from, from + perBand);
    const px = (i: number) => x + 10 + COHORT_W + SIZE_W + i * colW;
    const header = (at: number) => {
      doc.font('Roboto').fontSize(7).fillColor(MUTED).text(t.periodLabel, px(0), at, { lineBreak: false });
      doc.font('Roboto-Bold').fontSize(8).fillColor(MUTED);
      cellText(doc, t.cohortLabel, x + 10, at + 10, COHORT_W - 6, false);
      cellText(doc, t.sizeLabel, x + 10 + COHORT_W, at + 10, SIZE_W - 6, true);
      band.forEach((p, i) => cellText(doc, String(p), px(i), at + 10, colW - 6, true));
      rule(doc, x, at + 10 + ROW_H - 3, w);
      return at + 10 + ROW_H;
    };
    if (top + 10 + 2 * ROW_H > BOTTOM) top = continued(doc, s, x, w);
    top = header(top);
    for (const row of t.rows) {
      if (top + ROW_H > BOTTOM) top = header(continued(doc, s, x, w));
      doc.font('Roboto').fontSize(8).fillColor(INK);
      cellText(doc, t.cohortText(row), x + 10, top, COHORT_W - 6, false);
      cellText(doc, t.sizeText(row), x + 10 + COHORT_W, top, SIZE_W - 6, true);
      band.forEach((p, i) => {
        const cell = row.cells[p];
        if (!cell) return;
        doc
          .save()
          .rect(px(i) - 2, top - 3, colW - 2, ROW_H - 1)
          .fill(shadeColour(cell.retention))
          .restore();
        doc.font('Roboto').fontSize(8).fillColor(INK);
        cellText(doc, t.cellText(row, p), px(i), top, colW - 6, true);
      });
      top += ROW_H;
    }
    top += 8;
  }
  return top;
}

/** A table from `y` on, continued on new pages (header repeated) until every row is drawn. Returns where it ends. */
function drawTable(doc: PDFKit.PDFDocument, s: ReportSection, x: number, y: number, span: number): number {
  const triangle = retentionOf(s);
  if (triangle) return drawRetention(doc, s, triangle, x, y);
  const { columns, width: w } = tableLayout(s, span);
  const numeric = columns.map((c) => s.rows.some((r) => typeof r[c.name] === 'number'));
  const colW = (w - 20) / columns.length;
  let top = heading(doc, s, x, y, w);
  const header = (at: number) => {
    doc.font('Roboto-Bold').fontSize(8).fillColor(MUTED);
    columns.forEach((c, i) => cellText(doc, c.label || c.name, x + 10 + i * colW, at, colW - 6, numeric[i]));
    rule(doc, x, at + ROW_H - 3, w);
    return at + ROW_H;
  };
  top = header(top);
  for (const [n, row] of s.rows.entries()) {
    if (top + ROW_H > BOTTOM) top = header(continued(doc, s, x, w));
    if (n % 2 === 1)
      doc
        .save()
        .rect(x + 8, top - 3, w - 16, ROW_H)
        .fill('#f8fafc')
        .restore();
    doc.font('Roboto').fontSize(8).fillColor(INK);
    columns.forEach((c, i) => cellText(doc, formatCell(row[c.name], c), x + 10 + i * colW, top, colW - 6, numeric[i]));
    top += ROW_H;
  }
  return top + 6;
}

/**
 * The dashboard report as PDF bytes. Sections carry their widget's display_size and come in
 * widget_ids order.
 */
export async function renderDashboardPdf(report: Report, generatedAt: Date): Promise<Buffer> {
  const doc = new PDFDocument({
    size: [PAGE.width, PAGE.height],
    margin: MARGIN,
    bufferPages: true,
    autoFirstPage: true,
    info: { Title: report.title, Creator: 'Insights', CreationDate: generatedAt },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  const f = pdfFonts();
  doc.registerFont('Roboto', f.regular as PDFKit.Mixins.PDFFontSource);
  doc.registerFont('Roboto-Bold', f.bold as PDFKit.Mixins.PDFFontSource);

  const name = String(report.payload.dashboard_name ?? report.title);
  doc.font('Roboto-Bold').fontSize(18).fillColor(INK).text(name, MARGIN, MARGIN, { width: CONTENT_W, lineBreak: false, ellipsis: true });
  doc
    .font('Roboto')
    .fontSize(9)
    .fillColor(MUTED)
    .text(report.summary, MARGIN, MARGIN + 24, { width: CONTENT_W, height: 24, ellipsis: true });
  let y = doc.y + 8;

  // Row by row: `row` holds the cells placed so far in the current row.
  let col = 0;
  let rowH = 0;
  const newRow = () => {
    if (col > 0) y += rowH + GUTTER;
    col = 0;
    rowH = 0;
  };
  for (const s of report.sections) {
    const span = spanOf(s);
    const kind = kindOf(s);
    if (kind === 'table') {
      // A table runs down the page (and over pages): it takes a row of its own.
      newRow();
      if (y + 60 > BOTTOM) {
        doc.addPage();
        y = MARGIN;
      }
      y = drawTable(doc, s, MARGIN, y, span) + GUTTER;
      continue;
    }
    if (col + span > 4) newRow();
    const h = HEIGHT[kind];
    if (y + h > BOTTOM) {
      doc.addPage();
      y = MARGIN;
    }
    drawCell(doc, s, kind, MARGIN + col * (COLUMN_W + GUTTER), y, span);
    col += span;
    rowH = Math.max(rowH, h);
  }

  const range = doc.bufferedPageRange();
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i);
    doc.font('Roboto').fontSize(7.5).fillColor(MUTED);
    const line = `${name} · generated ${generatedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC · page ${i + 1} of ${range.count}`;
    // Below the bottom margin: pdfkit would otherwise start a new page for it.
    doc.page.margins.bottom = 0;
    doc.text(line, MARGIN, PAGE.height - MARGIN - 8, { width: CONTENT_W, align: 'right', lineBreak: false });
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
