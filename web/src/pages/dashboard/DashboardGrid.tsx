// The dashboard's grid: text blocks and widget cards in the order seen, each with its edit,
// move, resize and remove controls (for editors) and the filter bar's picks (for everyone).
import { sizeWords } from '../../components/Resize.tsx';
import { TextBlock, textName } from '../../components/TextBlock.tsx';
import { WidgetCard } from '../../components/WidgetCard.tsx';
import type { Widget } from '../../types.ts';
import type { useDashboardFilters } from './useDashboardFilters.ts';
import type { useTextBlocks } from './useTextBlocks.ts';
import type { useWidgetOrder } from './useWidgetOrder.ts';

interface Props {
  order: ReturnType<typeof useWidgetOrder>;
  text: ReturnType<typeof useTextBlocks>;
  filters: ReturnType<typeof useDashboardFilters>;
  editable: boolean;
  tick: number;
  onEdit: (w: Widget) => void;
  onRemove: (w: Widget) => void;
}

export function DashboardGrid({ order, text, filters, editable, tick, onEdit, onRemove }: Props) {
  const { items, seen, widgets, setWidgets, dragId, setDragId, move, dropOn, resizeWidget } = order;
  const { setEditingText, setRemovingText, changeText } = text;
  const { body, query, applies, onPick, dimensionNames } = filters;
  return (
    <div class="grid">
      {items.map((item) => {
        if (item.kind === 'text') {
          const b = item.block;
          const name = textName(b.body);
          const at = Math.min(b.position, widgets.length);
          return (
            <TextBlock
              key={`t-${b.id}`}
              block={b}
              editable={editable}
              first={at === 0}
              last={at >= widgets.length}
              onEdit={() => setEditingText(b)}
              onRemove={() => setRemovingText(b)}
              onMove={(delta) =>
                void changeText(b, { position: Math.max(0, at + delta) }, `Text ${name} moved ${delta < 0 ? 'earlier' : 'later'}.`)
              }
              onResize={(size) => void changeText(b, { display_size: size }, `Text ${name} now takes ${sizeWords(size)}.`)}
            />
          );
        }
        const w = item.widget;
        const i = seen.indexOf(w);
        return (
          <WidgetCard
            key={w.id}
            widget={w}
            body={w.data_source === 'live_insight' ? body : {}}
            query={w.data_source === 'live_insight' ? query : ''}
            applies={applies(w)}
            tick={tick}
            onPick={onPick}
            pickable={dimensionNames}
            editable={editable}
            index={i}
            count={widgets.length}
            onEdit={() => onEdit(w)}
            onRemove={() => onRemove(w)}
            onMove={(delta) => move(i, delta)}
            onResize={(size) => void resizeWidget(w, size)}
            onRefreshed={(nw) => setWidgets((ws) => ws.map((x) => (x.id === nw.id ? nw : x)))}
            drag={{
              dragging: dragId === w.id,
              onDragStart: (e) => {
                setDragId(w.id);
                e.dataTransfer?.setData('text/plain', w.id);
                if (e.dataTransfer) e.dataTransfer.effectAllowed = 'move';
              },
              onDragOver: (e) => {
                if (dragId) e.preventDefault();
              },
              onDrop: (e) => {
                e.preventDefault();
                dropOn(w.id);
              },
              onDragEnd: () => setDragId(null),
            }}
          />
        );
      })}
    </div>
  );
}
