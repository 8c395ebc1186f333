// The dashboard's filter bar: a date range (relative or fixed), a comparison, one picker per filter
// dimension its live widgets take (values from the tenant's data, searchable, several at once), the
// active filters as removable chips, and saved views (the dashboard's presets) as chips.
import { useEffect, useRef, useState } from 'preact/hooks';
import { COMPARES, RANGES, emptyState, rangeLabel, sameState, type BarState, type Compare, type Range } from '../dashboard-filters.ts';
import type { FilterOptions, FilterPreset } from '../types.ts';

interface Props {
  state: BarState;
  onChange: (next: BarState) => void;
  /** The filter dimensions shown, with their labels and values. */
  dimensions: FilterOptions[];
  presets: FilterPreset[];
  presetState: (p: FilterPreset) => BarState;
  /** Present when the user may save and delete views. */
  onSavePreset?: (name: string) => void;
  onDeletePreset?: (p: FilterPreset) => void;
}

const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

export function FilterBar({ state, onChange, dimensions, presets, presetState, onSavePreset, onDeletePreset }: Props) {
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const fixed = !state.range && !!(state.from || state.to);
  const rangeValue = state.range ?? (fixed ? 'fixed' : '');

  const setRange = (v: string) => {
    if (v === 'fixed') onChange({ ...state, range: undefined, from: state.from ?? daysAgo(29), to: state.to ?? today() });
    else onChange({ ...state, range: (v || undefined) as Range | undefined, from: undefined, to: undefined });
  };
  const setValues = (dim: string, values: string[]) => {
    const next = { ...state.values, [dim]: values };
    if (!values.length) delete next[dim];
    onChange({ ...state, values: next });
  };
  const labelOf = (dim: string) => dimensions.find((d) => d.name === dim)?.label ?? dim;
  const chips: { key: string; text: string; remove: () => void }[] = [];
  if (state.range || fixed)
    chips.push({
      key: 'date',
      text: `Date: ${rangeLabel(state)}`,
      remove: () => onChange({ ...state, range: undefined, from: undefined, to: undefined }),
    });
  if (state.compare)
    chips.push({
      key: 'compare',
      text: `Compared with: ${COMPARES.find(([c]) => c === state.compare)![1].toLowerCase()}`,
      remove: () => onChange({ ...state, compare: undefined }),
    });
  for (const [dim, vs] of Object.entries(state.values)) {
    for (const v of vs)
      chips.push({
        key: `${dim}=${v}`,
        text: `${labelOf(dim)}: ${v}`,
        remove: () =>
          setValues(
            dim,
            vs.filter((x) => x !== v),
          ),
      });
  }

  return (
    <section class="filter-bar" aria-label="Filters">
      <div class="filter-fields">
        <label class="inline">
          Date range
          <select value={rangeValue} onChange={(e) => setRange(e.currentTarget.value)}>
            <option value="">Each widget's own</option>
            {RANGES.map(([r, l]) => (
              <option key={r} value={r}>
                {l}
              </option>
            ))}
            <option value="fixed">Fixed dates…</option>
          </select>
        </label>
        {fixed && (
          <>
            <label class="inline">
              From
              <input
                type="date"
                value={state.from ?? ''}
                max={state.to}
                onChange={(e) => onChange({ ...state, from: e.currentTarget.value || undefined })}
              />
            </label>
            <label class="inline">
              To
              <input
                type="date"
                value={state.to ?? ''}
                min={state.from}
                onChange={(e) => onChange({ ...state, to: e.currentTarget.value || undefined })}
              />
            </label>
          </>
        )}
        <label class="inline">
          Compare with
          <select
            value={state.compare ?? ''}
            onChange={(e) => onChange({ ...state, compare: (e.currentTarget.value || undefined) as Compare | undefined })}
          >
            <option value="">No comparison</option>
            {COMPARES.map(([c, l]) => (
              <option key={c} value={c}>
                {l}
              </option>
            ))}
          </select>
        </label>
        {dimensions.map((d) => (
          <ValuePicker key={d.name} dimension={d} picked={state.values[d.name] ?? []} onChange={(vs) => setValues(d.name, vs)} />
        ))}
      </div>
      {chips.length > 0 && (
        <div class="chips-row">
          <ul class="chips" aria-label="Active filters">
            {chips.map((c) => (
              <li key={c.key} class="chip">
                {c.text}
                <button type="button" class="chip-x" aria-label={`Remove filter ${c.text}`} onClick={c.remove}>
                  ✕
                </button>
              </li>
            ))}
          </ul>
          <button type="button" class="link" onClick={() => onChange(emptyState())}>
            Clear all
          </button>
        </div>
      )}
      {(presets.length > 0 || onSavePreset) && (
        <div class="chips-row">
          <span class="muted small" id="views-label">
            Saved views
          </span>
          <ul class="chips" aria-labelledby="views-label">
            {presets.map((p) => {
              const on = sameState(presetState(p), state);
              return (
                <li key={p.id} class={`chip view${on ? ' on' : ''}`}>
                  <button type="button" class="chip-main" aria-pressed={on} onClick={() => onChange(presetState(p))}>
                    {p.name}
                  </button>
                  {onDeletePreset && (
                    <button type="button" class="chip-x" aria-label={`Delete saved view ${p.name}`} onClick={() => onDeletePreset(p)}>
                      ✕
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
          {onSavePreset &&
            (naming ? (
              <form
                class="inline-form"
                onSubmit={(e) => {
                  e.preventDefault();
                  if (!name.trim()) return;
                  onSavePreset(name.trim());
                  setNaming(false);
                  setName('');
                }}
              >
                <label class="inline">
                  View name
                  <input value={name} required maxLength={200} onInput={(e) => setName(e.currentTarget.value)} ref={(el) => el?.focus()} />
                </label>
                <button type="submit" class="primary">
                  Save
                </button>
                <button type="button" onClick={() => setNaming(false)}>
                  Cancel
                </button>
              </form>
            ) : (
              <button type="button" class="link" onClick={() => setNaming(true)}>
                Save this view
              </button>
            ))}
        </div>
      )}
    </section>
  );
}

/** Several values of one dimension: a button that opens a searchable list of checkboxes. */
function ValuePicker({ dimension: d, picked, onChange }: { dimension: FilterOptions; picked: string[]; onChange: (vs: string[]) => void }) {
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
