// A live widget's own settings in its form: the insight's granularity, its period, which of the
// dashboard's filters it follows, and its own filter values.
import { FILTER_FIELDS } from '../../catalog.ts';
import { RANGES } from '../../dashboard-filters.ts';
import type { Granularity, Insight } from '../../types.ts';
import { FieldError, fieldMessage } from '../Problem.tsx';
import type { useAction } from '../useAsync.ts';
import { ValuePicker } from '../ValuePicker.tsx';

interface Props {
  insight: Insight | undefined;
  granularity: Granularity | '';
  setGranularity: (g: Granularity | '') => void;
  filters: Record<string, string>;
  setFilters: (f: Record<string, string>) => void;
  ignored: string[];
  setIgnored: (i: string[]) => void;
  save: ReturnType<typeof useAction>;
}

export function LiveFields({ insight, granularity, setGranularity, filters, setFilters, ignored, setIgnored, save }: Props) {
  return (
    <>
      {(insight ? insight.granularities.length > 0 : true) && (
        <>
          <label for="wf-gran">Granularity</label>
          <select id="wf-gran" value={granularity} onChange={(e) => setGranularity(e.currentTarget.value as Granularity | '')}>
            <option value="">Default{insight?.default_granularity ? ` (${insight.default_granularity})` : ''}</option>
            {(insight?.granularities ?? ['day', 'week', 'month', 'quarter', 'year']).map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </select>
        </>
      )}
      <label for="wf-range">Period</label>
      <select id="wf-range" value={filters.range ?? ''} onChange={(e) => setFilters({ ...filters, range: e.currentTarget.value })}>
        <option value="">The insight's default</option>
        {RANGES.map(([r, l]) => (
          <option key={r} value={r}>
            {l}
          </option>
        ))}
      </select>
      {insight && (
        <fieldset>
          <legend>Dashboard filters this widget follows</legend>
          {[
            ['date', 'Date range'],
            ['compare', 'Comparison'],
            ...insight.filters.map((f) => [f, FILTER_FIELDS.find(([k]) => k === f)?.[1].replace(/ \(.*\)$/, '') ?? f]),
          ].map(([k, label]) => (
            <label class="check" key={k}>
              <input
                type="checkbox"
                checked={!ignored.includes(k)}
                onChange={(e) => setIgnored(e.currentTarget.checked ? ignored.filter((x) => x !== k) : [...ignored, k])}
              />{' '}
              {label}
            </label>
          ))}
        </fieldset>
      )}
      {FILTER_FIELDS.filter(([k]) => !insight || insight.filters.includes(k)).map(([k, label]) => (
        <div key={k}>
          <label for={`wf-${k}`}>{label}</label>
          <ValuePicker
            id={`wf-${k}`}
            name={k}
            multiple
            value={filters[k] ?? ''}
            invalid={!!fieldMessage(save.error, `/body/widget_filters/${k}`)}
            describedBy={fieldMessage(save.error, `/body/widget_filters/${k}`) ? `wf-${k}-error` : undefined}
            onChange={(v) => {
              setFilters({ ...filters, [k]: v });
              save.clear();
            }}
          />
          <FieldError
            id={`wf-${k}-error`}
            label={label.replace(/ \(.*\)$/, '')}
            message={fieldMessage(save.error, `/body/widget_filters/${k}`)}
          />
        </div>
      ))}
    </>
  );
}
