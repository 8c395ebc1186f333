import { type Static, Type } from 'typebox';
import { LANGUAGES } from './language/languages.ts';
import { SemanticQuerySchema } from '../../semantic/query/query.schema.ts';
import { ChartHintSchema, CompareSchema, DataRowSchema, GranularitySchema, IsoDateSchema } from '../../lib/chart.schemas.ts';

export const ChatBody = Type.Object(
  {
    message: Type.String({ minLength: 1, maxLength: 2000, description: 'The question, in English, German, French or Spanish' }),
    history_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        pattern: '^[\\x20-\\x7e]{1,128}$',
        description:
          "Continue this conversation, or start one under this id (the caller's own: 1–128 printable ASCII " +
          'characters); omit to have one made',
      }),
    ),
  },
  { additionalProperties: false },
);

export const StructuredQuerySchema = Type.Object(
  {
    insight_code: Type.String(),
    granularity: Type.Optional(GranularitySchema),
    filters: Type.Optional(
      // Named by the model's filter dimensions (the demo's: country, channel, category).
      Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]), {
        description:
          'Filter values by the filter dimension\'s name, e.g. {"country": "DE"}; a list means any of them ({"country": ["ES", "IT"]})',
      }),
    ),
    date_from: Type.Optional(IsoDateSchema),
    date_to: Type.Optional(IsoDateSchema),
    limit: Type.Optional(Type.Integer()),
    compare: Type.Optional(CompareSchema),
  },
  { title: 'StructuredQuery', description: 'The structured query that ran, with the window and granularity the engine resolved' },
);
/** What the parser (or an AI connector) makes of a question: an insight and its parameters. */
export type StructuredQuery = Static<typeof StructuredQuerySchema>;

export const ChatAnswerSchema = Type.Object({
  reply_text: Type.String(),
  chart_hint: ChartHintSchema,
  rows: Type.Array(DataRowSchema),
  columns: Type.Array(
    Type.Object({
      name: Type.String(),
      type: Type.String({ description: 'As in the execute response: date, string, integer, money, percent, number, boolean' }),
      label: Type.String({ description: "The column's title in the answer's language (the model's title in it, when it gives one)" }),
      currency: Type.Optional(Type.String()),
      decimals: Type.Optional(Type.Integer()),
    }),
    { description: "The rows' columns, as execute returns them, titled in `language`; empty when nothing ran" },
  ),
  history_id: Type.String(),
  insight_code: Type.Union([Type.String(), Type.Null()], { description: 'null when the question matched nothing' }),
  query: Type.Union([StructuredQuerySchema, SemanticQuerySchema, Type.Null()], {
    description:
      "The query that ran: the insight's (with insight_code) when an insight means exactly the question, else the " +
      'semantic query composed from the model (POST /api/v1/query takes it as is); null when nothing ran',
  }),
  answered_by: Type.String({ description: '"parser" (built-in) or the provider of the active AI connector that chose the query' }),
  language: Type.Enum([...LANGUAGES], {
    description: 'The language the question was read in and reply_text is written in (ISO 639-1)',
  }),
  alternatives: Type.Array(StructuredQuerySchema, {
    maxItems: 3,
    description:
      'Other queries that answer the question as well (the reply says which one was chosen), or, when it cannot be ' +
      'answered, the closest that can be asked',
  }),
});
/** What chat answers a question with (the data of ChatResult). */
export type ChatAnswer = Static<typeof ChatAnswerSchema>;

export const ChatResponse = Type.Object(
  {
    success: Type.Boolean(),
    data: ChatAnswerSchema,
  },
  { title: 'ChatResult' },
);
