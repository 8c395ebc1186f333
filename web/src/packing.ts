// The dashboard grid's packing, done before the page is drawn: each item goes to the first place of
// the 12-column grid where its span fits (as CSS `grid-auto-flow: dense` would put it), and the
// items are then laid out in that order with no reordering by CSS. So the order of the page (the
// keyboard's, a screen reader's, "Move earlier/later") is the order seen (WCAG 2.4.3).
export const GRID_COLUMNS = 12;

/** Items in the order they are seen: by row, then column, once packed densely into the grid. */
export function packed<T>(items: T[], span: (item: T) => number, columns = GRID_COLUMNS): T[] {
  const rows: boolean[][] = [];
  const placed = items.map((item, n) => {
    const width = Math.min(columns, Math.max(1, span(item)));
    for (let r = 0; ; r++) {
      rows[r] ??= Array(columns).fill(false);
      const row = rows[r];
      for (let c = 0; c + width <= columns; c++) {
        if (row.slice(c, c + width).every((used) => !used)) {
          row.fill(true, c, c + width);
          return { item, at: r * columns + c, n };
        }
      }
    }
  });
  return placed.sort((a, b) => a.at - b.at || a.n - b.n).map((p) => p.item);
}
