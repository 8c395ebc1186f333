// One compiled function per distinct schema. Fastify compiles a serializer for every response
// status of every route and a validator for every part of every route's request, though most of
// those schemas are the same few (a problem document for each error status, the same id
// parameter, the same list query): ~200 compiled functions, each with its source text, bytecode
// and closures, kept for the life of the process. A schema written the same way compiles once
// (docs/footprint.md, "One compiled function per schema").
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type Serializer = (doc: unknown) => string;
type SerializerFactory = NonNullable<ReturnType<typeof SerializerSelector>>;

/**
 * A memo of compiled functions by their schema's JSON text (and a `scope`, e.g. which compiler):
 * `compile` runs for the first schema written that way only.
 */
export function onePerSchema<F>(): (schema: unknown, compile: () => F, scope?: string) => F {
  const compiled = new Map<string, F>();
  return (schema, compile, scope = '') => {
    const key = `${scope}\u0000${JSON.stringify(schema)}`;
    let fn = compiled.get(key);
    if (!fn) {
      fn = compile();
      compiled.set(key, fn);
    }
    return fn;
  };
}

/**
 * Fastify's own serializer factory (fast-json-stringify with the app's shared schemas), giving
 * the same function to every route and status whose response schema is written the same way.
 * Fastify calls the factory again for each route of a context that added shared schemas, so the
 * memo outlives a call and is keyed by the shared schemas too.
 */
export function sharedSerializers(): SerializerFactory {
  const build = SerializerSelector();
  const once = onePerSchema<Serializer>();
  return (externalSchemas, options) => {
    const compileRoute = build(externalSchemas, options);
    const scope = JSON.stringify([externalSchemas ?? null, options ?? null]);
    return (route) => once(route.schema, () => compileRoute(route), scope);
  };
}
