// Text contrast measured in a page (test/web/finish.test.ts and a11y.test.ts): what axe-core's
// color-contrast rule cannot decide, the charts' SVG text on the card behind it.
import type { Page } from 'playwright-core';

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
