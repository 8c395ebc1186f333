// A filter's value picked from the tenant's data (GET /insights/filters), as the dashboard's filter
// bar offers them: no typing of codes. Several values may be picked where the form takes several.
// Without known values (the listing failed or is empty), a text field takes them, comma-separated.
import { useEffect, useState } from 'preact/hooks';
import { loadFilterOptions } from '../catalog.ts';
import type { FilterOptions } from '../types.ts';

interface Props {
  id: string;
  /** The filter dimension (country, channel…). */
  name: string;
  /** Values, comma-separated ('' for any). */
  value: string;
  onChange: (value: string) => void;
  multiple?: boolean;
  invalid?: boolean;
  describedBy?: string;
}

export function ValuePicker({ id, name, value, onChange, multiple, invalid, describedBy }: Props) {
  const [options, setOptions] = useState<FilterOptions[]>();
  useEffect(() => {
    void loadFilterOptions()
      .then(setOptions)
      .catch(() => setOptions([]));
  }, []);
  const values = options?.find((o) => o.name === name)?.values ?? [];
  const aria = { 'aria-invalid': invalid ? true : undefined, 'aria-describedby': describedBy } as const;
  if (!values.length)
    return <input id={id} value={value} {...aria} onInput={(e) => onChange(e.currentTarget.value)} disabled={options === undefined} />;
  const picked = value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (multiple)
    return (
      <select
        id={id}
        multiple
        size={Math.min(5, values.length)}
        {...aria}
        onChange={(e) => onChange([...e.currentTarget.selectedOptions].map((o) => o.value).join(', '))}
      >
        {values.map((v) => (
          <option key={v} value={v} selected={picked.includes(v)}>
            {v}
          </option>
        ))}
      </select>
    );
  return (
    <select id={id} value={picked[0] ?? ''} {...aria} onChange={(e) => onChange(e.currentTarget.value)}>
      <option value="">Any</option>
      {values.map((v) => (
        <option key={v} value={v}>
          {v}
        </option>
      ))}
    </select>
  );
}
