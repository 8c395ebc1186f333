// The insight catalog changes only with the deployed model: read once per page load.
import { api, bodyOf } from './api.ts';
import type { FilterOptions, Insight } from './types.ts';

let catalog: Promise<Insight[]> | undefined;

export function loadCatalog(): Promise<Insight[]> {
  catalog ??= bodyOf(api.GET('/api/v1/insights')).catch((err) => {
    catalog = undefined;
    throw err;
  });
  return catalog;
}

let filterOptions: Promise<FilterOptions[]> | undefined;

/** The values of each filter dimension in the tenant's data (what pickers offer), once per page load. */
export function loadFilterOptions(): Promise<FilterOptions[]> {
  filterOptions ??= bodyOf(api.GET('/api/v1/insights/filters')).catch((err) => {
    filterOptions = undefined;
    throw err;
  });
  return filterOptions;
}

/** The filters a catalog insight takes, among those the app offers fields for. */
export const FILTER_FIELDS = [
  ['country', 'Country'],
  ['channel', 'Sales channel'],
  ['category', 'Product category'],
] as const;
