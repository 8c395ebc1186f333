// The insight catalog changes only with the deployed model: read once per page load.
import { get } from './api.ts';
import type { Insight } from './types.ts';

let catalog: Promise<Insight[]> | undefined;

export function loadCatalog(): Promise<Insight[]> {
  catalog ??= get<Insight[]>('/insights').catch((err) => {
    catalog = undefined;
    throw err;
  });
  return catalog;
}

/** The filters a catalog insight takes, among those the app offers fields for. */
export const FILTER_FIELDS = [
  ['country', 'Country (ISO code, e.g. DE)'],
  ['channel', 'Sales channel'],
  ['category', 'Product category'],
] as const;
