// Which filters of a dashboard's filter bar a query widget takes (docs/query.md "Widgets that hold a
// query"): a filter stands for a dimension (GET /insights/filters gives its `member`), and applies
// when every measure of the query reaches that dimension's cube. The model is read once, and only
// when the dashboard has a query widget.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, bodyOf } from '../../api.ts';
import type { FilterOptions } from '../../types.ts';
import { isReachable, type Model, type Query, reachableCubes } from './model.ts';

export type QueryTakes = (q: Query | null | undefined) => string[];

export function useQueryTakes(needed: boolean, options: FilterOptions[]): QueryTakes {
  const [model, setModel] = useState<Model>();
  useEffect(() => {
    if (!needed || model) return;
    bodyOf(api.GET('/api/v1/model'))
      .then((r) => setModel(r.data))
      .catch(() => undefined); // Then no filter is said to apply; the widgets still follow the bar.
  }, [needed]);
  return useMemo(
    () => (q) => {
      if (!q || !model) return [];
      const cubes = reachableCubes(model, q.measures);
      return options.filter((o) => o.member && isReachable(cubes, o.member)).map((o) => o.name);
    },
    [model, options],
  );
}
