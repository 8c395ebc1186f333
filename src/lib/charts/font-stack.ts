// The font names charts are drawn with, apart from the font files: the option builder (options.ts)
// runs in the browser too, and must not pull in the Node-only loading of the files (font.ts).
export const FONT_FAMILY = 'Roboto';
/** For SVG text: the families in fallback order. */
export const FONT_STACK = "Roboto, 'DejaVu Sans'";
export const FALLBACK_FONT_FAMILY = 'DejaVu Sans';
