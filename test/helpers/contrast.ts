// WCAG 2 text contrast for the tests: the ratio of two colours (#rrggbb or rgb(r, g, b)), the
// oracle the renderings' shading is checked against (not the code under test); and the contrast
// measured in a page (finish.test.ts and a11y.test.ts): what axe-core's color-contrast rule cannot
// decide, the charts' SVG text on the card behind it. The page's copy of the formula runs inside
// page.evaluate, which takes no outside function.
import type { Page } from 'playwright-core';

function luminance(colour: string): number {
  const channels = colour.startsWith('#')
    ? [1, 3, 5].map((i) => Number.parseInt(colour.slice(i, i + 2), 16))
    : (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
  const [r, g, b] = channels.map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Negative when `a` is darker than `b`. */
export const lighterThan = (a: string, b: string) => luminance(a) - luminance(b);

/**
 * WCAG 2.1 AA text contrast (1.4.3) measured in the page as axe-core's color-contrast rule measures
 * it, for the text that rule leaves "to review": the charts' SVG text (axe finds no background
 * behind it). Every visible text, HTML and the charts' SVG, against the first opaque background
 * behind it; 4.5:1, or 3:1 for large text. The failures, described.
 */
export function lowContrast(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const rgb = (c: string): number[] | null => {
      const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/.exec(c);
      if (m)
        return m[4] !== undefined && Number(m[4]) < 1 ? (Number(m[4]) === 0 ? null : [+m[1], +m[2], +m[3], +m[4]]) : [+m[1], +m[2], +m[3]];
      const h = /^#([0-9a-f]{6})$/i.exec(c.trim());
      return h ? [0, 2, 4].map((i) => parseInt(h[1].slice(i, i + 2), 16)) : null;
    };
    const lum = (c: number[]) => {
      const [r, g, b] = c.slice(0, 3).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const ratio = (a: number[], b: number[]) => {
      const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
      return (x + 0.05) / (y + 0.05);
    };
    const backdrop = (el: Element | null): number[] => {
      for (let e = el; e; e = e.parentElement) {
        const fill = e instanceof SVGElement && e.tagName === 'svg' ? null : rgb(getComputedStyle(e).backgroundColor);
        if (fill && fill.length === 3) return fill;
      }
      return rgb(getComputedStyle(document.body).backgroundColor) ?? [255, 255, 255];
    };
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || !n.textContent?.trim()) continue;
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      if (style.visibility === 'hidden' || box.width === 0 || box.height === 0 || el.closest('[aria-hidden=true], .sr-only')) continue;
      if ((el as HTMLButtonElement).disabled || el.closest('button:disabled, option')) continue;
      const svgText = el instanceof SVGElement;
      const fg = rgb(svgText ? (el.getAttribute('fill') ?? style.fill) : style.color);
      if (!fg) continue;
      // The chart's own background rect is the card's colour (charts.ts recolours it).
      const bg = backdrop(svgText ? el.closest('svg')!.parentElement : el);
      const size = parseFloat(style.fontSize);
      const bold = Number(style.fontWeight) >= 700 || el.getAttribute('font-weight') === 'bold';
      const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
      const r = ratio(fg, bg);
      if (r < need)
        out.push(
          `${r.toFixed(2)}:1 "${n.textContent.trim().slice(0, 40)}" (${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''})`,
        );
    }
    return [...new Set(out)];
  });
}
