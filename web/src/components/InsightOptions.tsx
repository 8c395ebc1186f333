// The options of an insight select: none chosen yet, then the catalog by name.
import type { Insight } from '../types.ts';

export function InsightOptions({ catalog }: { catalog: Insight[] }) {
  return (
    <>
      <option value="">Choose an insight…</option>
      {catalog.map((i) => (
        <option key={i.code} value={i.code}>
          {i.name}
        </option>
      ))}
    </>
  );
}
