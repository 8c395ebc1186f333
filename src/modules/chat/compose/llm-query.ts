// The LLM path's `query` tool, offered beside run_insight (docs/chat.md "Who chooses the query"):
// the semantic query's JSON with the model's members as enums, the members listed in the prompt,
// and the arguments checked by the same planner as POST /api/v1/query before anything runs.
import type { ToolSpec } from '../../../adapters/llm/types.ts';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { FILTER_OPERATORS, QUERY_COMPARES, SemanticQuerySchema, type SemanticQuery } from '../../../semantic/query/query.schema.ts';
import type { Lexicon } from './lexicon.ts';

export const QUERY_TOOL = 'query';

export function queryTool(lex: Lexicon): ToolSpec {
  const measures = lex.measures.map((m) => m.ref);
  const dims = lex.dimensions.filter((d) => d.type !== 'time').map((d) => d.ref);
  const times = lex.dimensions.filter((d) => d.type === 'time').map((d) => d.ref);
  const member = { type: 'string', enum: [...measures, ...dims, ...times] };
  return {
    name: QUERY_TOOL,
    description:
      "Runs one query over the business's data model when no insight of the catalog means exactly the question: any measures, " +
      'grouped by dimensions reachable from them, filtered by dimension values or by a measure (after aggregation), over a window.',
    parameters: {
      type: 'object',
      properties: {
        measures: { type: 'array', items: { type: 'string', enum: measures }, minItems: 1, maxItems: 5 },
        dimensions: { type: 'array', items: { type: 'string', enum: dims }, maxItems: 3 },
        time: {
          type: 'object',
          properties: {
            dimension: { type: 'string', enum: times },
            granularity: { type: 'string', enum: ['day', 'week', 'month', 'quarter', 'year'] },
            date_from: { type: 'string', description: 'First day, YYYY-MM-DD, inclusive' },
            date_to: { type: 'string', description: 'Last day, YYYY-MM-DD, inclusive' },
          },
          required: ['dimension'],
        },
        filters: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              member,
              operator: { type: 'string', enum: [...FILTER_OPERATORS] },
              values: { type: 'array', items: { type: 'string' }, description: 'Numbers as text for measures ("1000")' },
            },
            required: ['member', 'operator'],
          },
        },
        order: {
          type: 'array',
          items: {
            type: 'object',
            properties: { member, direction: { type: 'string', enum: ['asc', 'desc'] } },
            required: ['member'],
          },
        },
        limit: { type: 'integer', minimum: 1, maximum: 1000 },
        compare: { type: 'string', enum: [...QUERY_COMPARES] },
      },
      required: ['measures'],
    },
  };
}

/** The members the query tool may name, for the prompt: "orders.revenue: Revenue (measure; time orders.ordered_at)". */
export function queryLines(lex: Lexicon): string[] {
  return [
    'Members for the query tool (cube.member):',
    ...lex.measures.map((m) => `- ${m.ref}: ${m.title} (measure${lex.timeOf.get(m.ref) ? `; dated by ${lex.timeOf.get(m.ref)}` : ''})`),
    ...lex.dimensions.map((d) => `- ${d.ref}: ${d.title} (${d.type === 'time' ? 'time dimension' : 'dimension'})`),
  ];
}

// Checked with Ajv, as POST /api/v1/query checks the same schema: TypeBox's own checker
// (typebox/value) would load ~8 MB of modules for this one call (docs/footprint.md).
let isSemanticQuery: ValidateFunction | undefined;
function semanticQueryChecker(): ValidateFunction {
  if (!isSemanticQuery) {
    const ajv = new Ajv({ strict: false });
    addFormats.default(ajv);
    isSemanticQuery = ajv.compile(SemanticQuerySchema);
  }
  return isSemanticQuery;
}

/**
 * The query tool's arguments as a semantic query, numbers of measure filters made numbers; the
 * planner (`plan`, the query service's) checks the rest and throws on anything it would not run.
 */
export function queryFromToolArgs(args: unknown, lex: Lexicon, plan: (q: SemanticQuery) => unknown): SemanticQuery {
  if (!args || typeof args !== 'object' || Array.isArray(args)) throw new Error('the arguments are not an object');
  const q = structuredClone(args) as SemanticQuery;
  const measures = new Set(lex.measures.map((m) => m.ref));
  for (const f of q.filters ?? []) {
    if (measures.has(f.member) || ['gt', 'gte', 'lt', 'lte', 'between'].includes(f.operator))
      f.values = f.values?.map((v) => (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : v));
  }
  if (!semanticQueryChecker()(q)) throw new Error('the arguments are not a semantic query (docs/query.md)');
  plan(q);
  return q;
}
