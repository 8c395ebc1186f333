// TypeBox pieces shared by many routes. Route schemas validate requests, serialize responses and
// generate the OpenAPI document, so every route declares them.
import { type Static, Type, type TSchema } from 'typebox';
import { ID_PATTERN } from './ids.ts';

/** One field a 4xx names: its JSON Pointer-like path ("/body/name", "/query/limit") and what is wrong. */
export const FieldErrorSchema = Type.Object({ path: Type.String(), message: Type.String() });
export type FieldError = Static<typeof FieldErrorSchema>;

export const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String(),
    errors: Type.Optional(Type.Array(FieldErrorSchema)),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details' },
);

const ref = Type.Ref('Problem');

/**
 * The success responses of an authenticated route and its error responses: 400, 401 and 429 can
 * come from any of them; a route names the others it can give (403 when a role or ownership rule
 * refuses, 409, 502, 503…). 404 for an id in the path and 413/415 for a body are added to the
 * OpenAPI document by src/plugins/openapi.ts, from the route's shape.
 */
export function withErrors<T extends Record<number, TSchema>>(ok: T, ...statuses: number[]) {
  const out: Record<number, TSchema> = { ...ok };
  for (const s of [400, 401, 429, ...statuses]) out[s] = ref;
  return out as T & Record<number, TSchema>;
}

/**
 * The statuses of a route that reads the warehouse, beyond withErrors' own: 403 (the caller may
 * not see it), 409 (its data is not loaded, or the tables do not fit the model) and 503 (the
 * warehouse is not answering). `withErrors(ok, ...READS_WAREHOUSE)`.
 */
export const READS_WAREHOUSE = [403, 409, 503] as const;

/**
 * A resource id in a path. One that does not match answers 404 (it names nothing of ours), decided
 * by the error handler from the `pattern` keyword; see docs/decisions.md "Ids at the edge".
 */
export const ResourceId = Type.String({ pattern: ID_PATTERN, description: 'A UUIDv7' });

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC, milliseconds, Z' });
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
};

export const NoContent = Type.Null({ description: 'No content' });

/**
 * The body of an action that takes no parameters (send-now, channel test): none at all, or an
 * empty JSON object; an unknown field is a 400 naming it. Routes using it also set
 * 'x-body-optional': true so the OpenAPI document does not call the body required.
 */
export const EmptyBody = Type.Union([Type.Object({}, { additionalProperties: false }), Type.Null()], {
  description: 'No body, or an empty object',
});
