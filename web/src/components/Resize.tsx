// Resizing a dashboard item (a widget or a text block): a handle on its right edge that snaps to
// the contract's display_size values while dragged, and the keyboard's "Make … wider/narrower"
// buttons. Sizes are widths of the 12-column grid; heights follow the content (docs/decisions.md).
import { useRef, useState } from 'preact/hooks';
import { DISPLAY_SIZES, type DisplaySize } from '../types.ts';

/** Columns of the 12-column grid each size spans at this viewport width (styles.css's media queries). */
export function spans(viewport: number): Record<DisplaySize, number> {
  if (viewport <= 720) return { small: 12, medium: 12, large: 12, full: 12 };
  if (viewport <= 1100) return { small: 6, medium: 6, large: 12, full: 12 };
  return { small: 3, medium: 6, large: 9, full: 12 };
}

export const wider = (s: DisplaySize): DisplaySize | undefined => DISPLAY_SIZES[DISPLAY_SIZES.indexOf(s) + 1];
export const narrower = (s: DisplaySize): DisplaySize | undefined => DISPLAY_SIZES[DISPLAY_SIZES.indexOf(s) - 1];

/**
 * The size whose width is nearest `width` px in a grid `gridWidth` px wide with `gap` px between
 * columns; of sizes equally near (the same span at a narrow viewport) the current one, else the first.
 */
export function snap(width: number, gridWidth: number, gap: number, viewport: number, current: DisplaySize): DisplaySize {
  const column = (gridWidth - 11 * gap) / 12;
  const of = spans(viewport);
  const px = (s: DisplaySize) => of[s] * column + (of[s] - 1) * gap;
  let best = current;
  for (const s of DISPLAY_SIZES) if (Math.abs(px(s) - width) < Math.abs(px(best) - width) - 0.5) best = s;
  return best;
}

/** The drag handle; `onResize` gets the snapped size when the pointer is let go (if it changed). */
export function ResizeHandle({
  size,
  label,
  onPreview,
  onResize,
}: {
  size: DisplaySize;
  label: string;
  onPreview: (s: DisplaySize | null) => void;
  onResize: (s: DisplaySize) => void;
}) {
  const start = useRef<{ x: number; width: number; grid: HTMLElement } | null>(null);
  const [target, setTarget] = useState<DisplaySize | null>(null);
  const sizeAt = (clientX: number) => {
    const s = start.current!;
    const gap = Number.parseFloat(getComputedStyle(s.grid).columnGap) || 0;
    return snap(s.width + clientX - s.x, s.grid.clientWidth, gap, window.innerWidth, size);
  };
  return (
    <span
      class="resize-handle"
      title={`Drag to resize ${label}`}
      aria-hidden="true"
      data-target={target ?? undefined}
      onPointerDown={(e) => {
        const card = (e.currentTarget as HTMLElement).closest<HTMLElement>('.widget');
        const grid = card?.parentElement;
        if (!card || !grid) return;
        e.preventDefault();
        (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
        start.current = { x: e.clientX, width: card.getBoundingClientRect().width, grid };
      }}
      onPointerMove={(e) => {
        if (!start.current) return;
        const s = sizeAt(e.clientX);
        setTarget(s);
        onPreview(s === size ? null : s);
      }}
      onPointerUp={(e) => {
        if (!start.current) return;
        const s = sizeAt(e.clientX);
        start.current = null;
        setTarget(null);
        onPreview(null);
        if (s !== size) onResize(s);
      }}
      onPointerCancel={() => {
        start.current = null;
        setTarget(null);
        onPreview(null);
      }}
    />
  );
}

const WORDS: Record<DisplaySize, string> = {
  small: 'a quarter of the width',
  medium: 'half the width',
  large: 'three quarters of the width',
  full: 'the full width',
};
export const sizeWords = (s: DisplaySize) => WORDS[s];
