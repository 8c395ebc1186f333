// The rule for stored rows (a snapshot widget's) under the model's row-level access (docs/security.md
// "Stored rows"): the rows were fixed for whoever saved them, so each viewer sees only those of
// their own values of every attribute the rows' source is guarded by. Where the rows do not carry
// the guarded dimension's column they cannot be limited, and are refused; a viewer without the
// attribute is refused as a live query refuses them ("no attribute, no rows", docs/model.md).
import { forbidden } from '../../lib/errors.ts';
import type { SemanticModel } from '../../semantic/model.ts';
import { accessFiltersOf, accessMissing } from '../../semantic/query/compile.ts';
import type { AccessFilter } from '../../semantic/types.ts';
import type { Cell, Scope } from '../insights/insights.service.ts';

type Row = Record<string, Cell>;

/** The parts of a widget the rule reads. */
export interface StoredWidget {
  data_source: string;
  insight_code?: string | null;
  snapshot_data?: Row[] | null;
}

export class StoredRowsAccess {
  /** Every access filter of the model: what guards rows whose insight is not known. */
  private readonly all: AccessFilter[];

  constructor(private readonly model?: Pick<SemanticModel, 'cubes' | 'insights'>) {
    const all = new Set<AccessFilter>();
    for (const cube of model?.cubes.values() ?? []) {
      for (const a of cube.source.access ?? []) all.add(a);
      for (const p of cube.source.derived ?? []) if (typeof p !== 'string') for (const a of p.access ?? []) all.add(a);
    }
    this.all = [...all];
  }

  /** The stored rows `scope` may see; throws (403) naming why when they cannot be limited to it. */
  rowsFor(scope: Scope, widget: StoredWidget): Row[] {
    const rows = widget.snapshot_data ?? [];
    const guards = this.guardsOf(widget.insight_code);
    if (!guards.length || !rows.length) return rows;
    const attributes = typeof scope === 'string' ? undefined : scope.attributes;
    let seen = rows;
    for (const a of guards) {
      const values = attributes?.[a.attribute];
      if (!values?.length) throw accessMissing(a);
      const dimension = a.ref.slice(a.ref.indexOf('.') + 1);
      const column = [a.ref, dimension].find((c) => c in rows[0]);
      if (column === undefined) {
        throw forbidden(
          `This snapshot's rows carry no "${dimension}" column, so they cannot be limited to your values of the ` +
            `"${a.attribute}" attribute (the model's access filter on ${a.ref}); a live widget of the insight can ` +
            `be.`,
        );
      }
      seen = seen.filter((r) => r[column] !== null && r[column] !== undefined && values.includes(String(r[column])));
    }
    return seen;
  }

  /** A widget's snapshot_data as `scope` may see it: null when the rows are withheld (rowsFor says why). */
  snapshotFor(scope: Scope, widget: StoredWidget): Row[] | null {
    if (widget.data_source !== 'snapshot' || !widget.snapshot_data) return widget.snapshot_data ?? null;
    try {
      return this.rowsFor(scope, widget);
    } catch (err) {
      if ((err as { status?: number }).status === 403) return null;
      throw err;
    }
  }

  // An insight the model knows is guarded by what its plan reads; rows of any other source by
  // every access filter of the model.
  private guardsOf(insightCode: string | null | undefined): AccessFilter[] {
    const def = insightCode ? this.model?.insights.find((d) => d.code === insightCode) : undefined;
    if (!def) return this.all;
    const seen = new Set<string>();
    return accessFiltersOf(def.plan).filter((a) => !seen.has(`${a.attribute}\u0000${a.ref}`) && seen.add(`${a.attribute}\u0000${a.ref}`));
  }
}
