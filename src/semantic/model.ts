// The semantic model: read from INSIGHTS_MODEL (a file or a directory) or the built-in demo,
// validated whole, resolved into the insight catalog. An invalid model is a ModelError listing
// every problem; it never becomes a half-working catalog.
import { indexCubes, type CubeInfo } from './cubes.ts';
import { DEMO_MODEL_PATH, ModelError, parseModelText, readModelSources, type ModelIssue, type ModelSource } from './load.ts';
import { resolveInsights } from './resolve.ts';
import { resolveRollups } from './rollups.ts';
import type { InsightDefinition, RollupDefinition } from './types.ts';

export { ModelError, formatIssue, DEMO_MODEL_PATH, type ModelIssue } from './load.ts';

export interface SemanticModel {
  /** Where it was read from (a file or a directory). */
  location: string;
  cubes: Map<string, CubeInfo>;
  insights: InsightDefinition[];
  /** The cubes' pre_aggregations (docs/rollups.md). */
  rollups: RollupDefinition[];
}

function build(location: string, sources: ModelSource[], shapeIssues: ModelIssue[]): { model?: SemanticModel; issues: ModelIssue[] } {
  const cross: ModelIssue[] = [];
  const cubes = indexCubes(sources, cross);
  const insights = resolveInsights(sources, cubes, cross);
  const rollups = resolveRollups(cubes, cross);
  // A cube left out for its shape is already reported; references to it would only repeat that.
  const broken = new Set<string>();
  for (const s of sources) for (const i of s.skip?.cubes ?? []) if (typeof s.data.cubes?.[i]?.name === 'string') broken.add(s.data.cubes[i].name);
  const issues = [...shapeIssues, ...cross.filter((i) => ![...broken].some((b) => i.message.startsWith(`"${b}" is not a cube`) || i.message.startsWith(`{${b}`)))];
  if (issues.some((i) => i.severity === 'error')) return { issues };
  return { model: { location, cubes, insights, rollups }, issues };
}

/** Every problem of the model at `target`, and the model when there is none. */
export function checkModel(target: string = DEMO_MODEL_PATH): { model?: SemanticModel; issues: ModelIssue[] } {
  try {
    const { sources, issues } = readModelSources(target);
    return build(target, sources, issues);
  } catch (err) {
    if (err instanceof ModelError) return { issues: err.issues };
    throw err;
  }
}

/** The model at `target` (the demo shop when undefined); throws ModelError when invalid. */
export function loadModel(target?: string): SemanticModel {
  const { model, issues } = checkModel(target ?? DEMO_MODEL_PATH);
  if (!model) throw new ModelError(issues);
  return model;
}

/** A model from YAML text (tests, and models assembled in code). */
export function modelFromText(text: string, file = 'model.yml'): SemanticModel {
  const { source, issues } = parseModelText(file, text);
  const { model, issues: all } = build(file, source ? [source] : [], issues);
  if (!model) throw new ModelError(all);
  return model;
}

let demo: SemanticModel | undefined;
/** The built-in demo shop model, read once. */
export function demoModel(): SemanticModel {
  demo ??= loadModel(DEMO_MODEL_PATH);
  return demo;
}
