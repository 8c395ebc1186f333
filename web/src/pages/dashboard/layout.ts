// Where a dashboard's widgets and text blocks go: widgets in widget_ids order, each text block
// before the widget at its position, packed into the 12-column grid by display_size.
import type { Dashboard, TextBlock as Block, Widget } from '../../types.ts';

/** Widgets and text blocks in one order: each block before the widget at its position, the rest at the end. */
export type Item = { kind: 'widget'; widget: Widget; index: number } | { kind: 'text'; block: Block };
export function layout(widgets: Widget[], blocks: Block[]): Item[] {
  const sorted = [...blocks].sort((a, b) => a.position - b.position);
  const out: Item[] = [];
  let k = 0;
  widgets.forEach((widget, index) => {
    while (k < sorted.length && sorted[k].position <= index) out.push({ kind: 'text', block: sorted[k++] });
    out.push({ kind: 'widget', widget, index });
  });
  while (k < sorted.length) out.push({ kind: 'text', block: sorted[k++] });
  return out;
}

export function ordered(d: Dashboard, widgets: Widget[]): Widget[] {
  const byId = new Map(widgets.map((w) => [w.id, w]));
  const inOrder = d.widget_ids.map((id) => byId.get(id)).filter((w): w is Widget => !!w);
  return [...inOrder, ...widgets.filter((w) => !d.widget_ids.includes(w.id))];
}

/** The grid columns a display_size takes. */
export const SPANS: Record<string, number> = { small: 3, medium: 6, large: 9, full: 12 };
