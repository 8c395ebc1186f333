// A filter's values, as many as its operator takes: several as removable chips typed or picked from
// the dimension's values in the caller's data (GET /api/v1/model/dimensions/{member}/values), one or
// two as plain fields (a number, a date for a time dimension), none for set / not set.
import { useEffect, useState } from 'preact/hooks';
import { api, bodyOf } from '../../api.ts';
import { FieldError } from '../Problem.tsx';
import { invalid } from './fields.ts';
import { arity, type Member, type Operator } from './model.ts';

type Value = string | number | boolean;

interface Props {
  id: string;
  /** The filter's words ("Filter 1"), for labels that say which filter a field is of. */
  name: string;
  member: Member | undefined;
  operator: Operator;
  values: Value[];
  onChange: (values: Value[]) => void;
  error?: string;
}

/** The values a dimension takes in the caller's data (the model's own list when it has one). */
function useSuggestions(member: Member | undefined): string[] {
  const [list, setList] = useState<string[]>([]);
  useEffect(() => {
    setList(member?.values ?? []);
    if (!member || member.values || !member.listable) return;
    let gone = false;
    bodyOf(api.GET('/api/v1/model/dimensions/{member}/values', { params: { path: { member: member.name } } }))
      .then((v) => !gone && setList(v))
      .catch(() => undefined); // Suggestions only: any value may still be typed.
    return () => void (gone = true);
  }, [member?.name]);
  return list;
}

/** The input's type (a union of literal types in one prop does not fit preact's input types). */
const typeOf = (kind: 'date' | 'number' | 'text') =>
  kind === 'number'
    ? ({ type: 'number', step: 'any' } as const)
    : kind === 'date'
      ? ({ type: 'date' } as const)
      : ({ type: 'text' } as const);

function Chips({ id, name, values, onChange }: Pick<Props, 'id' | 'name' | 'values' | 'onChange'>) {
  if (!values.length) return null;
  return (
    <ul class="chips" aria-label={`Values of ${name}`} id={`${id}-chips`}>
      {values.map((v) => (
        <li key={String(v)} class="chip">
          {String(v)}
          <button
            type="button"
            class="chip-x"
            aria-label={`Remove ${String(v)} from ${name}`}
            onClick={() => onChange(values.filter((x) => x !== v))}
          >
            ✕
          </button>
        </li>
      ))}
    </ul>
  );
}

export function ValuesField({ id, name, member, operator, values, onChange, error }: Props) {
  const [text, setText] = useState('');
  const suggestions = useSuggestions(member);
  const n = arity(operator);
  if (n === 'none') return null;
  const kind: 'date' | 'number' | 'text' =
    member?.type === 'time' ? 'date' : member?.kind === 'measure' || member?.type === 'number' ? 'number' : 'text';
  const describedBy = invalid(`${id}-values`, error);
  const errorLine = <FieldError id={`${id}-values-error`} label={`Values of ${name}`} message={error} />;
  if (n === 'one' || n === 'two') {
    const labels = n === 'one' ? ['Value'] : ['From', 'To'];
    const at = (i: number, v: string) => onChange(labels.map((_, j) => (j === i ? v : String(values[j] ?? ''))));
    return (
      <div class="explore-values">
        {labels.map((l, i) => (
          <div key={l}>
            <label for={`${id}-v${i}`}>{l}</label>
            <input
              id={`${id}-v${i}`}
              {...typeOf(kind)}
              value={String(values[i] ?? '')}
              {...describedBy}
              onInput={(e) => at(i, e.currentTarget.value)}
            />
          </div>
        ))}
        {errorLine}
      </div>
    );
  }
  const add = () => {
    const v = text.trim();
    if (v && !values.map(String).includes(v)) onChange([...values, v]);
    setText('');
  };
  return (
    <div class="explore-values">
      <label for={`${id}-value`}>Values</label>
      <Chips id={id} name={name} values={values} onChange={onChange} />
      <div class="inline-form">
        <input
          id={`${id}-value`}
          {...typeOf(kind === 'date' ? 'date' : 'text')}
          list={suggestions.length ? `${id}-suggest` : undefined}
          value={text}
          placeholder={values.length ? 'Another value' : 'Type or pick a value'}
          {...describedBy}
          onInput={(e) => setText(e.currentTarget.value)}
          onChange={add}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            e.preventDefault();
            add();
          }}
        />
        <button type="button" onClick={add} disabled={!text.trim()} aria-label={`Add value to ${name}`}>
          Add value
        </button>
      </div>
      {suggestions.length > 0 && (
        <datalist id={`${id}-suggest`}>
          {suggestions.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
      )}
      {errorLine}
    </div>
  );
}
