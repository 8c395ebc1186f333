// The text of a PDF the service made (pdfkit: Flate content streams, fonts embedded as Identity-H
// subsets with a ToUnicode map), as the pieces it draws with their position, so a test can read
// what a page says and how it is laid out. Enough for our own PDFs, not a general PDF reader.
import zlib from 'node:zlib';

export interface PdfText {
  page: number;
  /** From the page's left edge, in points. */
  x: number;
  /** From the page's top edge, in points (rows of a table share it). */
  y: number;
  text: string;
  /** The fill colour it is drawn in, #rrggbb. */
  colour: string;
}

/** A filled rectangle (a shaded table cell), top-left corner from the page's top-left. */
export interface PdfFill {
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  colour: string;
}

interface PdfObject {
  dict: string;
  stream?: Buffer;
}

function objectsOf(pdf: Buffer): Map<number, PdfObject> {
  const src = pdf.toString('latin1');
  const objects = new Map<number, PdfObject>();
  const head = /(\d+) 0 obj\s*/g;
  for (let m = head.exec(src); m; m = head.exec(src)) {
    const start = m.index + m[0].length;
    const streamAt = src.indexOf('stream', start);
    const endAt = src.indexOf('endobj', start);
    if (streamAt === -1 || streamAt > endAt) {
      objects.set(Number(m[1]), { dict: src.slice(start, endAt) });
      continue;
    }
    const dict = src.slice(start, streamAt);
    const length = Number(/\/Length (\d+)/.exec(dict)?.[1]);
    const from = streamAt + 'stream'.length + (src[streamAt + 6] === '\r' ? 2 : 1);
    let data = Buffer.from(src.slice(from, from + length), 'latin1');
    if (/\/FlateDecode/.test(dict)) data = zlib.inflateSync(data);
    objects.set(Number(m[1]), { dict, stream: data });
    head.lastIndex = from + length;
  }
  return objects;
}

/** A ToUnicode CMap as glyph code → text. */
function cmapOf(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  const text = (hex: string) => String.fromCodePoint(...(hex.match(/.{4}/g) ?? []).map((h) => Number.parseInt(h, 16)));
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const r of block[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F]+>)/g)) {
      const lo = Number.parseInt(r[1], 16);
      const hi = Number.parseInt(r[2], 16);
      if (r[3].startsWith('[')) [...r[3].matchAll(/<([0-9a-fA-F]+)>/g)].forEach((u, i) => map.set(lo + i, text(u[1])));
      else for (let c = lo; c <= hi; c++) map.set(c, String.fromCodePoint(Number.parseInt(r[3].slice(1, -1), 16) + c - lo));
    }
  }
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
    for (const r of block[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) map.set(Number.parseInt(r[1], 16), text(r[2]));
  return map;
}

const hexOf = (rgb: string[]) =>
  `#${rgb
    .map((v) =>
      Math.round(Number(v) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

/** Each page's content stream (pdfkit flips the page, so y counts from the top) and its height. */
function pagesOf(objects: Map<number, PdfObject>): { contents: string; height: number }[] {
  return [...objects.values()]
    .filter((o) => /\/Type \/Page\b/.test(o.dict))
    .map((page) => ({
      height: Number(/\/MediaBox \[0 0 [\d.]+ ([\d.]+)\]/.exec(page.dict)?.[1]),
      contents: objects.get(Number(/\/Contents (\d+) 0 R/.exec(page.dict)?.[1]))?.stream?.toString('latin1') ?? '',
    }));
}

/** Every filled rectangle the PDF draws, page by page. */
export function pdfFills(pdf: Buffer): PdfFill[] {
  return pagesOf(objectsOf(pdf)).flatMap(({ contents }, n) =>
    [...contents.matchAll(/([\d.-]+) ([\d.-]+) ([\d.-]+) ([\d.-]+) re\n\/DeviceRGB cs\n([\d.]+) ([\d.]+) ([\d.]+) scn\nf\n/g)].map((m) => ({
      page: n + 1,
      x: Number(m[1]),
      y: Number(m[2]),
      width: Number(m[3]),
      height: Number(m[4]),
      colour: hexOf(m.slice(5, 8)),
    })),
  );
}

/** Every piece of text the PDF draws, page by page, in drawing order. */
export function pdfTexts(pdf: Buffer): PdfText[] {
  const objects = objectsOf(pdf);
  const fonts = new Map<string, Map<number, string>>();
  for (const o of objects.values()) {
    for (const f of o.dict.matchAll(/\/(F\d+) (\d+) 0 R/g)) {
      const font = objects.get(Number(f[2]));
      const to = /\/ToUnicode (\d+) 0 R/.exec(font?.dict ?? '');
      const cmap = to && objects.get(Number(to[1]))?.stream;
      if (cmap) fonts.set(f[1], cmapOf(cmap.toString('latin1')));
    }
  }
  const out: PdfText[] = [];
  pagesOf(objects).forEach(({ contents, height }, n) => {
    let font: Map<number, string> | undefined;
    let at = { x: 0, y: 0 };
    let colour = '#000000';
    const ops = /\/(F\d+) [\d.]+ Tf|1 0 0 1 ([\d.-]+) ([\d.-]+) Tm|\[((?:[^\]])*)\] TJ|([\d.]+) ([\d.]+) ([\d.]+) scn/g;
    for (const op of contents.matchAll(ops)) {
      if (op[5]) colour = hexOf(op.slice(5, 8));
      else if (op[1]) font = fonts.get(op[1]);
      else if (op[2]) at = { x: Number(op[2]), y: height - Number(op[3]) };
      else if (op[4] !== undefined && font) {
        const glyphs = [...op[4].matchAll(/<([0-9a-fA-F]+)>/g)].flatMap((h) => h[1].match(/.{4}/g) ?? []);
        const text = glyphs.map((g) => font!.get(Number.parseInt(g, 16)) ?? '').join('');
        out.push({ page: n + 1, x: at.x, y: at.y, text, colour });
      }
    }
  });
  return out;
}

/** The PDF's lines: pieces on one page and baseline, left to right. */
export function pdfLines(pdf: Buffer): PdfText[][] {
  const lines = new Map<string, PdfText[]>();
  for (const t of pdfTexts(pdf)) {
    const key = `${t.page}:${t.y.toFixed(1)}`;
    if (!lines.has(key)) lines.set(key, []);
    lines.get(key)!.push(t);
  }
  return [...lines.values()].map((line) => line.sort((a, b) => a.x - b.x)).sort((a, b) => a[0].page - b[0].page || a[0].y - b[0].y);
}
