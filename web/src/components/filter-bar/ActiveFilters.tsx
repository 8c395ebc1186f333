// The filter bar's active filters as removable chips (the date range, the comparison, each value
// picked), and "Clear all".
import { COMPARES, emptyState, rangeLabel, type BarState } from '../../dashboard-filters.ts';
import type { FilterOptions } from '../../types.ts';

interface Props {
  state: BarState;
  onChange: (next: BarState) => void;
  dimensions: FilterOptions[];
  fixed: boolean;
  setValues: (dim: string, values: string[]) => void;
}

export function ActiveFilters({ state, onChange, dimensions, fixed, setValues }: Props) {
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

  if (chips.length === 0) return null;
  return (
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
  );
}
