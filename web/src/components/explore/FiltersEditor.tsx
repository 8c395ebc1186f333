// The query's filters: a fieldset per filter, and a button that adds one on the first dimension
// the measures reach (the member is then changed in its row).
import type { ErrorAt } from './fields.ts';
import { FilterRow, filterable } from './FilterRow.tsx';
import type { Member, QueryFilter } from './model.ts';

interface Props {
  filters: QueryFilter[];
  members: Map<string, Member>;
  cubes: Set<string>;
  onChange: (filters: QueryFilter[]) => void;
  errorAt: ErrorAt;
}

export function FiltersEditor({ filters, members, cubes, onChange, errorAt }: Props) {
  const first = [...filterable(members, cubes).values()].flat().find((m) => m.kind === 'dimension');
  const add = () => first && onChange([...filters, { member: first.name, operator: 'equals', values: [] }]);
  return (
    <section class="explore-filters" aria-labelledby="ex-filters-h">
      <h2 id="ex-filters-h" class="explore-h">
        Filters
      </h2>
      {!filters.length && <p class="muted small">No filters: every row the measures count.</p>}
      {filters.map((f, i) => (
        <FilterRow
          key={i}
          index={i}
          filter={f}
          members={members}
          cubes={cubes}
          errorAt={errorAt}
          onChange={(next) => onChange(filters.map((x, j) => (j === i ? next : x)))}
          onRemove={() => onChange(filters.filter((_, j) => j !== i))}
        />
      ))}
      <button type="button" onClick={add} disabled={!first}>
        Add a filter
      </button>
    </section>
  );
}
