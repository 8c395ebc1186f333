// The dashboard's filter bar: a date range (relative or fixed), a comparison, one picker per filter
// dimension its live widgets take (values from the tenant's data, searchable, several at once), the
// active filters as removable chips, and saved views (the dashboard's presets) as chips.
import { COMPARES, RANGES, type BarState, type Compare, type Range } from '../dashboard-filters.ts';
import type { FilterOptions, FilterPreset } from '../types.ts';
import { ActiveFilters } from './filter-bar/ActiveFilters.tsx';
import { DimensionPicker } from './filter-bar/DimensionPicker.tsx';
import { SavedViews } from './filter-bar/SavedViews.tsx';

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
          <DimensionPicker key={d.name} dimension={d} picked={state.values[d.name] ?? []} onChange={(vs) => setValues(d.name, vs)} />
        ))}
      </div>
      <ActiveFilters state={state} onChange={onChange} dimensions={dimensions} fixed={fixed} setValues={setValues} />
      <SavedViews
        state={state}
        onChange={onChange}
        presets={presets}
        presetState={presetState}
        onSavePreset={onSavePreset}
        onDeletePreset={onDeletePreset}
      />
    </section>
  );
}
