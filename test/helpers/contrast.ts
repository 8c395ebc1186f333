// WCAG 2 contrast ratio, written out here as the oracle the renderings' shading is checked against
// (not the code under test): colours as #rrggbb or rgb(r, g, b).
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
