// The query of a whole-dashboard filter state (the web app's filter bar), as the dashboard's PDF and a
// widget's read-only data take it: a date range or dates, a comparison, and any filter dimension of
// the model, each repeatable for several values (any of them).
import { Type } from 'typebox';
import { CompareSchema, IsoDateSchema, MAX_FILTER_VALUES, RelativeRangeSchema } from '../../lib/chart.schemas.ts';

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
      ...Object.fromEntries(
        filters.map((f) => [
          f.name,
          Type.Optional(
            Type.Array(Type.String({ maxLength: 200 }), {
              maxItems: MAX_FILTER_VALUES,
              description: `Filter: ${f.label}; repeat it for several values`,
            }),
          ),
        ]),
      ),
      ...extra,
    },
    { additionalProperties: false },
  );
}
