// One filter dimension of the bar: a button that opens a searchable list of checkboxes, so several
// values can be picked at once; a value not listed (a long list) can be typed in.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { FilterOptions } from '../../types.ts';

/** Several values of one dimension: a button that opens a searchable list of checkboxes. */
export function DimensionPicker({
  dimension: d,
  picked,
  onChange,
}: {
  dimension: FilterOptions;
  picked: string[];
  onChange: (vs: string[]) => void;
}) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const outside = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open]);
  const q = text.trim().toLowerCase();
  const shown = [...new Set([...picked, ...d.values])].filter((v) => !q || v.toLowerCase().includes(q));
  const toggle = (v: string, on: boolean) => onChange(on ? [...picked, v] : picked.filter((x) => x !== v));
  const listId = `pick-${d.name}`;
  return (
    <div
      class="picker"
      ref={box}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          setOpen(false);
          (box.current?.querySelector('button.picker-toggle') as HTMLButtonElement | null)?.focus();
        }
      }}
    >
      <button type="button" class="picker-toggle" aria-expanded={open} aria-controls={listId} onClick={() => setOpen(!open)}>
        {d.label}
        {picked.length ? `: ${picked.length === 1 ? picked[0] : `${picked.length} values`}` : ': all'} ▾
      </button>
      {open && (
        <div class="picker-pop" id={listId} role="group" aria-label={`${d.label} values`}>
          <input
            type="search"
            aria-label={`Search ${d.label}`}
            placeholder="Type to search"
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
            ref={(el) => el?.focus()}
          />
          {!d.listed && q && !shown.includes(text.trim()) && (
            <button type="button" class="link" onClick={() => (toggle(text.trim(), true), setText(''))}>
              Add “{text.trim()}”
            </button>
          )}
          <ul class="picker-list">
            {shown.map((v) => (
              <li key={v}>
                <label class="check">
                  <input type="checkbox" checked={picked.includes(v)} onChange={(e) => toggle(v, e.currentTarget.checked)} />
                  {v}
                </label>
              </li>
            ))}
            {shown.length === 0 && <li class="muted small">No value matches.</li>}
          </ul>
          <div class="actions">
            {picked.length > 0 && (
              <button type="button" class="link" onClick={() => onChange([])}>
                All {d.label.toLowerCase()} values
              </button>
            )}
            <button type="button" onClick={() => setOpen(false)}>
              Done
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
