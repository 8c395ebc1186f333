// The Explore page's question: measures by cube, the dimensions and segments the measures reach,
// the time window, filters, order and limit. Run puts the query in the URL, which runs it.
import type { ErrorAt } from './fields.ts';
import { memberError } from './fields.ts';
import { FiltersEditor } from './FiltersEditor.tsx';
import { type CheckGroup, MemberChecks } from './MemberChecks.tsx';
import { isReachable, type Model, type Member, type Query } from './model.ts';
import { OrderLimit } from './OrderLimit.tsx';
import { TimeFields } from './TimeFields.tsx';

interface Props {
  model: Model;
  members: Map<string, Member>;
  cubes: Set<string>;
  draft: Query;
  onChange: (q: Query) => void;
  /** The query that ran last (its problems name its fields by index). */
  ran: Query | undefined;
  errorAt: ErrorAt;
  busy: boolean;
  onRun: () => void;
}

/** The groups of a kind of member by cube: those of reachable cubes, and chosen ones that are not (flagged). */
function groupsOf(
  model: Model,
  cubes: Set<string>,
  chosen: string[],
  pick: (c: Model['cubes'][number]) => { name: string; title: string }[],
) {
  return model.cubes.map(
    (c): CheckGroup => ({
      cube: c.name,
      title: c.title,
      items: pick(c)
        .filter((m) => isReachable(cubes, m.name) || chosen.includes(m.name))
        .map((m) => ({ ...m, note: isReachable(cubes, m.name) ? undefined : 'not reachable from the measures' })),
    }),
  );
}

export function QueryForm({ model, members, cubes, draft, onChange, ran, errorAt, busy, onRun }: Props) {
  const dims = draft.dimensions ?? [];
  const segments = draft.segments ?? [];
  const measureGroups = model.cubes.map((c): CheckGroup => ({ cube: c.name, title: c.title, items: c.measures }));
  const dimGroups = groupsOf(model, cubes, dims, (c) => c.dimensions.filter((d) => d.type !== 'time'));
  const segGroups = groupsOf(model, cubes, segments, (c) => c.segments);
  const pickMeasure = (name: string) => memberError(errorAt, ran, 'measures', name);
  return (
    <form
      class="explore-form"
      aria-label="Question"
      onSubmit={(e) => {
        e.preventDefault();
        onRun();
      }}
    >
      <MemberChecks
        legend="Measures"
        idPrefix="ex-m"
        groups={measureGroups}
        chosen={draft.measures}
        onChange={(measures) => onChange({ ...draft, measures })}
        errorOf={pickMeasure}
      />
      <MemberChecks
        legend="Group by"
        idPrefix="ex-d"
        hint="The dimensions every chosen measure reaches through the model's joins."
        groups={dimGroups}
        chosen={dims}
        onChange={(dimensions) => onChange({ ...draft, dimensions })}
        errorOf={(n) => memberError(errorAt, ran, 'dimensions', n)}
        empty={<p class="muted small">Pick a measure first.</p>}
      />
      <TimeFields
        members={members}
        cubes={cubes}
        time={draft.time}
        compare={draft.compare}
        errorAt={errorAt}
        onChange={(time, compare) => onChange({ ...draft, time, compare })}
      />
      <FiltersEditor
        filters={draft.filters ?? []}
        members={members}
        cubes={cubes}
        errorAt={errorAt}
        onChange={(filters) => onChange({ ...draft, filters })}
      />
      {model.cubes.some((c) => c.segments.length > 0) && (
        <MemberChecks
          legend="Segments"
          idPrefix="ex-s"
          groups={segGroups}
          chosen={segments}
          onChange={(next) => onChange({ ...draft, segments: next })}
          errorOf={(n) => memberError(errorAt, ran, 'segments', n)}
          empty={<p class="muted small">No segment of the cubes the measures reach.</p>}
        />
      )}
      <OrderLimit query={draft} members={members} errorAt={errorAt} onChange={(patch) => onChange({ ...draft, ...patch })} />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy || !draft.measures.length}>
          Run
        </button>
      </div>
    </form>
  );
}
