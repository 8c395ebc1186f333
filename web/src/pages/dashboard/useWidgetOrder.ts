// A dashboard's widgets as the page shows them: packed into the grid (the order seen is the
// keyboard's and the one stored), moved by buttons or dragging, resized, removed; each change is
// said aloud (setAnnounce).
import { useState } from 'preact/hooks';
import { api, bodyOf } from '../../api.ts';
import { sizeWords } from '../../components/Resize.tsx';
import type { useAction } from '../../components/useAsync.ts';
import { packed } from '../../packing.ts';
import type { Dashboard, DisplaySize, TextBlock as Block, Widget } from '../../types.ts';
import { layout, ordered, SPANS } from './layout.ts';

interface Args {
  dash: Dashboard;
  setDash: (d: Dashboard) => void;
  blocks: Block[];
  action: ReturnType<typeof useAction>;
  setAnnounce: (said: string) => void;
}

export function useWidgetOrder({ dash, setDash, blocks, action, setAnnounce }: Args) {
  const [widgets, setWidgets] = useState<Widget[]>(() => ordered(dash, dash.widgets ?? []));
  const [dragId, setDragId] = useState<string | null>(null);

  const reorder = async (next: Widget[], movedTitle: string) => {
    const previous = widgets;
    setWidgets(next);
    const ok = await action.run(async () => {
      const d = await bodyOf(
        api.PATCH('/api/v1/dashboards/{id}', { params: { path: { id: dash.id } }, body: { widget_ids: next.map((w) => w.id) } }),
      );
      setDash({ ...dash, ...d });
    });
    if (ok) {
      const pos = next.findIndex((w) => w.title === movedTitle) + 1;
      setAnnounce(`${movedTitle} moved to position ${pos} of ${next.length}.`);
    } else setWidgets(previous);
  };

  // The page in the order it is seen (packed into the grid), which is also its keyboard order.
  const items = packed(layout(widgets, blocks), (it) => SPANS[it.kind === 'text' ? it.block.display_size : it.widget.display_size] ?? 6);
  const seen = items.flatMap((it) => (it.kind === 'widget' ? [it.widget] : []));

  /** "Move earlier/later" swaps neighbours as seen; the order seen is what is stored. */
  const move = (i: number, delta: number) => {
    const j = i + delta;
    if (j < 0 || j >= seen.length) return;
    const next = [...seen];
    [next[i], next[j]] = [next[j], next[i]];
    const title = seen[i].title;
    void reorder(next, title).then(() => {
      // Keep the keyboard on the moved widget: its actions button.
      document.querySelector<HTMLButtonElement>(`[aria-label="${CSS.escape(`More actions for ${title}`)}"]`)?.focus();
    });
  };

  const dropOn = (targetId: string) => {
    if (!dragId || dragId === targetId) return;
    const from = seen.findIndex((w) => w.id === dragId);
    const to = seen.findIndex((w) => w.id === targetId);
    const next = [...seen];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved);
    setDragId(null);
    void reorder(next, moved.title);
  };

  const removeWidget = async (w: Widget) => {
    const ok = await action.run(() =>
      bodyOf(api.DELETE('/api/v1/dashboards/{id}/widgets/{wid}', { params: { path: { id: dash.id, wid: w.id } } })),
    );
    if (ok) {
      setWidgets(widgets.filter((x) => x.id !== w.id));
      setAnnounce(`${w.title} removed.`);
    }
  };

  const resizeWidget = async (w: Widget, size: DisplaySize) => {
    const ok = await action.run(async () => {
      const nw = await bodyOf(
        api.PATCH('/api/v1/dashboards/{id}/widgets/{wid}', { params: { path: { id: dash.id, wid: w.id } }, body: { display_size: size } }),
      );
      setWidgets((ws) => ws.map((x) => (x.id === nw.id ? { ...x, display_size: nw.display_size } : x)));
    });
    if (ok) setAnnounce(`${w.title} now takes ${sizeWords(size)}.`);
  };

  return { widgets, setWidgets, items, seen, dragId, setDragId, move, dropOn, removeWidget, resizeWidget };
}
