// The order of the rows (one member of the query, or the service's default) and how many to show.
import { Field } from './Field.tsx';
import { type ErrorAt, invalid } from './fields.ts';
import { labelOf, type Member, type Query } from './model.ts';

interface Props {
  query: Query;
  members: Map<string, Member>;
  onChange: (patch: Pick<Query, 'order' | 'limit'>) => void;
  errorAt: ErrorAt;
}

export function OrderLimit({ query, members, onChange, errorAt }: Props) {
  const names = [...query.measures, ...(query.dimensions ?? []), ...(query.time?.granularity ? [query.time.dimension] : [])];
  const order = query.order?.[0];
  const orderError = errorAt('order');
  const limitError = errorAt('limit');
  const setOrder = (member: string, direction: 'asc' | 'desc') =>
    onChange({ order: member ? [{ member, direction }] : undefined, limit: query.limit });
  return (
    <fieldset class="explore-order">
      <legend>Order and rows</legend>
      <div class="row wrap">
        <Field id="ex-order" label="Order by" error={orderError}>
          <select
            id="ex-order"
            value={order?.member ?? ''}
            {...invalid('ex-order', orderError)}
            onChange={(e) => setOrder(e.currentTarget.value, order?.direction ?? 'desc')}
          >
            <option value="">Default</option>
            {order && !names.includes(order.member) && <option value={order.member}>{order.member} (not in the query)</option>}
            {names.map((n) => (
              <option key={n} value={n}>
                {labelOf(members, n)}
              </option>
            ))}
          </select>
        </Field>
        <Field id="ex-dir" label="Direction">
          <select
            id="ex-dir"
            disabled={!order}
            value={order?.direction ?? 'desc'}
            onChange={(e) => order && setOrder(order.member, e.currentTarget.value as 'asc' | 'desc')}
          >
            <option value="desc">Descending</option>
            <option value="asc">Ascending</option>
          </select>
        </Field>
        <Field id="ex-limit" label="Rows (limit)" error={limitError}>
          <input
            id="ex-limit"
            type="number"
            min={1}
            max={10000}
            placeholder="1000"
            value={query.limit ?? ''}
            {...invalid('ex-limit', limitError)}
            onInput={(e) => onChange({ order: query.order, limit: e.currentTarget.value ? Number(e.currentTarget.value) : undefined })}
          />
        </Field>
      </div>
    </fieldset>
  );
}
