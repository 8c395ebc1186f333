// Members to pick (measures, dimensions, segments) as checkboxes grouped by cube, each group a
// fieldset named by the cube's title. A member the service refused says why next to its box.
import type { ComponentChildren } from 'preact';

export interface CheckGroup {
  cube: string;
  title: string;
  items: { name: string; title: string; note?: string }[];
}

interface Props {
  legend: string;
  idPrefix: string;
  groups: CheckGroup[];
  chosen: string[];
  onChange: (next: string[]) => void;
  /** What the service said of a chosen member, by name. */
  errorOf?: (name: string) => string | undefined;
  /** Shown instead of the boxes when there is nothing to pick. */
  empty?: ComponentChildren;
  hint?: string;
}

const idOf = (prefix: string, name: string) => `${prefix}-${name.replace(/\W/g, '-')}`;

export function MemberChecks({ legend, idPrefix, groups, chosen, onChange, errorOf, empty, hint }: Props) {
  const toggle = (name: string, on: boolean) => onChange(on ? [...chosen, name] : chosen.filter((c) => c !== name));
  const items = groups.flatMap((g) => g.items);
  return (
    <fieldset class="explore-members" aria-describedby={hint ? `${idPrefix}-hint` : undefined}>
      <legend>{legend}</legend>
      {hint && (
        <p class="muted small" id={`${idPrefix}-hint`}>
          {hint}
        </p>
      )}
      {!items.length && empty}
      {groups
        .filter((g) => g.items.length)
        .map((g) => (
          <fieldset key={g.cube} class="cube-group">
            <legend>{g.title}</legend>
            <ul class="check-list">
              {g.items.map((m) => {
                const id = idOf(idPrefix, m.name);
                const error = chosen.includes(m.name) ? errorOf?.(m.name) : undefined;
                return (
                  <li key={m.name}>
                    <label class="check" for={id}>
                      <input
                        id={id}
                        type="checkbox"
                        checked={chosen.includes(m.name)}
                        aria-invalid={error ? true : undefined}
                        aria-describedby={error ? `${id}-error` : undefined}
                        onChange={(e) => toggle(m.name, e.currentTarget.checked)}
                      />
                      {m.title}
                      {m.note && <span class="muted small"> ({m.note})</span>}
                    </label>
                    {error && (
                      <p class="field-error" id={`${id}-error`}>
                        {m.title}: {error}
                      </p>
                    )}
                  </li>
                );
              })}
            </ul>
          </fieldset>
        ))}
    </fieldset>
  );
}
