// The query's window: a time dimension reachable from the measures, its period (dates, inclusive),
// an optional granularity that groups by period, and an optional comparison.
import { GRANULARITIES } from '../../types.ts';
import { Field } from './Field.tsx';
import { type ErrorAt, invalid } from './fields.ts';
import { isReachable, labelOf, type Member, type Query } from './model.ts';

type Time = NonNullable<Query['time']>;

interface Props {
  members: Map<string, Member>;
  cubes: Set<string>;
  time: Query['time'];
  compare: Query['compare'];
  onChange: (time: Query['time'], compare: Query['compare']) => void;
  errorAt: ErrorAt;
}

const COMPARES = [
  ['', 'No comparison'],
  ['previous_period', 'Previous period'],
  ['previous_year', 'Same period a year before'],
] as const;

export function TimeFields({ members, cubes, time, compare, onChange, errorAt }: Props) {
  const options = [...members.values()].filter((m) => m.type === 'time' && m.kind === 'dimension' && isReachable(cubes, m.name));
  const set = (patch: Partial<Time>) => time && onChange({ ...time, ...patch }, compare);
  const dimError = errorAt('time/dimension', 'time');
  const granError = errorAt('time/granularity');
  const dateErrors = { date_from: errorAt('time/date_from'), date_to: errorAt('time/date_to') };
  const compareError = errorAt('compare');
  const none = !time?.dimension;
  return (
    <fieldset class="explore-time">
      <legend>Time</legend>
      <p class="muted small">With a granularity the rows are grouped by period; without, the dates only filter.</p>
      <div class="row wrap">
        <Field id="ex-time" label="Time dimension" error={dimError}>
          <select
            id="ex-time"
            value={time?.dimension ?? ''}
            {...invalid('ex-time', dimError)}
            onChange={(e) => {
              const dimension = e.currentTarget.value;
              onChange(dimension ? { ...time, dimension } : undefined, dimension ? compare : undefined);
            }}
          >
            <option value="">None (all of the data)</option>
            {time?.dimension && !options.some((m) => m.name === time.dimension) && (
              <option value={time.dimension}>{labelOf(members, time.dimension)} (not reachable from the measures)</option>
            )}
            {options.map((m) => (
              <option key={m.name} value={m.name}>
                {m.cube.title} · {m.title}
              </option>
            ))}
          </select>
        </Field>
        <Field id="ex-gran" label="Granularity" error={granError}>
          <select
            id="ex-gran"
            disabled={none}
            value={time?.granularity ?? ''}
            {...invalid('ex-gran', granError)}
            onChange={(e) => set({ granularity: (e.currentTarget.value || undefined) as Time['granularity'] })}
          >
            <option value="">None</option>
            {GRANULARITIES.map((g) => (
              <option key={g} value={g}>
                By {g}
              </option>
            ))}
          </select>
        </Field>
        {(['date_from', 'date_to'] as const).map((k) => {
          const id = k === 'date_from' ? 'ex-from' : 'ex-to';
          const label = k === 'date_from' ? 'From' : 'To';
          return (
            <Field key={k} id={id} label={label} error={dateErrors[k]}>
              <input
                id={id}
                type="date"
                disabled={none}
                value={time?.[k] ?? ''}
                {...invalid(id, dateErrors[k])}
                onInput={(e) => set({ [k]: e.currentTarget.value || undefined })}
              />
            </Field>
          );
        })}
        <Field id="ex-compare" label="Compare with" error={compareError}>
          <select
            id="ex-compare"
            disabled={none}
            value={compare ?? ''}
            {...invalid('ex-compare', compareError)}
            onChange={(e) => onChange(time, (e.currentTarget.value || undefined) as Query['compare'])}
          >
            {COMPARES.map(([v, words]) => (
              <option key={v} value={v}>
                {words}
              </option>
            ))}
          </select>
        </Field>
      </div>
    </fieldset>
  );
}
