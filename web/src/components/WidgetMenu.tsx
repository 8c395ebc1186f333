// A widget's actions behind one button ("More actions for …"): one tab stop per widget instead of
// six. View data, downloads, and for editors refresh, move, resize, edit and remove. Escape closes it.
import { useState } from 'preact/hooks';
import type { DisplaySize } from '../types.ts';
import { narrower, wider } from './Resize.tsx';

export interface WidgetActions {
  title: string;
  editable: boolean;
  /** Nothing to show or download until the widget has data. */
  hasData: boolean;
  showData: boolean;
  onToggleData: () => void;
  onCsv: () => void;
  /** Absent for tables and KPIs (no picture). */
  onPng?: () => void;
  /** Present for live widgets. */
  onRefresh?: () => void;
  busy: boolean;
  size: DisplaySize;
  onResize: (size: DisplaySize) => void;
  first: boolean;
  last: boolean;
  onMove: (delta: number) => void;
  onEdit: () => void;
  onRemove: () => void;
}

export function WidgetMenu(a: WidgetActions) {
  const [open, setOpen] = useState(false);
  const then = (f: () => void) => () => {
    setOpen(false);
    f();
  };
  const bigger = wider(a.size);
  const smaller = narrower(a.size);
  return (
    <div class="menu-wrap">
      <button
        type="button"
        class="icon"
        aria-label={`More actions for ${a.title}`}
        aria-expanded={open}
        title="More"
        onClick={() => setOpen(!open)}
      >
        ⋯
      </button>
      {open && (
        <div class="menu" role="group" aria-label={`Actions for ${a.title}`} onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}>
          <button type="button" aria-pressed={a.showData} disabled={!a.hasData} onClick={then(a.onToggleData)}>
            {a.showData ? 'Hide data' : 'View data'}
          </button>
          <button type="button" disabled={!a.hasData} onClick={then(a.onCsv)}>
            Download CSV
          </button>
          {a.onPng && (
            <button type="button" disabled={!a.hasData} onClick={then(a.onPng)}>
              Download PNG
            </button>
          )}
          {a.editable && a.onRefresh && (
            <button type="button" disabled={a.busy} onClick={then(a.onRefresh)}>
              Refresh {a.title}
            </button>
          )}
          {a.editable && (
            <>
              <button type="button" disabled={a.first} onClick={then(() => a.onMove(-1))}>
                Move {a.title} earlier
              </button>
              <button type="button" disabled={a.last} onClick={then(() => a.onMove(1))}>
                Move {a.title} later
              </button>
              <button type="button" disabled={!bigger} onClick={() => bigger && a.onResize(bigger)}>
                Make {a.title} wider
              </button>
              <button type="button" disabled={!smaller} onClick={() => smaller && a.onResize(smaller)}>
                Make {a.title} narrower
              </button>
              <button type="button" onClick={then(a.onEdit)}>
                Edit {a.title}
              </button>
              <button type="button" class="danger" onClick={then(a.onRemove)}>
                Remove {a.title}
              </button>
            </>
          )}
        </div>
      )}
    </div>
  );
}
