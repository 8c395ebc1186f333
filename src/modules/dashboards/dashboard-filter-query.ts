// The query of a whole-dashboard filter state (the web app's filter bar), as the dashboard's PDF and a
// widget's read-only data take it: a date range or dates, a comparison, and any filter dimension of
// the model, each repeatable for several values (any of them).
import { Type } from 'typebox';
import { CompareSchema, filterQueryParams, IsoDateSchema, RelativeRangeSchema } from '../../lib/chart.schemas.ts';

export function dashboardFilterQuery(
  filters: { name: string; label: string }[],
  extra: Record<string, ReturnType<typeof Type.Optional>> = {},
) {
  return Type.Object(
    {
      range: Type.Optional(RelativeRangeSchema),
      date_from: Type.Optional(IsoDateSchema),
      date_to: Type.Optional(IsoDateSchema),
      compare: Type.Optional(CompareSchema),
      ...filterQueryParams(filters),
      ...extra,
    },
    { additionalProperties: false },
  );
}
