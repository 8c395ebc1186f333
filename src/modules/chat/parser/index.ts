export {
  parseQuestion,
  fitToInsight,
  normalize,
  type ParseContext,
  type ParseOutcome,
  type ParserInsight,
  type StructuredQuery,
  type Granularity,
} from './parse.ts';
export { findTimeRange } from './dates.ts';
export type { FilterWords, InsightWords } from './model-words.ts';
