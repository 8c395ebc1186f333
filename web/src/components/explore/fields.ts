// Where the service's problems go on the Explore form: a 400 names its field (/body/measures/0,
// /body/filters/1/values/0, docs/query.md "Errors"), and the form shows the words next to it.
import { fieldMessage } from '../Problem.tsx';
import type { Query } from './model.ts';

export type ErrorAt = (...paths: string[]) => string | undefined;

/** What the service said of a path of the query that ran (undefined: nothing). */
export const errorsOf =
  (error: unknown): ErrorAt =>
  (...paths) =>
    fieldMessage(error, ...paths.map((p) => `/body/${p}`));

/** What the service said of a chosen member of a list (measures, dimensions, segments) of the query that ran. */
export function memberError(at: ErrorAt, ran: Query | undefined, key: 'measures' | 'dimensions' | 'segments', name: string) {
  const i = ran?.[key]?.indexOf(name) ?? -1;
  return i < 0 ? undefined : at(`${key}/${i}`);
}

/** The attributes a control needs to point at its problem (shown by FieldError with id `${id}-error`). */
export const invalid = (id: string, message: string | undefined) =>
  message ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};
