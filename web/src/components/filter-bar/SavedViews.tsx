// The dashboard's saved views (its filter presets) as chips: one applies its filters, and for
// editors, "Save this view" names the bar's state and ✕ deletes a view.
import { useState } from 'preact/hooks';
import { sameState, type BarState } from '../../dashboard-filters.ts';
import type { FilterPreset } from '../../types.ts';

interface Props {
  state: BarState;
  onChange: (next: BarState) => void;
  presets: FilterPreset[];
  presetState: (p: FilterPreset) => BarState;
  /** Present when the user may save and delete views. */
  onSavePreset?: (name: string) => void;
  onDeletePreset?: (p: FilterPreset) => void;
}

export function SavedViews({ state, onChange, presets, presetState, onSavePreset, onDeletePreset }: Props) {
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  if (!(presets.length > 0 || onSavePreset)) return null;
  return (
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
  );
}
