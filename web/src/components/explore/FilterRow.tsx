// One filter of the query: a member (a dimension reachable from the measures, or a measure: its
// figure filtered after aggregation), an operator that fits its type, and its values.
import { Field } from './Field.tsx';
import { type ErrorAt, invalid } from './fields.ts';
import { arity, isReachable, type Member, OPERATOR_WORDS, operatorsFor, type QueryFilter } from './model.ts';
import { ValuesField } from './ValuesField.tsx';

interface Props {
  index: number;
  filter: QueryFilter;
  members: Map<string, Member>;
  cubes: Set<string>;
  onChange: (f: QueryFilter) => void;
  onRemove: () => void;
  errorAt: ErrorAt;
}

/** The members a filter may name, by cube: reachable dimensions, then the measures of those cubes. */
export function filterable(members: Map<string, Member>, cubes: Set<string>): Map<string, Member[]> {
  const groups = new Map<string, Member[]>();
  for (const m of members.values()) {
    if (!isReachable(cubes, m.name)) continue;
    const key = `${m.cube.title} · ${m.kind === 'measure' ? 'measures' : 'dimensions'}`;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  return groups;
}

export function FilterRow({ index, filter, members, cubes, onChange, onRemove, errorAt }: Props) {
  const id = `ex-f${index}`;
  const name = `filter ${index + 1}`;
  const member = members.get(filter.member);
  const ops = operatorsFor(member);
  const at = `filters/${index}`;
  const memberError = errorAt(`${at}/member`) ?? errorAt(at);
  const opError = errorAt(`${at}/operator`);
  const valuesError = errorAt(`${at}/values`);
  const groups = filterable(members, cubes);
  const pickMember = (next: string) => {
    const m = members.get(next);
    const operator = operatorsFor(m).includes(filter.operator) ? filter.operator : operatorsFor(m)[0];
    onChange({ member: next, operator, values: [] });
  };
  const pickOperator = (operator: QueryFilter['operator']) =>
    onChange({ ...filter, operator, values: arity(operator) === arity(filter.operator) ? filter.values : [] });
  return (
    <fieldset class="explore-filter">
      <legend>Filter {index + 1}</legend>
      <div class="row wrap">
        <Field id={`${id}-member`} label="Member" error={memberError}>
          <select
            id={`${id}-member`}
            value={filter.member}
            {...invalid(`${id}-member`, memberError)}
            onChange={(e) => pickMember(e.currentTarget.value)}
          >
            {(!member || !isReachable(cubes, filter.member)) && (
              <option value={filter.member}>{member?.title ?? filter.member} (not reachable from the measures)</option>
            )}
            {[...groups].map(([group, list]) => (
              <optgroup key={group} label={group}>
                {list.map((m) => (
                  <option key={m.name} value={m.name}>
                    {m.title}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </Field>
        <Field id={`${id}-op`} label="Operator" error={opError}>
          <select
            id={`${id}-op`}
            value={filter.operator}
            {...invalid(`${id}-op`, opError)}
            onChange={(e) => pickOperator(e.currentTarget.value as QueryFilter['operator'])}
          >
            {ops.map((o) => (
              <option key={o} value={o}>
                {OPERATOR_WORDS[o]}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <ValuesField
        key={filter.member}
        id={id}
        name={name}
        member={member}
        operator={filter.operator}
        values={filter.values ?? []}
        onChange={(values) => onChange({ ...filter, values })}
        error={valuesError}
      />
      <div class="actions">
        <button type="button" class="link danger" onClick={onRemove}>
          Remove filter {index + 1}
        </button>
      </div>
    </fieldset>
  );
}
