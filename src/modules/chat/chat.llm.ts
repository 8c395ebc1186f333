// The LLM's only job: turn a question into one run_insight call. This module writes the tool (its
// JSON Schema lists the catalog), the prompt, and checks the arguments before anything runs.
import type { ToolPrompt, ToolSpec } from '../../adapters/llm/types.ts';
import { COMPARES, MAX_FILTER_VALUES } from '../../lib/chart.schemas.ts';
import { isValidDate } from '../../semantic/periods.ts';
import type { InsightDefinition } from '../../semantic/types.ts';
import { ISO_COUNTRIES } from './language/vocabulary.ts';
import type { StructuredQuery } from './parser/index.ts';

export const TOOL_NAME = 'run_insight';

type Values = Readonly<Record<string, readonly string[]>>;

/**
 * One property per filter dimension of the model: an enum of its declared values, else of the
 * values in the tenant's data, unless the dimension has a pattern (an open set, such as ISO codes).
 */
function filterProperties(catalog: readonly InsightDefinition[], values: Values): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const d of catalog) {
    for (const f of d.filters) {
      if (props[f]) continue;
      const rule = d.filterRules[f];
      const known = rule.values ?? (!rule.pattern && values[f]?.length ? values[f] : undefined);
      const hint =
        f === 'country'
          ? 'ISO 3166-1 alpha-2 code in capitals, e.g. DE, US, GB'
          : `${rule.label}${rule.case === 'upper' ? ', in capitals' : ''}`;
      const one = { type: 'string', ...(known ? { enum: [...known] } : {}) };
      // One value, or several (any of them: "Spain vs Italy by week" is a series per country).
      props[f] = {
        anyOf: [one, { type: 'array', items: one, minItems: 1, maxItems: MAX_FILTER_VALUES }],
        description: `${hint}; a list for several`,
      };
    }
  }
  return props;
}

export function runInsightTool(catalog: readonly InsightDefinition[], values: Values): ToolSpec {
  return {
    name: TOOL_NAME,
    description:
      "Runs one insight of the catalog on the business's data and shows its rows and chart to the user. " +
      'Pick the insight that answers the question and only the parameters the question asks for.',
    parameters: {
      type: 'object',
      properties: {
        insight_code: {
          type: 'string',
          enum: catalog.map((d) => d.code),
          description: 'Which insight to run (see the catalog in the instructions)',
        },
        granularity: {
          type: 'string',
          enum: ['day', 'week', 'month', 'quarter', 'year'],
          description: 'Time bucket, for insights that take one',
        },
        filters: {
          type: 'object',
          properties: filterProperties(catalog, values),
          additionalProperties: false,
        },
        date_from: { type: 'string', description: 'First day, YYYY-MM-DD, inclusive' },
        date_to: { type: 'string', description: 'Last day, YYYY-MM-DD, inclusive' },
        limit: { type: 'integer', minimum: 1, description: 'Number of rows, for top lists and breakdowns' },
        compare: {
          type: 'string',
          enum: [...COMPARES],
          description:
            'Adds the previous figures and the change in % to each row: previous_period (the window just before, same ' +
            'length) or previous_year (same period a year before; "YoY", "vs last year")',
        },
      },
      required: ['insight_code'],
      additionalProperties: false,
    },
  };
}

export function toolPrompt(input: {
  question: string;
  today: string;
  catalog: readonly InsightDefinition[];
  filterValues: Values;
  previous?: StructuredQuery;
  history: { role: 'user' | 'assistant'; content: string }[];
  /** The query tool and its members' lines, offered beside run_insight (compose/llm-query.ts). */
  query?: { tool: ToolSpec; lines: string[] };
}): ToolPrompt {
  // The model's titles in other languages, so a German "Umsatz" finds revenue.
  const alsoCalled = (d: InsightDefinition) => {
    const titles = [
      ...new Set(Object.values(d.localizedTitles[d.plan.headline] ?? {}).filter((t): t is string => Boolean(t) && t !== d.name)),
    ];
    return titles.length ? ` Also called: ${titles.join(', ')}.` : '';
  };
  const lines = input.catalog.map(
    (d) =>
      `- ${d.code}: ${d.description}${alsoCalled(d)} Granularities: ${d.granularities.join(', ') || 'none'}. Filters: ` +
      `${d.filters.join(', ')}.${d.limit ? ` limit up to ${d.limit.max}.` : ''}`,
  );
  const system = [
    input.query
      ? "You translate questions about the business's data into exactly one tool call: run_insight when an insight of the " +
        'catalog means exactly the question, else query. You never answer with numbers yourself: the tools compute them.'
      : "You translate questions about the business's data into exactly one call of the run_insight tool. You never " +
        'answer with numbers yourself: the tool computes them.',
    "Questions may be in English, German, French or Spanish; the tool's codes and parameters are the same in every " +
      "language, and the reply is written in the question's language for you.",
    `Today is ${input.today} (UTC). Dates are YYYY-MM-DD, both ends inclusive. "Last N days" ends today; "last month" ` +
      `is the previous calendar month.`,
    'Catalog:',
    ...lines,
    ...filterLines(input.catalog, input.filterValues),
    ...(input.query?.lines ?? []),
    'Omit a parameter the question does not ask for; the tool has sensible defaults.',
    input.previous
      ? `The conversation's last query was ${canonicalJson(input.previous)}. A follow-up such as "and in France?" or ` +
        `"by month instead" changes only what it mentions.`
      : '',
  ].filter(Boolean);
  return {
    system: system.join('\n'),
    messages: [...input.history, { role: 'user', content: input.question }],
    tools: [runInsightTool(input.catalog, input.filterValues), ...(input.query ? [input.query.tool] : [])],
  };
}

/** "Plan: Starter, Team, …" for each filter whose values are known (declared or in the data). */
function filterLines(catalog: readonly InsightDefinition[], values: Values): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const d of catalog) {
    for (const f of d.filters) {
      if (seen.has(f)) continue;
      seen.add(f);
      const rule = d.filterRules[f];
      const known = rule.values ?? values[f] ?? [];
      if (f === 'country') out.push('Countries: ISO 3166-1 alpha-2 codes.');
      else if (known.length) out.push(`${rule.label} (filter ${f}): ${known.slice(0, 50).join(', ')}.`);
    }
  }
  return out;
}

/** The query with its keys in the tool's order (the database hands jsonb back reordered). */
function canonicalJson(q: StructuredQuery): string {
  const order = ['insight_code', 'granularity', 'filters', 'date_from', 'date_to', 'limit', 'compare'] as const;
  const out: Record<string, unknown> = {};
  for (const k of order) if (q[k] !== undefined) out[k] = q[k];
  return JSON.stringify(out);
}

export class InvalidToolCall extends Error {}

const fail = (message: string): never => {
  throw new InvalidToolCall(message);
};

/** The tool call's arguments as a query the engine accepts, or InvalidToolCall saying why not. */
export function validateToolArgs(args: unknown, catalog: readonly InsightDefinition[]): StructuredQuery {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return fail('the arguments are not an object');
  const a = args as Record<string, unknown>;
  const known = new Set(['insight_code', 'granularity', 'filters', 'date_from', 'date_to', 'limit', 'compare']);
  for (const k of Object.keys(a)) if (!known.has(k)) fail(`unknown argument ${k}`);
  const def = catalog.find((d) => d.code === a.insight_code) ?? fail(`unknown insight_code ${JSON.stringify(a.insight_code)}`);
  const present = (v: unknown) => v !== undefined && v !== null && v !== '';
  const q: StructuredQuery = { insight_code: def.code };

  if (present(a.granularity)) {
    if (!(def.granularities as readonly unknown[]).includes(a.granularity))
      fail(`${def.code} does not take granularity ${JSON.stringify(a.granularity)}`);
    q.granularity = a.granularity as StructuredQuery['granularity'];
  }
  if (present(a.filters)) {
    if (typeof a.filters !== 'object' || Array.isArray(a.filters)) fail('filters is not an object');
    const filters: NonNullable<StructuredQuery['filters']> = {};
    for (const [k, v] of Object.entries(a.filters as Record<string, unknown>)) {
      if (!present(v)) continue;
      if (!(def.filters as readonly string[]).includes(k)) fail(`${def.code} does not take the ${k} filter`);
      const given = Array.isArray(v) ? v : [v];
      if (given.length < 1 || given.length > MAX_FILTER_VALUES) fail(`filter ${k} takes 1 to ${MAX_FILTER_VALUES} values`);
      const out = given.map((x) => {
        if (typeof x !== 'string') fail(`filter ${k} is not a string`);
        const rule = def.filterRules[k];
        let s = (x as string).trim();
        if (rule.case === 'upper') s = s.toUpperCase();
        if (rule.case === 'lower') s = s.toLowerCase();
        if (k === 'country' && !ISO_COUNTRIES.has(s)) fail(`country ${JSON.stringify(x)} is not an ISO 3166-1 alpha-2 code`);
        if (rule.values && !rule.values.includes(s)) fail(`${k} ${JSON.stringify(x)} is not one of ${rule.values.join(', ')}`);
        if (rule.pattern && !rule.pattern.test(s)) fail(`${k} ${JSON.stringify(x)} does not match ${rule.pattern.source}`);
        if (s.length < 1 || s.length > 100) fail(`${k} must be 1 to 100 characters`);
        return s;
      });
      const distinct = [...new Set(out)];
      filters[k] = distinct.length === 1 ? distinct[0] : distinct;
    }
    if (Object.keys(filters).length) q.filters = filters;
  }
  for (const k of ['date_from', 'date_to'] as const) {
    if (!present(a[k])) continue;
    if (typeof a[k] !== 'string' || !isValidDate(a[k] as string)) fail(`${k} ${JSON.stringify(a[k])} is not a date YYYY-MM-DD`);
    q[k] = a[k] as string;
  }
  if (q.date_from && q.date_to && q.date_from > q.date_to) fail('date_from is after date_to');
  if (present(a.limit)) {
    if (!def.limit) fail(`${def.code} does not take a limit`);
    const n = Number(a.limit);
    if (!Number.isInteger(n) || n < 1 || n > def.limit!.max) fail(`limit must be an integer from 1 to ${def.limit!.max}`);
    q.limit = n;
  }
  if (present(a.compare)) {
    if (!(COMPARES as readonly unknown[]).includes(a.compare)) fail(`compare must be one of ${COMPARES.join(', ')}`);
    q.compare = a.compare as StructuredQuery['compare'];
  }
  return q;
}
