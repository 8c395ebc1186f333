// The fonts charts are drawn with ship with the project as npm packages, so a machine with no
// system fonts renders the same text: Roboto (@expo-google-fonts/roboto: Latin, Greek, Cyrillic)
// first, DejaVu Sans (dejavu-fonts-ttf) for any character Roboto lacks. Roboto is small, and
// resvg's cost per text element grows with the font file (DejaVu Sans alone made a chart ~3x
// slower), so DejaVu is loaded only for a picture that needs it.
// ECharts lays text out before resvg draws it; without a canvas it would guess widths from an
// Arial-like table, so labels would overlap or be cut. We read the real advance widths from the
// same TTF files resvg draws with instead.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const ROBOTO_DIR = path.dirname(require.resolve('@expo-google-fonts/roboto/package.json'));
const DEJAVU_DIR = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');

export { FONT_FAMILY, FONT_STACK, FALLBACK_FONT_FAMILY } from '../../lib/charts/font-stack.ts';
export const FONT_FILES = {
  regular: path.join(ROBOTO_DIR, '400Regular', 'Roboto_400Regular.ttf'),
  bold: path.join(ROBOTO_DIR, '700Bold', 'Roboto_700Bold.ttf'),
};
export const FALLBACK_FONT_FILES = {
  regular: path.join(DEJAVU_DIR, 'DejaVuSans.ttf'),
  bold: path.join(DEJAVU_DIR, 'DejaVuSans-Bold.ttf'),
};

/** Advance widths of one TrueType font, in em (1 = the font size). */
export class FontMetrics {
  private readonly advances: Uint16Array;
  private readonly unitsPerEm: number;
  private readonly glyphOf = new Map<number, number>();
  private readonly cache = new Map<number, number>();

  constructor(ttf: Buffer) {
    const tables = new Map<string, number>();
    const count = ttf.readUInt16BE(4);
    for (let i = 0; i < count; i++) {
      const rec = 12 + i * 16;
      tables.set(ttf.toString('latin1', rec, rec + 4), ttf.readUInt32BE(rec + 8));
    }
    const table = (tag: string) => {
      const offset = tables.get(tag);
      if (offset === undefined) throw new Error(`TrueType font has no ${tag} table`);
      return offset;
    };
    this.unitsPerEm = ttf.readUInt16BE(table('head') + 18);
    const numberOfHMetrics = ttf.readUInt16BE(table('hhea') + 34);
    const hmtx = table('hmtx');
    this.advances = new Uint16Array(numberOfHMetrics);
    for (let i = 0; i < numberOfHMetrics; i++) this.advances[i] = ttf.readUInt16BE(hmtx + i * 4);
    this.readCmap(ttf, table('cmap'));
  }

  // Format 4 (the Basic Multilingual Plane) of the Windows Unicode subtable covers every label a
  // report can have in practice; anything else measures as the font's default advance.
  private readCmap(ttf: Buffer, cmap: number): void {
    const n = ttf.readUInt16BE(cmap + 2);
    for (let i = 0; i < n; i++) {
      const rec = cmap + 4 + i * 8;
      const platform = ttf.readUInt16BE(rec);
      const encoding = ttf.readUInt16BE(rec + 2);
      const sub = cmap + ttf.readUInt32BE(rec + 4);
      if (platform !== 3 || encoding !== 1 || ttf.readUInt16BE(sub) !== 4) continue;
      const segX2 = ttf.readUInt16BE(sub + 6);
      const ends = sub + 14;
      const starts = ends + segX2 + 2;
      const deltas = starts + segX2;
      const rangeOffsets = deltas + segX2;
      for (let s = 0; s < segX2 / 2; s++) {
        const end = ttf.readUInt16BE(ends + s * 2);
        const start = ttf.readUInt16BE(starts + s * 2);
        const delta = ttf.readUInt16BE(deltas + s * 2);
        const ro = ttf.readUInt16BE(rangeOffsets + s * 2);
        for (let c = start; c <= end && c !== 0xffff; c++) {
          let glyph: number;
          if (ro === 0) glyph = (c + delta) & 0xffff;
          else {
            const at = rangeOffsets + s * 2 + ro + (c - start) * 2;
            glyph = ttf.readUInt16BE(at);
            if (glyph !== 0) glyph = (glyph + delta) & 0xffff;
          }
          if (glyph !== 0) this.glyphOf.set(c, glyph);
        }
      }
      return;
    }
  }

  covers(codePoint: number): boolean {
    return this.glyphOf.has(codePoint);
  }

  /** Width of one code point in em. */
  advance(codePoint: number): number {
    let w = this.cache.get(codePoint);
    if (w === undefined) {
      const glyph = this.glyphOf.get(codePoint) ?? 0;
      const units = this.advances[Math.min(glyph, this.advances.length - 1)];
      w = units / this.unitsPerEm;
      this.cache.set(codePoint, w);
    }
    return w;
  }

  width(text: string, fontSize: number): number {
    let em = 0;
    for (const ch of text) em += this.advance(ch.codePointAt(0)!);
    return em * fontSize;
  }
}

interface Faces {
  regular: FontMetrics;
  bold: FontMetrics;
  fallbackRegular: FontMetrics;
  fallbackBold: FontMetrics;
}

let loaded: Faces | undefined;

export function fontMetrics(): Faces {
  loaded ??= {
    regular: new FontMetrics(fs.readFileSync(FONT_FILES.regular)),
    bold: new FontMetrics(fs.readFileSync(FONT_FILES.bold)),
    fallbackRegular: new FontMetrics(fs.readFileSync(FALLBACK_FONT_FILES.regular)),
    fallbackBold: new FontMetrics(fs.readFileSync(FALLBACK_FONT_FILES.bold)),
  };
  return loaded;
}

/** True when some character of text is missing from Roboto (ASCII never is). */
export function needsFallback(text: string): boolean {
  const { regular } = fontMetrics();
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x7f) continue;
    const cp = text.codePointAt(i)!;
    if (!regular.covers(cp)) return true;
    if (cp > 0xffff) i++;
  }
  return false;
}

/** measureText for ECharts' platform API: font is a CSS font shorthand ("bold 14px sans-serif"). */
export function measureText(text: string, font?: string): { width: number } {
  const f = font ?? '12px sans-serif';
  const size = Number(/(\d+(?:\.\d+)?)px/.exec(f)?.[1] ?? 12);
  const bold = /\b(bold|bolder|[6-9]00)\b/.test(f);
  const m = fontMetrics();
  const primary = bold ? m.bold : m.regular;
  const fallback = bold ? m.fallbackBold : m.fallbackRegular;
  let em = 0;
  for (const ch of text ?? '') {
    const cp = ch.codePointAt(0)!;
    em += primary.covers(cp) ? primary.advance(cp) : fallback.advance(cp);
  }
  return { width: em * size };
}
