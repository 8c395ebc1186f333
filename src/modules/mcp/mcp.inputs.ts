// The tools' input schemas, generated from the model and the caller's data, and the check of a
// call's arguments against exactly the schema the caller was shown. A bad argument is reported by
// its name (`filters.country`, `query.date_from`), never as a transport error.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { Type } from 'typebox';
import { PageQuery, ResourceId } from '../../lib/schemas.ts';
import type { CubeInfo } from '../../semantic/cubes.ts';
import { FILTER_OPERATORS, SemanticQuerySchema } from '../../semantic/query/query.schema.ts';
import type { InsightDefinition } from '../../semantic/types.ts';
import { runInsightTool } from '../chat/chat.llm.ts';
import { ChatBody } from '../chat/chat.schemas.ts';
import { DISPLAY_SIZES, WIDGET_TYPES } from '../dashboards/widgets.schemas.ts';

export type JsonSchema = { type: 'object'; properties?: Record<string, unknown>; required?: string[]; [k: string]: unknown };

/** A filter whose values in the data are at most this many is offered as an enum. */
export const SMALL_VALUE_LIST = 50;

/**
 * run_insight's arguments: the same schema the chat gives a language model for its run_insight
 * call (insight codes, granularities and comparisons as enums; each filter dimension with its
 * declared values, else its values in the caller's data when few, else open).
 */
export function runInsightInput(catalog: readonly InsightDefinition[], values: Record<string, string[]>): JsonSchema {
  const small = Object.fromEntries(Object.entries(values).filter(([, v]) => v.length > 0 && v.length <= SMALL_VALUE_LIST));
  return runInsightTool(catalog, small).parameters as JsonSchema;
}

/**
 * The query tool's arguments: POST /api/v1/query's body (the same JSON, the same rules), with the
 * model's members as enums where a member is named, so an agent picks among what exists.
 */
export function queryInput(cubes: Map<string, CubeInfo>): JsonSchema {
  const all = [...cubes.values()];
  const measures = all.flatMap((c) => [...c.measures.keys()].map((m) => `${c.name}.${m}`));
  const dims = all.flatMap((c) =>
    [...c.dimensions.values()].map((d) => ({ name: `${c.name}.${d.def.name}`, time: d.def.type === 'time' })),
  );
  const segments = all.flatMap((c) => [...c.segments.keys()].map((s) => `${c.name}.${s}`));
  // A JSON Schema object, edited where it names members (its shape is SemanticQuerySchema's).
  type Node = { properties: Record<string, Node>; items: Node } & Record<string, unknown>;
  const schema = structuredClone(SemanticQuerySchema) as unknown as Node;
  const p = schema.properties;
  const names = (list: string[], description: string) => ({ type: 'string', enum: list, description }) as unknown as Node;
  p.measures.items = names(measures, 'cube.measure (describe_model lists them with their titles)');
  p.dimensions.items = names(
    dims.filter((d) => !d.time).map((d) => d.name),
    'cube.dimension, reachable from every measure through joins',
  );
  p.time.properties.dimension = names(
    dims.filter((d) => d.time).map((d) => d.name),
    'A time dimension',
  );
  p.filters.items.properties.member = names(
    [...dims.map((d) => d.name), ...measures],
    'A dimension (rows) or a measure (after aggregation)',
  );
  p.filters.items.properties.operator = { type: 'string', enum: [...FILTER_OPERATORS] } as unknown as Node;
  if (segments.length) p.segments.items = names(segments, 'cube.segment');
  else delete p.segments;
  p.order.items.properties.member = names([...measures, ...dims.map((d) => d.name)], 'A measure or dimension of this query');
  return schema as unknown as JsonSchema;
}

export const askInput = ChatBody as unknown as JsonSchema;

export const emptyInput: JsonSchema = { type: 'object', properties: {}, additionalProperties: false };

export const listDashboardsInput = Type.Object(PageQuery, { additionalProperties: false }) as unknown as JsonSchema;

export const getDashboardInput = Type.Object(
  { dashboard_id: Type.String({ ...ResourceId, description: 'The id of a dashboard from list_dashboards' }) },
  { additionalProperties: false },
) as unknown as JsonSchema;

export function addWidgetInput(query: JsonSchema): JsonSchema {
  return Type.Object(
    {
      dashboard_id: Type.String({ ...ResourceId, description: 'The dashboard to add to (list_dashboards)' }),
      query: Type.Unsafe({
        ...query,
        description: 'What to run, as for run_insight (the query an ask answer reports fits too); its rows are stored in the widget',
      }),
      title: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "Default: the chart's title" })),
      widget_type: Type.Optional(
        Type.Enum([...WIDGET_TYPES], { description: 'Default: kpi or table when the chart hint says so, else chart' }),
      ),
      display_size: Type.Optional(Type.Enum([...DISPLAY_SIZES], { description: 'Default: medium' })),
      question: Type.Optional(
        Type.String({ maxLength: 5000, description: 'The question the widget answers, kept with it (snapshot_question)' }),
      ),
    },
    { additionalProperties: false },
  ) as unknown as JsonSchema;
}

/**
 * Filter values put in the case their dimension compares in ("de" → "DE", "Web" → "web"), as the
 * engine would, before they are checked against enums of upper- or lower-case values.
 */
export function normalizeFilters(args: unknown, catalog: readonly InsightDefinition[]): void {
  const filters = (args as { filters?: unknown } | undefined)?.filters;
  if (!filters || typeof filters !== 'object' || Array.isArray(filters)) return;
  const f = filters as Record<string, unknown>;
  for (const [name, v] of Object.entries(f)) {
    const rule = catalog.find((d) => d.filterRules[name])?.filterRules[name];
    if (!rule?.case) continue;
    const fix = (x: unknown) => (typeof x === 'string' ? (rule.case === 'upper' ? x.trim().toUpperCase() : x.trim().toLowerCase()) : x);
    f[name] = Array.isArray(v) ? v.map(fix) : fix(v);
  }
}

export interface ArgumentError {
  argument: string;
  message: string;
}

/** Arguments a schema or a rule of a service refused, each named as the tool names it. */
export class ArgumentProblem extends Error {
  constructor(readonly problems: ArgumentError[]) {
    super(problems.map((p) => `${p.argument}: ${p.message}`).join('; '));
  }
}

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
const compiled = new Map<string, ValidateFunction>();

function validatorOf(schema: JsonSchema): ValidateFunction {
  const key = JSON.stringify(schema);
  let v = compiled.get(key);
  if (!v) {
    // Schemas differ per tenant only by the values in their data: a few hundred at most.
    if (compiled.size >= 500) compiled.clear();
    v = ajv.compile(schema);
    compiled.set(key, v);
  }
  return v;
}

/** `/filters/country/0` → `filters.country[0]` */
export function argumentName(pointer: string): string {
  return pointer
    .split('/')
    .filter(Boolean)
    .map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`))
    .join('');
}

/** The arguments' problems against the schema, one per argument, each naming it. */
export function checkArguments(schema: JsonSchema, args: unknown): ArgumentError[] {
  const validate = validatorOf(schema);
  if (validate(args)) return [];
  const byPath = new Map<string, ErrorObject[]>();
  for (const e of validate.errors ?? []) {
    let path = e.instancePath;
    if (e.keyword === 'additionalProperties') path += `/${String(e.params.additionalProperty)}`;
    if (e.keyword === 'required') path += `/${String(e.params.missingProperty)}`;
    byPath.set(path, [...(byPath.get(path) ?? []), e]);
  }
  const out: ArgumentError[] = [];
  for (const [path, errors] of byPath) {
    // A value failing "one value or a list" fails each branch; say what the branches allow.
    if (path !== '' && [...byPath.keys()].some((p) => p !== path && p.startsWith(`${path}/`))) continue;
    const enumError = errors.find((e) => e.keyword === 'enum');
    const first = errors[0];
    const message =
      first.keyword === 'additionalProperties'
        ? 'is not an argument of this tool'
        : first.keyword === 'required'
          ? 'is required'
          : enumError
            ? `must be one of: ${(enumError.params.allowedValues as unknown[]).join(', ')}`
            : errors.some((e) => e.keyword === 'anyOf')
              ? 'must be a value or a list of values'
              : (first.message ?? 'is invalid');
    out.push({ argument: argumentName(path) || '(arguments)', message });
  }
  return out;
}
